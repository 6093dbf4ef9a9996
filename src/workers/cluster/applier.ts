// One shard's position in its write log (cluster mode, docs/cluster.md section 5), kept by the worker
// that owns the shard: which entries it applied, which of them LMDB has flushed, each recent
// entry's outcome for `wait=true`, and whether the shard is Dead.
//
// Invariants:
// - `applied_seq` is written to LMDB in the same event turn as the points of the entries it
//   covers, so lmdb-js commits them in one transaction (its eventTurnBatching, on by default): after
//   any crash, the points on disk are exactly those of the entries up to the stored applied_seq.
// - An entry is applied with its sequence as op id (a point's version is the sequence that last
//   wrote it), so an entry applied twice changes nothing; entries at or below `applied` are skipped.
// - Entries are applied in unbroken sequence: `applied` only ever moves to `applied + 1`, so no
//   entry is passed over, whatever a consumer delivered or a caller dropped.
// - The log digest (a hash chained over every entry applied, its sequence and bytes) is written
//   with applied_seq, with the sequence it covers: two replicas at the same applied_seq whose
//   digests differ were served different content at some sequence (seen nowhere yet; kept so a
//   replica found short of points tells that apart from an entry it skipped). Unknown (null)
//   where the replica did not apply its whole log itself: after a snapshot restore, or on data
//   from before digests.
// - A Dead shard (its log was found behind applied_seq: the log went backwards; or purged past it,
//   entries it never applied gone) never serves again in this process unless a snapshot replaces
//   it (restoreShard: a new applier then starts from the snapshot's seq).
// No NATS here: the consumer that feeds it is apply-loop.ts, loaded in cluster mode only.

import { createHash } from 'node:crypto';
import { appliedSeqKey, decodeEntry, type LoggedWrite } from '../../shared/log-entry.js';
import type { QuiverDb } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { Shard } from '../shard/shard.js';

export interface LogEntry {
  seq: number;
  data: Uint8Array;
  /** JetStream's message id (one per write part; apply-loop.ts checks it, the applier does not). */
  id?: string;
}

/** The `meta` keys of a shard's log digest and of the applied_seq it covers (see the invariants). */
export function logDigestKey(collection: number, shard: number): string {
  return `log_digest/${collection}/${shard}`;
}
export function logDigestSeqKey(collection: number, shard: number): string {
  return `log_digest_seq/${collection}/${shard}`;
}

/** The digest after entry `seq` (bytes `data`) follows `prev` (0 before the first entry): 48 bits, a safe integer for `meta`. */
export function nextLogDigest(prev: number, seq: number, data: Uint8Array): number {
  const head = Buffer.alloc(16);
  head.writeUIntBE(prev, 0, 6);
  head.writeBigUInt64BE(BigInt(seq), 8);
  return createHash('sha1').update(head).update(data).digest().readUIntBE(0, 6);
}

/** Recent outcomes kept for `wait=true` (older ones answer null: the caller knows what it sent). */
const OUTCOMES_KEPT = 20_000;

interface Waiter {
  seq: number;
  resolve: () => void;
}

/** Runs one logged write on the shard with op id `seq`; its synchronous part does every change (or refuses it, a binding's guard included). */
function run(shard: Shard, w: LoggedWrite, seq: number): Promise<unknown> {
  switch (w.op) {
    case 'upsert':
      return shard.upsert(w.batch, seq, false, w.condition, w.guard ?? null);
    case 'updateVectors':
      return shard.updateVectors(w.batch, seq, false, w.condition, w.guard ?? null).then((applied) => ({ applied }));
    case 'delete':
      return shard.delete(w.ids, w.filter, seq, false, w.guard ?? null).then((deleted) => ({ deleted }));
    case 'payload':
      return shard.updatePayload(w.change, w.ids, w.filter, seq, false, w.guard ?? null).then((applied) => ({ applied }));
    case 'deleteVectors':
      return shard.deleteVectors(w.names, w.ids, w.filter, seq, false, w.guard ?? null).then((applied) => ({ applied }));
  }
}

export class ShardApplier {
  readonly collection: number;
  readonly shard: number;
  readonly #db: QuiverDb;
  /** Last entry applied in memory and queued to LMDB. */
  applied: number;
  /** Last entry whose commit LMDB has flushed (what `wait=true` waits for). */
  flushed: number;
  /** Why the shard is Dead, or null. */
  dead: string | null = null;
  /** Dead because the log was purged past applied_seq: a snapshot restore is what brings it back. */
  purged = false;
  /** The log digest up to `applied` (see the invariants), or null when unknown. */
  digest: number | null;
  /** Told of an entry whose write failed here (applied_seq still moves past it). */
  onEntryFailed: ((seq: number, why: string) => void) | null = null;
  readonly #outcomes = new Map<number, Promise<unknown>>();
  #waiters: Waiter[] = [];

  constructor(db: QuiverDb, collection: number, shard: number) {
    this.#db = db;
    this.collection = collection;
    this.shard = shard;
    this.applied = db.meta.get(appliedSeqKey(collection, shard)) ?? 0;
    this.flushed = this.applied;
    const digest = db.meta.get(logDigestKey(collection, shard));
    this.digest = this.applied === 0 ? 0 : digest !== undefined && db.meta.get(logDigestSeqKey(collection, shard)) === this.applied ? digest : null;
  }

  /**
   * Applies the entries after `applied` (in sequence order), all in this turn, with the new
   * applied_seq; resolves once that commit is flushed. It stops at a gap (an entry other than
   * `applied + 1`): what follows is not applied, and the caller reads the log again from there. A commit failure rejects (the worker then
   * reloads the shard from LMDB, see entry.ts).
   */
  apply(shard: Shard, entries: readonly LogEntry[]): Promise<void> {
    let any = false;
    for (const e of entries) {
      if (e.seq <= this.applied) continue;
      // Never past a missing entry: the rest waits for the loop to read again from applied_seq + 1
      // (apply-loop.ts), or a later entry's applied_seq would claim the missing one.
      if (e.seq !== this.applied + 1) break;
      let outcome: Promise<unknown>;
      try {
        outcome = run(shard, decodeEntry(e.data), e.seq);
      } catch (err) {
        // A deterministic failure (every replica meets it at this sequence): recorded, not retried.
        outcome = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      const seq = e.seq;
      // Logged where it happens: a failure every replica meets is the write's (its caller hears
      // it through wait=true); one only some replicas meet would make them differ.
      outcome.then(
        (r) => {
          const error = (r as { error?: unknown } | null)?.error;
          if (typeof error === 'string') this.onEntryFailed?.(seq, error);
        },
        (err: unknown) => this.onEntryFailed?.(seq, err instanceof Error ? err.message : String(err)),
      );
      this.#outcomes.set(e.seq, outcome);
      if (this.digest !== null) this.digest = nextLogDigest(this.digest, e.seq, e.data);
      this.applied = e.seq;
      any = true;
    }
    if (!any) return Promise.resolve();
    for (const seq of this.#outcomes.keys()) {
      if (seq > this.applied - OUTCOMES_KEPT) break;
      this.#outcomes.delete(seq);
    }
    const upTo = this.applied;
    const puts = [this.#db.meta.put(appliedSeqKey(this.collection, this.shard), upTo)];
    // Same turn, so the same LMDB transaction as applied_seq (a digest left unwritten stays stale: its seq no longer matches).
    if (this.digest !== null) {
      puts.push(this.#db.meta.put(logDigestKey(this.collection, this.shard), this.digest));
      puts.push(this.#db.meta.put(logDigestSeqKey(this.collection, this.shard), upTo));
    }
    const commit = Promise.all(puts);
    return (async () => {
      await commit;
      await this.#db.meta.flushed;
      if (upTo > this.flushed) this.flushed = upTo;
      const ready = this.#waiters.filter((w) => w.seq <= this.flushed);
      if (ready.length > 0) {
        this.#waiters = this.#waiters.filter((w) => w.seq > this.flushed);
        for (const w of ready) w.resolve();
      }
    })();
  }

  /** Entry `seq`'s outcome once it is applied and flushed; ShardUnavailable after `timeoutMs`. */
  async awaitApplied(seq: number, timeoutMs: number): Promise<{ result: unknown }> {
    if (this.flushed < seq) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          reject(
            new QuiverError(
              'ShardUnavailable',
              `Write is stored in the log of shard ${this.shard} (sequence ${seq}) but was not applied here within ${timeoutMs} ms${this.dead === null ? '' : ` (${this.dead})`}; it will be: retry with wait=false or later`,
            ),
          );
        }, timeoutMs);
        const waiter: Waiter = {
          seq,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        this.#waiters.push(waiter);
      });
    }
    const outcome = this.#outcomes.get(seq);
    return { result: outcome === undefined ? null : await outcome };
  }

  markDead(reason: string, purged = false): void {
    this.dead = reason;
    this.purged = purged;
  }
}

/** Answers below applied_seq in a row, over at least BEHIND_CONFIRM_MS, before a shard is Dead as behind its log. */
export const BEHIND_CHECKS = 4;
export const BEHIND_CONFIRM_MS = 15_000;

/**
 * Whether a shard's log went backwards (its last sequence below applied_seq), from repeated
 * answers. One answer is not enough: a stream leader resumed after a pause answers a stream info
 * request with its old state until it learns of the leader elected meanwhile (seen in the fault
 * suite: a replica at 157 told the log ended at 95, when it ended at 161). So Dead needs
 * `checks` answers in a row below applied_seq, spanning `windowMs` (longer than a NATS election);
 * any answer at or past it clears the suspicion.
 */
export class BehindCheck {
  readonly #checks: number;
  readonly #windowMs: number;
  #since: number | null = null;
  #seen = 0;

  constructor(checks = BEHIND_CHECKS, windowMs = BEHIND_CONFIRM_MS) {
    this.#checks = checks;
    this.#windowMs = windowMs;
  }

  /** 'ok': not behind; 'suspect': behind, not confirmed yet (`first`: the first such answer); 'behind': confirmed. */
  observe(applied: number, last: number, now: number): { verdict: 'ok' | 'suspect' | 'behind'; first: boolean } {
    if (applied <= last) {
      this.#since = null;
      this.#seen = 0;
      return { verdict: 'ok', first: false };
    }
    const first = this.#since === null;
    this.#since ??= now;
    this.#seen++;
    return { verdict: this.#seen >= this.#checks && now - this.#since >= this.#windowMs ? 'behind' : 'suspect', first };
  }
}
