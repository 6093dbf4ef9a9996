// One shard's writes: upsert, vectors replaced or removed, payload operations, deletions. Every
// one goes through #write: applied to memory synchronously first (reads see it at once), then
// queued to LMDB in the same order (a secondary copy stops at memory), resolving once LMDB has
// committed it, or with wait=true once the commit is flushed to disk.
//
// Invariants: a point whose stored version is newer than the write's operation is left as it is
// (an older operation replayed never undoes a later one); every point written or deleted raises
// the write sequence and stores it in its record, in the same LMDB write; a commit that fails
// ends the thread (NotCommittedError), as memory is then ahead of the disk. A tenant binding's
// guard (tenant-guard.ts) is checked whole before #write starts: a refused write changes nothing.

import type { PointBatch, TenantGuard, WriteCondition } from '../../shared/protocol.js';
import { shardRange, storedPayloadBytes, vectorBytes, type StoredPoint } from '../../shared/db.js';
import type { Filter } from '../../shared/filter.js';
import { pointNotFound } from '../../shared/ids.js';
import type { Payload, PointId } from '../../shared/types.js';
import { failpoint } from '../failpoints.js';
import { batchRows, type Row } from './batch-rows.js';
import { applyPayloadOp, type PayloadOp } from './payload-ops.js';
import type { ShardReads } from './shard-reads.js';
import type { ShardSaves } from './shard-saves.js';
import type { ShardState } from './shard-state.js';
import { andFilter, GuardCheck } from './tenant-guard.js';

const failCommitId = failpoint('commit_fail_on_id');
const commitDelayMs = failpoint('commit_delay_ms');

/** A write LMDB did not commit: this thread's memory is ahead of the disk and must be reloaded. */
export class NotCommittedError extends Error {}

/** Only the last write of a batch is awaited; the others share its commit and its outcome. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * What one write does to one target point: 'put' (changed: its new state is stored), 'removed'
 * (the point is gone: its record is deleted) or 'skip' (left as it is).
 */
type Outcome = 'put' | 'removed' | 'skip';

export class ShardWrites {
  readonly #s: ShardState;
  readonly #reads: ShardReads;
  readonly #saves: ShardSaves;

  constructor(state: ShardState, reads: ShardReads, saves: ShardSaves) {
    this.#s = state;
    this.#reads = reads;
    this.#saves = saves;
  }

  #row(batch: PointBatch): (i: number) => Row {
    return batchRows(
      batch,
      (name) => this.#s.spaces.get(name)?.dim,
      (name) => this.#s.sparse.has(name) || this.#s.multi.has(name),
    );
  }

  #persist(id: PointId, slot: number, seq: number): Promise<boolean> | null {
    const s = this.#s;
    if (s.secondary) {
      // A read copy keeps no record, but answers for the payload bytes too (strict mode).
      s.payloads.sized(slot, storedPayloadBytes(s.payloads.get(slot)));
      return null;
    }
    const x: Record<string, Uint8Array> = {};
    const rows: Record<string, Float32Array> = {};
    // The vectors just written are at hand; others are read back from memory (from a graph, a
    // copy: see vector-space.ts).
    const fresh = s.fresh;
    s.fresh = null;
    for (const space of s.spaces.values()) {
      if (!space.has(slot)) continue;
      const row = fresh?.[space.name] ?? space.vector(slot);
      rows[space.name] = row;
      x[space.name] = vectorBytes(row);
    }
    // Multivectors are stored as their rows are held: float32 or uint8 bytes.
    for (const space of s.multiList) {
      const b = space.stored(slot);
      if (b !== undefined) x[space.name] = b;
    }
    const payload = s.payloads.take(slot);
    const text = payload === null ? null : JSON.stringify(payload);
    s.payloads.sized(slot, storedPayloadBytes(text));
    const record: StoredPoint = { v: s.ids.versionOf(slot), q: seq, p: text, x };
    for (const [name, index] of s.sparse) {
      const v = index.get(slot);
      if (v !== undefined) (record.s ??= {})[name] = { i: vectorBytes(v.indices), v: vectorBytes(v.values) };
    }
    const put =
      failCommitId !== null && id === failCommitId
        ? Promise.reject(new Error(`failpoint commit_fail_on_id=${failCommitId}`))
        : s.db.points.put([s.collection, s.shard, id], record);
    const entry = { x: rows, p: payload };
    s.pending.set(slot, entry);
    // A later write of the slot replaced the entry: that one stays until its own put settles.
    const settle = (): void => {
      if (s.pending.get(slot) === entry) s.pending.delete(slot);
    };
    void put.then(settle, settle);
    return handled(put);
  }

  /**
   * The one write path. Per target point: the replay guard (a point whose stored version is
   * newer than `opId` was written by a later operation: an older one replayed must not undo it),
   * then `mutate`, then the point's version and its record to LMDB. Then the version counter,
   * and the commit (see #durable). With `partial`, a point that fails stops the batch: the points
   * before it stay applied and the error is returned, so the main thread can report a partial
   * failure (docs/interface.md section 7.3 rule 1) instead of a silent one; otherwise the error is thrown.
   */
  async #write(
    targets: readonly PointId[],
    opId: number,
    wait: boolean,
    mutate: (id: PointId, slot: number | undefined, i: number) => Outcome,
    partial = false,
  ): Promise<{ applied: number; error?: string }> {
    const s = this.#s;
    let last: Promise<boolean> | null = null;
    let applied = 0;
    const secondary = s.secondary;
    let error: string | undefined;
    for (let i = 0; i < targets.length; i++) {
      const id = targets[i]!;
      try {
        const before = s.ids.slotOf(id);
        if (before !== undefined && s.ids.versionOf(before) > opId) continue;
        const outcome = mutate(id, before, i);
        if (outcome === 'skip') continue;
        const seq = ++s.seq;
        if (outcome === 'put') {
          const slot = s.ids.slotOf(id)!;
          s.ids.setVersion(slot, opId);
          last = this.#persist(id, slot, seq) ?? last;
        } else if (!secondary) {
          last = handled(s.db.points.remove([s.collection, s.shard, id]));
        }
        this.#saves.wrote();
        applied++;
      } catch (err) {
        if (!partial) throw err;
        error = `point ${JSON.stringify(id)}: ${err instanceof Error ? err.message : String(err)}`;
        break;
      }
    }
    if (opId > s.maxVersion) s.maxVersion = opId;
    if (last !== null) this.#saves.committing(last);
    await this.#durable(last, wait);
    return error === undefined ? { applied } : { applied, error };
  }

  /**
   * Waits for the batch's commit (and flush when asked). Every write of a batch shares one LMDB
   * commit, so the last one's promise speaks for all. A commit that fails leaves memory ahead of
   * the disk: the error says so, and the worker ends its thread so that a new one reloads the
   * shard from LMDB (see entry.ts).
   */
  async #durable(last: Promise<unknown> | null, wait: boolean): Promise<void> {
    // A copy's writes are in memory only: the primary's answer carries the durability.
    if (this.#s.secondary) return;
    try {
      if (last !== null) await last;
      if (commitDelayMs !== null) await new Promise((resolve) => setTimeout(resolve, commitDelayMs));
      if (wait) await this.#s.db.points.flushed;
    } catch (err) {
      throw new NotCommittedError(`Write was not committed: ${err instanceof Error ? err.message : String(err)}. The shard reloads from disk; check the data before retrying`);
    }
  }

  #guard(guard: TenantGuard): GuardCheck {
    return new GuardCheck(guard, this.#s, this.#reads.predicate(guard.filter)!);
  }

  /** Whether a write of `opId` would reach the existing point at `slot` (else the replay guard skips it). */
  #reaches(slot: number, opId: number): boolean {
    return this.#s.ids.versionOf(slot) <= opId;
  }

  /**
   * Under a binding, named ids outside it are left alone (as missing ones are), and a filter
   * selects only points matching both.
   */
  #targets(ids: PointId[] | null, filter: Filter | null, guard: TenantGuard | null): PointId[] {
    if (guard === null) return ids ?? this.#reads.matching(filter);
    if (ids === null) return this.#reads.matching(andFilter(filter, guard.filter));
    const inside = this.#reads.predicate(guard.filter)!;
    return ids.filter((id) => {
      const slot = this.#s.ids.slotOf(id);
      return slot === undefined || inside(slot);
    });
  }

  /** Writes whole points (payload and every vector), as `condition` allows; see #write for partial failure. */
  upsert(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition, guard: TenantGuard | null = null): Promise<{ applied: number; error?: string }> {
    if (guard !== null) {
      try {
        this.#guardUpsert(batch, opId, condition, guard);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    const rowOf = this.#row(batch);
    const failAfter = failpoint('upsert_after');
    // update_only under a binding: another tenant's point is skipped as a missing one would be.
    const onlyIf = this.#reads.predicate(guard !== null && condition.mode === 'update_only' ? andFilter(condition.updateFilter, guard.filter) : condition.updateFilter);
    return this.#write(
      batch.ids,
      opId,
      wait,
      (id, slot, i) => {
        if (failAfter !== null && i === failAfter) throw new Error(`failpoint upsert_after=${failAfter}`);
        if (slot === undefined ? condition.mode === 'update_only' : condition.mode === 'insert_only' || (onlyIf !== null && !onlyIf(slot))) return 'skip';
        const row = rowOf(i);
        this.#s.apply(id, opId, batch.payloads[i] ?? null, row);
        this.#s.fresh = row.dense;
        return 'put';
      },
      true,
    );
  }

  /**
   * Every new payload must match; an existing point the upsert would write must match too. Its
   * update_filter is not consulted: skipping on it would tell the caller about another
   * tenant's payload. insert_only skips existing points, and update_only skips other tenants'
   * (upsert's onlyIf), as missing ones: neither answers whether another tenant holds an id.
   */
  #guardUpsert(batch: PointBatch, opId: number, condition: WriteCondition, guard: TenantGuard): void {
    const g = this.#guard(guard);
    batch.ids.forEach((id, i) => g.requireFits(id, batch.payloads[i] ?? null, 'new'));
    if (condition.mode === 'insert_only' || condition.mode === 'update_only') return;
    for (const id of batch.ids) {
      const slot = this.#s.ids.slotOf(id);
      if (slot !== undefined && this.#reaches(slot, opId) && !g.stored(slot)) throw g.outside(id);
    }
  }

  /** Replaces the named vectors given for existing points; every id must exist (else 404, nothing changed). */
  async updateVectors(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition, guard: TenantGuard | null = null): Promise<number> {
    const s = this.#s;
    const missing = batch.ids.find((id) => s.ids.slotOf(id) === undefined);
    if (missing !== undefined) throw pointNotFound(missing);
    if (guard !== null) this.#guardExisting(batch.ids, opId, guard);
    const rowOf = this.#row(batch);
    const onlyIf = this.#reads.predicate(condition.updateFilter);
    const { applied } = await this.#write(batch.ids, opId, wait, (_id, slot, i) => {
      if (onlyIf !== null && !onlyIf(slot!)) return 'skip';
      const row = rowOf(i);
      for (const [name, v] of Object.entries(row.dense)) s.space(name).set(slot!, v);
      for (const [name, v] of Object.entries(row.sparse)) s.sparseIndex(name).set(slot!, v);
      for (const [name, v] of Object.entries(row.multi)) s.multiSpace(name).set(slot!, v);
      s.fresh = row.dense;
      return 'put';
    });
    return applied;
  }

  /** Named points that exist (the caller checked) must all be inside the binding. */
  #guardExisting(ids: readonly PointId[], opId: number, guard: TenantGuard): GuardCheck {
    const g = this.#guard(guard);
    for (const id of ids) {
      const slot = this.#s.ids.slotOf(id)!;
      if (this.#reaches(slot, opId) && !g.stored(slot)) throw g.outside(id);
    }
    return g;
  }

  async delete(ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    const s = this.#s;
    const { applied } = await this.#write(this.#targets(ids, filter, guard), opId, wait, (id) => {
      const slot = s.ids.release(id);
      if (slot === undefined) return 'skip';
      for (const space of s.spaces.values()) space.set(slot, undefined);
      for (const index of s.sparse.values()) index.remove(slot);
      for (const space of s.multiList) space.remove(slot);
      s.payloads.remove(slot);
      return 'removed';
    });
    return applied;
  }

  /** Set, overwrite, delete keys or clear the payload of the points named or matched; all named ids must exist. */
  async updatePayload(op: PayloadOp, ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    const s = this.#s;
    if (ids !== null) {
      const missing = ids.find((id) => s.ids.slotOf(id) === undefined);
      if (missing !== undefined) throw pointNotFound(missing);
    }
    const targets = ids ?? this.#reads.matching(guard === null ? filter : andFilter(filter, guard.filter));
    // Under a binding each new payload is computed (and checked) first, then stored as computed.
    const next = guard === null ? null : this.#guardPayload(op, ids, targets, opId, guard);
    const { applied } = await this.#write(targets, opId, wait, (_id, slot) => {
      const payload = next?.get(slot!);
      s.payloads.set(slot!, payload !== undefined ? payload : applyPayloadOp(s.payloads.get(slot!), op));
      return 'put';
    });
    return applied;
  }

  /** Named points must be inside, and every target must still be inside after the change; answers the new payloads by slot. */
  #guardPayload(op: PayloadOp, ids: PointId[] | null, targets: readonly PointId[], opId: number, guard: TenantGuard): Map<number, Payload | null> {
    const g = ids === null ? this.#guard(guard) : this.#guardExisting(ids, opId, guard);
    const next = new Map<number, Payload | null>();
    for (const id of targets) {
      const slot = this.#s.ids.slotOf(id)!;
      if (!this.#reaches(slot, opId) || next.has(slot)) continue;
      const payload = applyPayloadOp(this.#s.payloads.get(slot), op);
      g.requireFits(id, payload, 'change');
      next.set(slot, payload);
    }
    return next;
  }

  /** Removes the named vectors (dense, sparse or multi) from the points named or matched; the service checked the names. */
  async deleteVectors(names: string[], ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    const s = this.#s;
    const { applied } = await this.#write(this.#targets(ids, filter, guard), opId, wait, (_id, slot) => {
      if (slot === undefined) return 'skip';
      // A name the shard no longer holds has nothing to remove (see batchRows).
      for (const name of names) {
        const dense = s.spaces.get(name);
        if (dense !== undefined) dense.set(slot, undefined);
        else (s.multi.get(name) ?? s.sparse.get(name))?.remove(slot);
      }
      return 'put';
    });
    return applied;
  }

  /**
   * Removes the bytes of vectors the shard no longer has (a vector name deleted) from every
   * record holding them, versions and sequences kept. Writes committed first: a record read here
   * is then the newest of its point, except where a write made since is in flight (`pending`),
   * whose record was built without these vectors and lands after this one.
   */
  async purgeVectors(names: readonly string[]): Promise<number> {
    const s = this.#s;
    if (s.secondary || names.length === 0) return 0;
    await s.db.points.committed;
    const { start, end } = shardRange(s.collection, s.shard);
    let last: Promise<boolean> | null = null;
    let purged = 0;
    for (const { key, value } of s.db.points.getRange({ start, end })) {
      const slot = s.ids.slotOf(key[2]);
      if (slot !== undefined && s.pending.has(slot)) continue;
      if (!names.some((n) => value.x[n] !== undefined || value.s?.[n] !== undefined)) continue;
      const x = { ...value.x };
      const sv = value.s === undefined ? undefined : { ...value.s };
      for (const n of names) {
        delete x[n];
        if (sv !== undefined) delete sv[n];
      }
      const record: StoredPoint = { ...value, x };
      if (sv === undefined || Object.keys(sv).length === 0) delete record.s;
      else record.s = sv;
      last = s.db.points.put(key, record);
      purged++;
    }
    await this.#durable(last, false);
    return purged;
  }
}
