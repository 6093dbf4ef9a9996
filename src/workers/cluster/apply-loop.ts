// The apply loops of one worker's primaries (cluster mode, CLUSTER.md section 5): per shard, an
// ordered JetStream consumer from applied_seq + 1 whose entries go to the shard in batches (what
// arrived together, up to BATCH entries), each batch applied and committed with its applied_seq in
// one LMDB transaction (applier.ts). Loaded only in cluster mode (entry.ts imports it lazily).
//
// The v3 client recreates an ordered consumer itself after most faults, but it can stay silent
// (CLUSTER.md section 2): a watchdog of our own stops a consumer that has shown no message and no
// heartbeat for WATCHDOG_MS and starts a new one from applied_seq + 1. Each start, and each quiet
// watchdog tick, compares applied_seq with the stream's last sequence: a log behind applied_seq
// went backwards, and the shard is marked Dead.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, JetStreamApiError, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { streamName } from '../../shared/log-entry.js';
import type { LogEntry, ShardApplier } from './applier.js';

/** Entries applied in one LMDB transaction at most. */
const BATCH = 256;
/** Server heartbeats asked of an idle consumer, and how long without any sign the watchdog waits. */
const IDLE_HEARTBEAT_MS = 1000;
const WATCHDOG_MS = 4000;
/** Between two starts of a consumer that failed. */
const RESTART_PAUSE_MS = 250;

/** What the loop needs from the shard's host. */
export interface FollowTarget {
  applier: ShardApplier;
  /** Applies entries to the shard (after any graph save holding its writes); resolves once flushed. */
  apply(entries: LogEntry[]): Promise<void>;
}

/** A pino-shaped line on stdout (the server's log format; workers have no logger of their own). */
function log(level: 'warn' | 'error', msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ level: level === 'error' ? 50 : 40, time: Date.now(), ...fields, msg }) + '\n');
}

class ShardFollow {
  readonly #target: FollowTarget;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #stream: string;
  #stopped = false;
  #messages: ConsumerMessages | null = null;
  #lastSign = Date.now();
  #timer: NodeJS.Timeout;
  /** The batch being gathered, and the chain of batches applied in order. */
  #pending: LogEntry[] = [];
  #flushScheduled = false;
  #chain: Promise<void> = Promise.resolve();

  constructor(target: FollowTarget, js: JetStreamClient, jsm: JetStreamManager) {
    this.#target = target;
    this.#js = js;
    this.#jsm = jsm;
    this.#stream = streamName(target.applier.collection, target.applier.shard);
    this.#timer = setInterval(() => void this.#watch(), WATCHDOG_MS / 2);
    this.#timer.unref();
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#messages?.stop();
  }

  async #run(): Promise<void> {
    while (!this.#stopped && this.#target.applier.dead === null) {
      try {
        if (await this.#behind()) return;
        // Wait for earlier batches: the new consumer starts after what they applied.
        await this.#chain;
        const consumer = await this.#js.consumers.get(this.#stream, { opt_start_seq: this.#target.applier.applied + 1 });
        const messages = await consumer.consume({ max_messages: BATCH * 2, idle_heartbeat: IDLE_HEARTBEAT_MS, expires: 5000 });
        this.#messages = messages;
        this.#lastSign = Date.now();
        void (async () => {
          for await (const s of messages.status()) {
            this.#lastSign = Date.now();
            if (s.type === 'stream_not_found' || s.type === 'consumer_deleted') messages.stop();
          }
        })().catch(() => undefined);
        if (this.#stopped) messages.stop();
        for await (const m of messages) {
          this.#lastSign = Date.now();
          this.#pending.push({ seq: m.seq, data: m.data });
          if (this.#pending.length >= BATCH) this.#flush();
          else if (!this.#flushScheduled) {
            this.#flushScheduled = true;
            // What arrived in this read from the socket goes in one batch.
            setImmediate(() => this.#flush());
          }
        }
      } catch (err) {
        if (!this.#stopped && !(err instanceof JetStreamApiError && err.status === 404)) {
          log('warn', 'shard log consumer failed; starting a new one', { collection: this.#target.applier.collection, shard: this.#target.applier.shard, err: String(err) });
        }
      } finally {
        this.#messages = null;
        this.#flush();
      }
      if (!this.#stopped) await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS));
    }
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#chain = this.#chain
      .then(() => this.#target.apply(batch))
      .catch((err: unknown) => log('error', 'shard log batch not applied', { collection: this.#target.applier.collection, shard: this.#target.applier.shard, err: String(err) }));
  }

  /** True (and the shard marked Dead) when the stream's last sequence is below applied_seq. */
  async #behind(): Promise<boolean> {
    const a = this.#target.applier;
    const last = (await this.#jsm.streams.info(this.#stream)).state.last_seq;
    if (a.applied <= last) return false;
    const reason = `shard ${a.collection}/${a.shard} is Dead: applied_seq ${a.applied} is past its log's last sequence ${last} (the log went backwards)`;
    a.markDead(reason);
    log('error', reason, { collection: a.collection, shard: a.shard, applied_seq: a.applied, last_seq: last });
    this.stop();
    return true;
  }

  async #watch(): Promise<void> {
    if (this.#stopped) return;
    if (Date.now() - this.#lastSign > WATCHDOG_MS && this.#messages !== null) {
      log('warn', 'shard log consumer silent; starting a new one', { collection: this.#target.applier.collection, shard: this.#target.applier.shard });
      this.#messages.stop();
      return;
    }
    // A quiet consumer: is the log still ahead of us?
    if (this.#pending.length === 0) await this.#behind().catch(() => undefined);
  }
}

/** One NATS connection for the worker's loops. */
export class LogFollower {
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;

  private constructor(nc: NatsConnection, jsm: JetStreamManager) {
    this.#nc = nc;
    this.#jsm = jsm;
    this.#js = jetstream(nc);
  }

  static async connect(servers: string[]): Promise<LogFollower> {
    const nc = await connect({ servers, timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    return new LogFollower(nc, await jetstreamManager(nc));
  }

  follow(target: FollowTarget): { stop(): void } {
    return new ShardFollow(target, this.#js, this.#jsm);
  }

  async close(): Promise<void> {
    await this.#nc.close();
  }
}
