// The apply loops of one worker's primaries (cluster mode, docs/cluster.md section 5): per shard, an
// ordered JetStream consumer from applied_seq + 1 whose entries go to the shard in batches (what
// arrived together, up to BATCH entries), each batch applied and committed with its applied_seq in
// one LMDB transaction (applier.ts). Loaded only in cluster mode (entry.ts imports it lazily).
//
// The v3 client recreates an ordered consumer itself after most faults, but it can stay silent
// (docs/cluster.md section 2; seen here after the stream leader's server was killed: heartbeats and
// notifications went on, entries did not). A watchdog of our own replaces a consumer session that
// delivered nothing for WATCHDOG_MS while the stream holds entries past applied_seq, starting a new
// one from applied_seq + 1; so does a session told of missed heartbeats or a deleted consumer.
// Each start, and each quiet watchdog tick, compares applied_seq with the stream's last sequence:
// a log behind applied_seq went backwards, and the shard is marked Dead, once answers agree over
// a while (BehindCheck: one answer may come from a server that has not caught up; the consumer
// waits meanwhile). Each start also compares
// it with the stream's first sequence, and each entry with the one expected next: entries after
// applied_seq purged (below a snapshot, docs/cluster.md section 7) can never be applied, so the shard is
// marked Dead as purged, for a snapshot restore (src/main/cluster/snapshots.ts) to bring back.
// And each entry's message id (one per write part, reused by every retry of its publish, so the
// stream stores it once) is compared with those this replica applied: one applied at another
// sequence means this replica was fed a log that is not the stream's. nats-server 2.9.10 did that
// after a stream leader frozen and resumed (why 2.10 or later is required; these checks stay, in
// case a log forks anyway): the old leader kept an entry that never reached a
// majority at sequence N and served it to its consumer, while the stream (after the client's retry)
// holds it at N + 1 and another write at N (a fault run's replica lost that write that way). The
// stream leader is asked what it holds at the earlier sequence; if not that write, the shard is
// marked Dead (the controller replaces the replica, make-before-break), else the stream really
// holds it twice and it is applied again (the same write twice changes nothing). A replica that
// keeps reading from the diverged server never meets that write again: for it, every VERIFY_MS the
// entries applied since are compared with what the stream leader holds (#verify).

import { workerLog } from '../stdout-log.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats } from '../../shared/nats-connection.js';
import { jetstream, jetstreamManager, JetStreamApiError, type Consumer, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { streamName } from '../../shared/log-entry.js';
import type { QuiverDb } from '../../shared/db.js';
import type { Shard } from '../shard/shard.js';
import { BehindCheck, ShardApplier, type LogEntry } from './applier.js';

/** Entries applied in one LMDB transaction at most. */
const BATCH = 256;
/** Server heartbeats asked of an idle consumer, and how long without any sign the watchdog waits. */
const IDLE_HEARTBEAT_MS = 1000;
const WATCHDOG_MS = 4000;
/** Between two starts of a consumer that failed. */
const RESTART_PAUSE_MS = 250;
/** Between two looks at a log that answered below applied_seq (see BehindCheck). */
const BEHIND_RECHECK_MS = 1000;
/**
 * Message ids of applied entries kept per shard: a retried publish comes within its 15 s deadline
 * (JetStream keeps ids 2 minutes), far fewer entries than this at any rate a shard takes.
 */
const IDS_KEPT = 16_384;
/** JetStream's message-id header. */
const MSG_ID = 'Nats-Msg-Id';
/** How often entries applied since the last look are checked against the stream leader, and at most how many a look. */
const VERIFY_MS = 5000;
const VERIFY_MAX = 256;
/** Between the two answers that must agree before a replica is found fed another log. */
const VERIFY_CONFIRM_MS = 2000;

/** What a loop feeds. */
interface FollowTarget {
  applier: ShardApplier;
  /** Applies entries to the shard (after any graph save holding its writes); resolves once flushed. */
  apply(entries: LogEntry[]): Promise<void>;
}

/** This loop's lines (message first, as its call sites read). */
function log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>): void {
  workerLog(level, fields, msg);
}

class ShardFollow {
  readonly #target: FollowTarget;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #stream: string;
  #stopped = false;
  /** The consumer session that feeds the shard; an older one's messages are ignored. */
  #gen = 0;
  #messages: ConsumerMessages | null = null;
  /** Sessions started so far (the first is not logged, later ones are: see #placed). */
  #sessions = 0;
  /** When the current session started or last delivered an entry. */
  #lastMessage = Date.now();
  #timer: NodeJS.Timeout;
  /** The batch being gathered, and the chain of batches applied in order. */
  #pending: LogEntry[] = [];
  #flushScheduled = false;
  #chain: Promise<void> = Promise.resolve();
  readonly #behindCheck = new BehindCheck();
  /** Message id -> the sequence this replica applied it at (the last IDS_KEPT), and back. */
  readonly #appliedIds = new Map<string, number>();
  readonly #idAt = new Map<number, string>();
  /** Sequences applied since the last look at the stream leader (see #verify). */
  #unverified: number[] = [];
  #verifying = false;
  readonly #verifyTimer: NodeJS.Timeout;

  constructor(target: FollowTarget, js: JetStreamClient, jsm: JetStreamManager) {
    this.#target = target;
    this.#js = js;
    this.#jsm = jsm;
    this.#stream = streamName(target.applier.collection, target.applier.shard);
    this.#timer = setInterval(() => void this.#watch(), WATCHDOG_MS / 2);
    this.#timer.unref();
    this.#verifyTimer = setInterval(() => void this.#verify(), VERIFY_MS);
    this.#verifyTimer.unref();
    this.#start();
  }

  stop(): void {
    this.#stopped = true;
    this.#gen++;
    clearInterval(this.#timer);
    clearInterval(this.#verifyTimer);
    this.#messages?.stop();
  }

  #fields(): Record<string, unknown> {
    return { collection: this.#target.applier.collection, shard: this.#target.applier.shard, applied_seq: this.#target.applier.applied };
  }

  #start(): void {
    const gen = ++this.#gen;
    void this.#session(gen);
  }

  /**
   * Ends the current session (whether or not its iterator ever returns) and starts another from
   * applied_seq + 1 once what was received is applied.
   */
  #restart(gen: number): void {
    if (gen !== this.#gen || this.#stopped) return;
    this.#flush();
    this.#messages?.stop();
    this.#messages = null;
    this.#start();
  }

  async #session(gen: number): Promise<void> {
    try {
      // What earlier sessions received is applied first: this one starts after it.
      await this.#chain;
      if (gen !== this.#gen || this.#target.applier.dead !== null) return;
      const position = await this.#position();
      if (position === 'dead') return;
      if (position === 'wait') {
        // Told the log ends below applied_seq, not confirmed yet: no consumer until it is settled.
        await new Promise((r) => setTimeout(r, BEHIND_RECHECK_MS));
        if (gen === this.#gen && !this.#stopped) this.#start();
        return;
      }
      let next = this.#target.applier.applied + 1;
      const consumer = await this.#js.consumers.get(this.#stream, { opt_start_seq: this.#target.applier.applied + 1 });
      const messages = await consumer.consume({ max_messages: BATCH * 2, idle_heartbeat: IDLE_HEARTBEAT_MS, expires: 5000 });
      if (gen !== this.#gen) {
        messages.stop();
        return;
      }
      this.#messages = messages;
      this.#lastMessage = Date.now();
      if (this.#sessions++ > 0) void this.#placed(consumer, 'shard log consumer started again');
      void (async () => {
        for await (const st of messages.status()) {
          if (gen !== this.#gen) return;
          if (st.type === 'ordered_consumer_recreated') void this.#placed(consumer, 'shard log consumer recreated by the client');
          if (st.type === 'stream_not_found' || st.type === 'consumer_deleted' || (st.type === 'heartbeats_missed' && st.count >= 2)) {
            log('warn', `shard log consumer: ${st.type}; starting a new one`, this.#fields());
            this.#restart(gen);
            return;
          }
        }
      })().catch(() => undefined);
      for await (const m of messages) {
        if (gen !== this.#gen) break;
        if (m.seq > next) {
          // The consumer started at the stream's first entry, past ours: the rest was purged.
          this.#purged(m.seq);
          break;
        }
        next = Math.max(next, m.seq + 1);
        this.#lastMessage = Date.now();
        const id = m.headers?.get(MSG_ID);
        this.#pending.push(id ? { seq: m.seq, data: m.data, id } : { seq: m.seq, data: m.data });
        if (this.#pending.length >= BATCH) this.#flush();
        else if (!this.#flushScheduled) {
          this.#flushScheduled = true;
          // What arrived in this read from the socket goes in one batch.
          setImmediate(() => this.#flush());
        }
      }
    } catch (err) {
      if (gen === this.#gen && !this.#stopped && !(err instanceof JetStreamApiError && err.status === 404)) {
        log('warn', 'shard log consumer failed; starting a new one', { ...this.#fields(), err: String(err) });
      }
    }
    if (gen !== this.#gen || this.#stopped || this.#target.applier.dead !== null) return;
    this.#flush();
    this.#messages = null;
    await new Promise((r) => setTimeout(r, RESTART_PAUSE_MS));
    if (gen === this.#gen && !this.#stopped) this.#start();
  }

  /**
   * Logs which nats-server serves a consumer just (re)created: nats-server 2.9 places an R1
   * consumer on any of the stream's peers, so after a fault it may read from a server that is
   * still catching up (or was just restarted). Kept to restarts, so a healthy run logs none.
   */
  async #placed(consumer: Consumer, msg: string): Promise<void> {
    const info = await consumer.info(true).catch(() => null);
    log('info', msg, { ...this.#fields(), from_seq: info?.config.opt_start_seq ?? null, server: info?.cluster?.leader ?? null, consumer: info?.name ?? null });
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    const gen = this.#gen;
    const last = batch.reduce((m, e) => Math.max(m, e.seq), 0);
    this.#chain = this.#chain
      .then(async () => {
        if (await this.#fedAnotherLog(batch)) return;
        const before = this.#target.applier.applied;
        await this.#target.apply(batch);
        this.#remember(batch, before);
      })
      .catch((err: unknown) => log('error', 'shard log batch not applied', { ...this.#fields(), err: String(err) }))
      .then(() => {
        // Entries received and not applied (a gap in what was delivered, the shard away for a
        // moment, a failed batch): the session that delivered them is replaced by one reading
        // from applied_seq + 1, so nothing after them is applied first (applier.ts).
        if (this.#target.applier.applied < last && this.#target.applier.dead === null && !this.#stopped) {
          log('warn', 'shard log entries received but not applied; reading again from applied_seq + 1', { ...this.#fields(), last_received: last });
          this.#restart(gen);
        }
      });
  }

  /** Keeps the ids of the entries just applied (those after `before`, up to applied_seq). */
  #remember(batch: readonly LogEntry[], before: number): void {
    const upTo = this.#target.applier.applied;
    for (const e of batch) {
      if (e.id === undefined || e.seq <= before || e.seq > upTo) continue;
      this.#appliedIds.delete(e.id);
      this.#appliedIds.set(e.id, e.seq);
      this.#idAt.set(e.seq, e.id);
      this.#unverified.push(e.seq);
    }
    for (const id of this.#appliedIds.keys()) {
      if (this.#appliedIds.size <= IDS_KEPT) break;
      this.#appliedIds.delete(id);
    }
    for (const seq of this.#idAt.keys()) {
      if (this.#idAt.size <= IDS_KEPT) break;
      this.#idAt.delete(seq);
    }
    if (this.#unverified.length > IDS_KEPT) this.#unverified = this.#unverified.slice(-IDS_KEPT);
  }

  /**
   * Every VERIFY_MS: entries applied since the last look are compared with what the stream leader
   * holds at their sequences, all of them while they number at most VERIFY_MAX (a shard taking
   * fewer than VERIFY_MAX / VERIFY_MS writes a second, tests included), else VERIFY_MAX of them
   * evenly spread, the newest always. This catches a replica fed a log that is not the stream's when
   * it never meets the same write again (see the file comment). A sequence held by another write is
   * asked again VERIFY_CONFIRM_MS later (a resumed old leader may answer from its own store for a
   * moment); the same answer marks the shard Dead. A purged sequence concludes nothing. While the
   * leader cannot be asked, the entries not yet checked wait for the next look: a stream without a
   * leader (seconds, after its leader's server was frozen) is when a diverged log arises.
   */
  async #verify(): Promise<void> {
    if (this.#verifying || this.#stopped || this.#unverified.length === 0 || this.#target.applier.dead !== null) return;
    this.#verifying = true;
    const all = this.#unverified;
    this.#unverified = [];
    const pick = all.length <= VERIFY_MAX ? all : Array.from({ length: VERIFY_MAX }, (_, i) => all[Math.round(((all.length - 1) * (i + 1)) / VERIFY_MAX)]!);
    let i = 0;
    try {
      for (; i < pick.length; i++) {
        const seq = pick[i]!;
        const id = this.#idAt.get(seq);
        if (id === undefined || this.#stopped) continue;
        const first = await this.#heldAt(seq);
        if (first === undefined || first === null || first === id) continue;
        await new Promise((r) => setTimeout(r, VERIFY_CONFIRM_MS));
        const again = await this.#heldAt(seq);
        if (again === undefined || again === null || again === id || this.#stopped || this.#target.applier.dead !== null) continue;
        this.#dead(`it applied write ${id} at sequence ${seq}, where its log holds ${again} (asked twice, ${VERIFY_CONFIRM_MS} ms apart): this replica was fed a log that is not the stream's`);
        return;
      }
    } catch {
      // The leader cannot be asked now: what is left of this look goes first in the next.
      this.#unverified = pick.slice(i).concat(this.#unverified).slice(-IDS_KEPT);
    } finally {
      this.#verifying = false;
    }
  }

  /** What the stream leader holds at `seq`: its message id, null for a write without one, undefined for nothing (purged). */
  async #heldAt(seq: number): Promise<string | null | undefined> {
    const m = await this.#jsm.streams.getMessage(this.#stream, { seq });
    return m === null ? undefined : m.header?.get(MSG_ID) || null;
  }

  /** Marks the shard Dead for `why` (logged with `extra`), and stops following its log. */
  #dead(why: string, extra: Record<string, unknown> = {}, purged = false): void {
    const a = this.#target.applier;
    const reason = `shard ${a.collection}/${a.shard} is Dead: ${why}`;
    a.markDead(reason, purged);
    log('error', reason, { ...this.#fields(), ...extra });
    this.stop();
  }

  /**
   * Whether this batch shows the replica was fed a log other than the stream's (see the file
   * comment): then the shard is marked Dead and true is answered. Also true, without a verdict,
   * when the stream leader cannot be asked now: nothing of the batch is applied, and the session is
   * replaced (reading again from applied_seq + 1 asks again).
   */
  async #fedAnotherLog(batch: readonly LogEntry[]): Promise<boolean> {
    const a = this.#target.applier;
    for (const e of batch) {
      if (e.seq <= a.applied || e.id === undefined) continue;
      const at = this.#appliedIds.get(e.id);
      if (at === undefined || at === e.seq) continue;
      let held: string | null | undefined;
      try {
        held = await this.#heldAt(at);
      } catch (err) {
        log('warn', 'shard log entry arrived again at another sequence; the stream leader cannot be asked now', { ...this.#fields(), msg_id: e.id, applied_at: at, seq: e.seq, err: String(err) });
        return true;
      }
      // Gone (purged below a snapshot since): nothing to compare with, so nothing is concluded.
      if (held === undefined) {
        log('warn', 'shard log entry arrived again at another sequence, and the earlier one is purged; applying it', { ...this.#fields(), msg_id: e.id, applied_at: at, seq: e.seq });
        this.#appliedIds.set(e.id, e.seq);
        continue;
      }
      if (held === e.id) {
        log('warn', 'shard log holds one write at two sequences; applying it again', { ...this.#fields(), msg_id: e.id, first_seq: at, seq: e.seq });
        this.#appliedIds.set(e.id, e.seq);
        continue;
      }
      this.#dead(`it applied write ${e.id} at sequence ${at}, where its log holds ${held ?? 'a write without id'}, and the log now delivers it at ${e.seq}: this replica was fed a log that is not the stream's`);
      return true;
    }
    return false;
  }

  /**
   * Where applied_seq stands against the stream (without `last`: read from it, with its first
   * sequence): 'dead' (and the shard marked so) when the stream was purged past the next entry to
   * apply, or when it ends below applied_seq on answers that agree over a while (BehindCheck);
   * 'wait' while such an answer is not confirmed; else 'ok'.
   */
  async #position(last?: number): Promise<'ok' | 'wait' | 'dead'> {
    const a = this.#target.applier;
    if (last === undefined) {
      const state = (await this.#jsm.streams.info(this.#stream)).state;
      last = state.last_seq;
      // A server behind the others answers a lower first sequence, never a higher one: no false Dead here.
      if (state.first_seq > a.applied + 1 && last > a.applied) {
        this.#purged(state.first_seq);
        return 'dead';
      }
    }
    const { verdict, first } = this.#behindCheck.observe(a.applied, last, Date.now());
    if (verdict === 'ok') return 'ok';
    if (verdict === 'suspect') {
      if (first) log('warn', "shard log answered a last sequence below applied_seq; checking again before marking the shard Dead", { ...this.#fields(), last_seq: last });
      return 'wait';
    }
    this.#dead(`applied_seq ${a.applied} is past its log's last sequence ${last} (the log went backwards)`, { last_seq: last });
    return 'dead';
  }

  /** Entries after applied_seq are gone from the stream (its first is `first`): Dead until a snapshot restores the shard. */
  #purged(first: number): void {
    this.#dead(`its log was purged past applied_seq ${this.#target.applier.applied} (first entry ${first}); it needs a snapshot restore`, { first_seq: first }, true);
  }

  /**
   * Runs `fn` between two batches: no entry is applied to the shard until it settles (a snapshot
   * taken, or a restore). Batches received meanwhile wait for it, in order.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn);
    this.#chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Every WATCHDOG_MS / 2: a session that delivered nothing for WATCHDOG_MS while the stream holds
   * entries past applied_seq is stuck, whatever its own notifications say, and is replaced; a
   * stream that ends below applied_seq marks the shard Dead.
   */
  async #watch(): Promise<void> {
    if (this.#stopped || this.#pending.length > 0 || Date.now() - this.#lastMessage < WATCHDOG_MS) return;
    const gen = this.#gen;
    let last: number;
    try {
      last = (await this.#jsm.streams.info(this.#stream)).state.last_seq;
    } catch {
      return;
    }
    if (gen !== this.#gen || (await this.#position(last)) !== 'ok') return;
    if (last > this.#target.applier.applied && Date.now() - this.#lastMessage >= WATCHDOG_MS) {
      log('warn', 'shard log consumer silent while the log is ahead; starting a new one', { ...this.#fields(), last_seq: last });
      this.#lastMessage = Date.now();
      this.#restart(gen);
    }
  }
}

/** One shard's apply loop, as the host holds it. */
export interface FollowHandle {
  applier: ShardApplier;
  stop(): void;
  /** Runs `fn` with no entry applied until it settles (see ShardFollow.exclusive). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
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
    const nc = await connectNats(servers, 5000);
    return new LogFollower(nc, await jetstreamManager(nc));
  }

  follow(db: QuiverDb, collection: number, shard: number, current: () => Shard | undefined): FollowHandle {
    const applier = new ShardApplier(db, collection, shard);
    applier.onEntryFailed = (seq, why) => log('warn', 'shard log entry failed on this replica', { collection, shard, seq, err: why });
    // Once stopped, batches still queued apply nothing: the shard may have been replaced (a
    // snapshot restored), and this applier's applied_seq is no longer the shard's.
    let stopped = false;
    const apply = async (entries: LogEntry[]): Promise<void> => {
      let s = current();
      if (stopped) return;
      if (s === undefined) {
        log('warn', 'shard log entries for a shard not open here; read again later', { collection, shard, first_seq: entries[0]?.seq });
        return;
      }
      // After a graph save holding the shard's writes; then the whole batch in this one turn.
      let hold: Promise<void> | null;
      while ((hold = s.writeHold) !== null) await hold;
      s = current();
      if (s === undefined || stopped) return;
      await applier.apply(s, entries);
    };
    const follow = new ShardFollow({ applier, apply }, this.#js, this.#jsm);
    return {
      applier,
      stop: () => {
        stopped = true;
        follow.stop();
      },
      exclusive: (fn) => follow.exclusive(fn),
    };
  }

  async close(): Promise<void> {
    await this.#nc.close();
  }
}
