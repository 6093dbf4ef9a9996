// The shards' write-ahead log on NATS JetStream (cluster mode, docs/cluster.md sections 3 and 4), as
// the main thread uses it: one stream per shard (QV_<collectionId>_<shard>, subject
// qv.<collectionId>.<shard>, file storage, no age limit, a duplicate window of 2 minutes, direct
// gets allowed), created and deleted with its collection, and publishing a shard's part of a write.
//
// Invariant: a part is published with message id `<node>.<request>.<shard>`, and every retry of
// it reuses that id, so JetStream stores it once however often the acknowledgement was lost.
// `<node>` names this process (a new one per start: a request number never repeats under it),
// so two processes never share an id inside the duplicate window.
// Retries run while the error is one a leader election or a lost connection explains (timeout,
// no responders, 503), for a bounded time; then the write fails with a retryable 503.

import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, JetStreamApiError, type JetStreamClient, type JetStreamManager, DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { QuiverError } from '../errors.js';
import { connectNats, watchConnection } from '../nats-connection.js';
import { retryFor, settleWithin } from '../deadline.js';
import { encodeEntry, streamName, subjectOf, type LoggedWrite } from '../log-entry.js';

/** Where the log reports what an operator should see (the server's logger; a worker's stdout line). */
export interface WarnLog {
  warn(fields: Record<string, unknown>, msg: string): void;
}

/** A publish that took longer than this (or was retried) is logged: it is how an operator sees a log stall. */
const SLOW_PUBLISH_MS = 1000;

/** How long start-up waits for JetStream to answer (a NATS cluster electing its meta leader). */
const JETSTREAM_WAIT_MS = 30_000;

/** JetStream's duplicate window, in nanoseconds: at least as long as any retry of one publish. */
const DUPLICATE_WINDOW_NS = 120 * 1e9;

export interface ShardLogOptions {
  /** NATS servers (config `cluster.nats`). */
  servers: string[];
  /** Stream replicas (config `cluster.stream_replicas`; 3 in production, 1 on a one-server NATS). */
  replicas: number;
  /** How long one publish retries before it answers 503 (ms). */
  publishDeadlineMs?: number;
  /** Wait for each acknowledgement (ms). */
  ackTimeoutMs?: number;
  /** How long start-up tries to reach NATS (ms). */
  connectTimeoutMs?: number;
  /** How long start-up waits for JetStream to answer once NATS is reached (ms; JETSTREAM_WAIT_MS). */
  jetStreamWaitMs?: number;
}

/** A write's part in one shard's log, stored: its sequence in the stream. */
export interface Published {
  shard: number;
  seq: number;
}

/** The oldest nats-server without the log fork seen with 2.9.10 (README, "The write log"). */
const NATS_MIN = [2, 10] as const;

/** Whether a server version ("2.9.10") is below `min` ([2, 10]); an unreadable one is not. */
export function versionBelow(version: string, min: readonly number[]): boolean {
  const parts = /^v?(\d+)\.(\d+)/.exec(version);
  if (parts === null) return false;
  const [major, minor] = [Number(parts[1]), Number(parts[2])];
  return major < min[0]! || (major === min[0] && minor < min[1]!);
}

/** Whom start-up names when NATS cannot be reached. */
export class ShardLogUnreachable extends Error {}

/** An acknowledgement of a duplicate not yet stored (sequence 0): retried like a timeout. */
class PendingDuplicate extends Error {
  constructor() {
    super('an earlier attempt is not stored yet (duplicate acknowledged with sequence 0)');
  }
}

function transient(err: unknown): boolean {
  if (err instanceof JetStreamApiError) return err.status === 503;
  // Timeouts, no responders (reported as "JetStream not enabled"), connection loss and reconnects
  // all mean the leader or the connection moves: the same message id retried is safe.
  return true;
}

/**
 * JetStream's "no suitable peers for placement" (err_code 10005): fewer servers can take a new
 * stream than its replicas, as while a NATS cluster forms or one of its servers is down.
 * Creating the stream again later succeeds, so creation retries it as it does a timeout.
 */
const NO_PEERS_FOR_PLACEMENT = 10005;

function placementPending(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === NO_PEERS_FOR_PLACEMENT;
}

export class ShardLog {
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #replicas: number;
  readonly #deadlineMs: number;
  readonly #ackTimeoutMs: number;
  /** This process's part of every message id (see the file comment). */
  readonly node: string;
  /** The version of the nats-server the connection reached first (its INFO). */
  readonly serverVersion: string;
  #log: WarnLog | null = null;
  #request = 0;

  private constructor(nc: NatsConnection, jsm: JetStreamManager, opts: ShardLogOptions) {
    this.#nc = nc;
    this.#jsm = jsm;
    this.#js = jetstream(nc, { timeout: opts.ackTimeoutMs ?? 2000 });
    this.#replicas = opts.replicas;
    this.#deadlineMs = opts.publishDeadlineMs ?? 15_000;
    this.#ackTimeoutMs = opts.ackTimeoutMs ?? 2000;
    this.node = randomBytes(6).toString('hex');
    this.serverVersion = nc.info?.version ?? 'unknown';
    void watchConnection(nc, (e) => this.log?.warn({ server: e.server }, `shard log NATS connection: ${e.type}`)).catch(() => undefined);
  }

  /** Where slow or retried publishes are reported (the server's logger once it exists); told once of a nats-server too old. */
  get log(): WarnLog | null {
    return this.#log;
  }
  set log(log: WarnLog | null) {
    if (this.#log === null && log !== null && versionBelow(this.serverVersion, NATS_MIN)) {
      log.warn(
        { nats_version: this.serverVersion },
        `nats-server ${this.serverVersion} is older than ${NATS_MIN.join('.')}: a stream leader's server paused and resumed can keep a copy of a shard's log that differs from the stream's, and replicas reading it diverge (README, "The write log"); run ${NATS_MIN.join('.')} or later`,
      );
    }
    this.#log = log;
  }

  /** Connects and checks that JetStream answers; refuses with a message naming the servers otherwise. */
  static async open(opts: ShardLogOptions): Promise<ShardLog> {
    const timeout = opts.connectTimeoutMs ?? 5000;
    let nc: NatsConnection;
    try {
      nc = await connectNats(opts.servers, timeout);
    } catch (err) {
      throw new ShardLogUnreachable(`cannot reach NATS at ${opts.servers.join(',')} (SERVICE_CLUSTER_NATS): ${err instanceof Error ? err.message : String(err)}`);
    }
    // JetStream answers once the servers have elected their meta leader: nodes started beside
    // their NATS (README's three nodes on one machine) met a 2.10 cluster still electing, and a
    // single try ended their start-up.
    const waitMs = opts.jetStreamWaitMs ?? JETSTREAM_WAIT_MS;
    try {
      const jsm = await retryFor(waitMs, 500, async () => {
        const jsm = await jetstreamManager(nc, { timeout });
        await jsm.getAccountInfo();
        return jsm;
      });
      return new ShardLog(nc, jsm, opts);
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw new ShardLogUnreachable(`NATS at ${opts.servers.join(',')} (SERVICE_CLUSTER_NATS) has no usable JetStream after ${Math.round(waitMs / 1000)} s: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Creates the collection's shard streams (those that exist are left as they are). Retried
   * while NATS answers with timeouts, elections or too few servers for the replicas (it is
   * idempotent), then a retryable 503.
   */
  async createStreams(collection: number, shards: number): Promise<void> {
    const retryable = (err: unknown): boolean => transient(err) || placementPending(err);
    try {
      await retryFor(this.#deadlineMs, 250, () => this.#createStreams(collection, shards), retryable);
    } catch (err) {
      if (!retryable(err)) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new QuiverError('ShardUnavailable', `Write logs of collection ${collection} could not be created (${why}); retry the request`);
    }
  }

  async #createStreams(collection: number, shards: number): Promise<void> {
    for (let s = 0; s < shards; s++) {
      const name = streamName(collection, s);
      try {
        await this.#jsm.streams.info(name);
        continue;
      } catch (err) {
        if (!(err instanceof JetStreamApiError) || err.status !== 404) throw err;
      }
      await this.#jsm.streams.add({
        name,
        subjects: [subjectOf(collection, s)],
        num_replicas: this.#replicas,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_age: 0,
        duplicate_window: DUPLICATE_WINDOW_NS,
        allow_direct: true,
      });
    }
  }

  /** Deletes the collection's shard streams (missing ones are skipped). */
  async deleteStreams(collection: number, shards: number): Promise<void> {
    for (let s = 0; s < shards; s++) {
      try {
        await this.#jsm.streams.delete(streamName(collection, s));
      } catch (err) {
        if (!(err instanceof JetStreamApiError) || err.status !== 404) throw err;
      }
    }
  }

  /** The last sequence the shard's stream holds (0: empty). */
  async lastSeq(collection: number, shard: number): Promise<number> {
    return (await this.#jsm.streams.info(streamName(collection, shard))).state.last_seq;
  }

  /** A request number for message ids: unique in this process. */
  nextRequest(): number {
    return ++this.#request;
  }

  /**
   * Stores one shard's part of request `request` and answers its sequence. Retries with the same
   * message id until the deadline; then a retryable 503.
   */
  async publish(collection: number, shard: number, request: number, write: LoggedWrite): Promise<number> {
    const data = encodeEntry(write);
    const msgID = `${this.node}.${request}.${shard}`;
    const subject = subjectOf(collection, shard);
    const started = Date.now();
    const deadline = started + this.#deadlineMs;
    let pause = 50;
    let attempts = 0;
    let firstError: string | null = null;
    for (;;) {
      attempts++;
      try {
        const ack = await this.#js.publish(subject, data, { msgID, timeout: this.#ackTimeoutMs });
        // A duplicate of an attempt the leader has proposed and not yet stored (nats-server 2.10
        // answers it at once, with sequence 0) says nothing was stored yet: the earlier attempt
        // may still fail to reach a majority. Asked again, the stream answers its sequence once
        // stored (duplicate, seq > 0), or stores this one when the earlier attempt was lost.
        if (ack.seq === 0) throw new PendingDuplicate();
        this.#reportSlow(collection, shard, msgID, started, attempts, firstError, ack.seq);
        return ack.seq;
      } catch (err) {
        const left = deadline - Date.now();
        const why = err instanceof Error ? err.message : String(err);
        firstError ??= why;
        if (!transient(err) || left <= 0) {
          this.#reportSlow(collection, shard, msgID, started, attempts, firstError, null);
          if (!transient(err)) throw QuiverError.internal(`Write log of shard ${shard} refused the write: ${why}`);
          // A 503 (ShardUnavailable) answers with Retry-After (http/app.ts, http/handoff.ts).
          throw new QuiverError('ShardUnavailable', `Write log of shard ${shard} unavailable (${why}); the write may or may not be stored: retry the request`);
        }
        await new Promise((r) => setTimeout(r, Math.min(pause, left)));
        pause = Math.min(pause * 2, 500);
      }
    }
  }

  #reportSlow(collection: number, shard: number, msgId: string, started: number, attempts: number, firstError: string | null, seq: number | null): void {
    const ms = Date.now() - started;
    if (attempts === 1 && ms < SLOW_PUBLISH_MS) return;
    this.log?.warn(
      { collection, shard, msg_id: msgId, attempts, ms, first_error: firstError, seq },
      seq === null ? 'shard log publish gave up' : 'shard log publish was slow',
    );
  }

  /** Closes the connection (every publish was awaited by its request); never holds shutdown more than 2 s. */
  async close(): Promise<void> {
    await settleWithin(this.#nc.close(), 2000);
  }
}
