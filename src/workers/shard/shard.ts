// One shard of one collection, owned by exactly one worker for the life of the process, so its
// methods never race: every mutation happens synchronously in memory first (reads see it at
// once), then is queued to LMDB in the same order. Writes resolve once LMDB has committed them;
// with wait=true, once the commit is flushed to disk.
//
// The facade the ShardHost calls. In memory: IdTracker (id <-> slot, versions), payloads by
// slot with their field indexes, and per named vector a VectorSpace (dense: store, presence,
// graph; vector-space.ts) or a SparseIndex. Graph files are graph-snapshots.ts's, the choice of
// exact or HNSW search search-planner.ts's. Every write goes through #write.
//
// A secondary shard is a read copy of a primary in another worker (replication_factor): it loads
// from the same LMDB range and applies the same writes, in the same order, in memory only. It
// never writes LMDB or graph files; it reads the primary's saved graphs only while their marker
// says they match the data, and leaves the marker to the primary.

import { UNCONDITIONAL, missingRangeIndex, type FacetValue, type OrderBySpec, type OrderedRecord, type PointBatch, type SearchSpec, type ShardInfo, type WriteCondition } from '../../shared/protocol.js';
import { bytesU32, bytesVector, shardRange, vectorBytes, type QuiverDb, type StoredPoint } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import { effectiveHnsw } from '../../shared/hnsw-params.js';
import type { CollectionMeta, FieldIndexSchema, Payload, PayloadSelector, PointId, PointRecord, ScoredPoint, VectorSelector } from '../../shared/types.js';
import { SparseIndex } from '../index/sparse-index.js';
import { RangeIndex } from '../index/payload-index.js';
import { compileFilter, type FilterView } from './filter-eval.js';
import { applyPayloadOp, type PayloadOp } from './payload-ops.js';
import { IdTracker } from './id-tracker.js';
import { comparePointIds, pointNotFound } from '../../shared/ids.js';
import { selectPayload, selectVector } from './select.js';
import { failpoint } from '../failpoints.js';
import { GraphSnapshots, restoreGraphs } from './graph-snapshots.js';
import { searchDense, searchSparse, type Scored } from './search-planner.js';
import { VectorSpace, type GraphConfig } from './vector-space.js';
import { PayloadSpace, facetCounts } from './payload-space.js';
import { batchRows, type Row } from './batch-rows.js';
import { orderedEntries } from './order-by.js';

const failCommitId = failpoint('commit_fail_on_id');

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

function graphConfig(meta: CollectionMeta, name: string): GraphConfig {
  const { m, ef_construct } = effectiveHnsw(meta, name);
  return { m, ef_construct };
}

export class Shard {
  readonly collection: number;
  readonly shard: number;
  #meta: CollectionMeta;
  readonly #db: QuiverDb;
  readonly #ids = new IdTracker();
  readonly #payloads = new PayloadSpace();
  readonly #spaces = new Map<string, VectorSpace>();
  readonly #sparse = new Map<string, SparseIndex>();
  /** Dense names then sparse names: what with_vector can return. */
  readonly #names: string[];
  readonly #snapshots: GraphSnapshots;
  #maxVersion = 0;
  /** A read copy: memory only (see the file comment). */
  readonly secondary: boolean;

  constructor(meta: CollectionMeta, shard: number, db: QuiverDb, indexDir: string, secondary = false) {
    this.collection = meta.id;
    this.shard = shard;
    this.secondary = secondary;
    this.#meta = meta;
    this.#db = db;
    this.#snapshots = new GraphSnapshots(db, indexDir, meta.id, shard);
    this.#names = [...Object.keys(meta.config.vectors), ...Object.keys(meta.config.sparse_vectors)];
    for (const name of Object.keys(meta.config.sparse_vectors)) this.#sparse.set(name, new SparseIndex());
    for (const [name, params] of Object.entries(meta.config.vectors)) {
      this.#spaces.set(name, new VectorSpace(name, params.size, params.distance, graphConfig(meta, name)));
    }
    for (const [key, schema] of Object.entries(meta.config.payload_schema)) this.createIndex(key, schema);
  }

  // ---- payload indexes ----------------------------------------------------------------------

  /** Builds (or rebuilds) the index on `key` from every live point's payload. */
  createIndex(key: string, schema: FieldIndexSchema): void {
    this.#payloads.createIndex(key, schema, this.#ids.sortedSlots());
  }

  dropIndex(key: string): void {
    this.#payloads.dropIndex(key);
  }

  get maxVersion(): number {
    return this.#maxVersion;
  }

  /**
   * Takes a new configuration. A vector whose graph parameters (m, ef_construct) changed gets its
   * HNSW graph rebuilt in the background (see VectorSpace.reconfigure).
   */
  updateMeta(meta: CollectionMeta): void {
    this.#meta = meta;
    for (const space of this.#spaces.values()) space.reconfigure(graphConfig(meta, space.name), this.#ids.slotLimit);
  }

  /** True while a graph is being rebuilt (the collection then reports status yellow). */
  get rebuilding(): boolean {
    for (const space of this.#spaces.values()) if (space.rebuilding) return true;
    return false;
  }

  /** Stops background work: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    for (const space of this.#spaces.values()) space.dispose();
  }

  // ---- graph snapshots and loading ----------------------------------------------------------

  /** Writes the HNSW graphs for the next start (clean shutdown only: see GraphSnapshots). */
  async saveIndexes(): Promise<void> {
    // The primary's files are the shard's; a copy's graphs are rebuilt or read from those.
    if (this.secondary) return;
    return this.#snapshots.save(this.#spaces.values(), this.#ids);
  }

  /**
   * Rebuilds memory from this shard's LMDB range. The HNSW graphs are read from disk when a
   * clean shutdown left them matching the data (true is returned), otherwise rebuilt.
   */
  load(): boolean {
    const manifest = this.secondary ? this.#snapshots.peek() : this.#snapshots.take();
    if (manifest !== null) {
      for (const [id, slot] of manifest.slots) this.#ids.place(id, slot);
      this.#ids.settle();
    }
    // With a manifest the graphs are restored (or rebuilt) once every row is in.
    this.#readRange(manifest === null);
    if (manifest === null) return false;
    return restoreGraphs(manifest, this.#spaces.values(), this.#ids);
  }

  #readRange(graph: boolean): void {
    const { start, end } = shardRange(this.collection, this.shard);
    for (const { key, value } of this.#db.points.getRange({ start, end })) {
      const id = key[2];
      const row: Row = { dense: {}, sparse: {} };
      for (const [name, bytes] of Object.entries(value.x)) row.dense[name] = bytesVector(bytes);
      for (const [name, sv] of Object.entries(value.s ?? {})) row.sparse[name] = { indices: bytesU32(sv.i), values: bytesVector(sv.v) };
      this.#apply(id, value.v, value.p, row, graph);
    }
  }

  // ---- writes -------------------------------------------------------------------------------

  #space(name: string): VectorSpace {
    const s = this.#spaces.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  #sparseIndex(name: string): SparseIndex {
    const s = this.#sparse.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  /** Writes one whole point into memory (vectors not named are removed). */
  #apply(id: PointId, version: number, payload: Payload | null, row: Row, graph = true): void {
    const { slot } = this.#ids.acquire(id);
    this.#ids.setVersion(slot, version);
    if (version > this.#maxVersion) this.#maxVersion = version;
    this.#payloads.set(slot, payload);
    for (const space of this.#spaces.values()) space.set(slot, row.dense[space.name], graph);
    for (const [name, index] of this.#sparse) {
      const v = row.sparse[name];
      if (v !== undefined) index.set(slot, v);
      else index.remove(slot);
    }
  }

  #row(batch: PointBatch): (i: number) => Row {
    return batchRows(
      batch,
      (name) => this.#space(name).store.dim,
      (name) => this.#sparseIndex(name),
    );
  }

  #persist(id: PointId, slot: number): Promise<boolean> | null {
    if (this.secondary) return null;
    const x: Record<string, Uint8Array> = {};
    for (const space of this.#spaces.values()) {
      if (space.has(slot)) x[space.name] = vectorBytes(space.store.get(slot));
    }
    const record: StoredPoint = { v: this.#ids.versionOf(slot), p: this.#payloads.get(slot), x };
    for (const [name, index] of this.#sparse) {
      const v = index.get(slot);
      if (v !== undefined) (record.s ??= {})[name] = { i: vectorBytes(v.indices), v: vectorBytes(v.values) };
    }
    if (failCommitId !== null && id === failCommitId) return handled(Promise.reject(new Error(`failpoint commit_fail_on_id=${failCommitId}`)));
    return handled(this.#db.points.put([this.collection, this.shard, id], record));
  }

  /**
   * The one write path. Per target point: the replay guard (a point whose stored version is
   * newer than `opId` was written by a later operation: an older one replayed must not undo it),
   * then `mutate`, then the point's version and its record to LMDB. Then the version counter,
   * and the commit (see #durable). With `partial`, a point that fails stops the batch: the points
   * before it stay applied and the error is returned, so the main thread can report a partial
   * failure (spec 7.3 rule 1) instead of a silent one; otherwise the error is thrown.
   */
  async #write(
    targets: readonly PointId[],
    opId: number,
    wait: boolean,
    mutate: (id: PointId, slot: number | undefined, i: number) => Outcome,
    partial = false,
  ): Promise<{ applied: number; error?: string }> {
    let last: Promise<boolean> | null = null;
    let applied = 0;
    const secondary = this.secondary;
    let error: string | undefined;
    for (let i = 0; i < targets.length; i++) {
      const id = targets[i]!;
      try {
        const before = this.#ids.slotOf(id);
        if (before !== undefined && this.#ids.versionOf(before) > opId) continue;
        const outcome = mutate(id, before, i);
        if (outcome === 'skip') continue;
        if (outcome === 'put') {
          const slot = this.#ids.slotOf(id)!;
          this.#ids.setVersion(slot, opId);
          last = this.#persist(id, slot) ?? last;
        } else if (!secondary) {
          last = handled(this.#db.points.remove([this.collection, this.shard, id]));
        }
        applied++;
      } catch (err) {
        if (!partial) throw err;
        error = `point ${JSON.stringify(id)}: ${err instanceof Error ? err.message : String(err)}`;
        break;
      }
    }
    if (opId > this.#maxVersion) this.#maxVersion = opId;
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
    if (this.secondary) return;
    try {
      if (last !== null) await last;
      if (wait) await this.#db.points.flushed;
    } catch (err) {
      throw new NotCommittedError(`Write was not committed: ${err instanceof Error ? err.message : String(err)}. The shard reloads from disk; check the data before retrying`);
    }
  }

  /** Writes whole points (payload and every vector), as `condition` allows; see #write for partial failure. */
  upsert(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<{ applied: number; error?: string }> {
    const rowOf = this.#row(batch);
    const failAfter = failpoint('upsert_after');
    const onlyIf = this.#predicate(condition.updateFilter);
    return this.#write(
      batch.ids,
      opId,
      wait,
      (id, slot, i) => {
        if (failAfter !== null && i === failAfter) throw new Error(`failpoint upsert_after=${failAfter}`);
        if (slot === undefined ? condition.mode === 'update_only' : condition.mode === 'insert_only' || (onlyIf !== null && !onlyIf(slot))) return 'skip';
        this.#apply(id, opId, batch.payloads[i] ?? null, rowOf(i));
        return 'put';
      },
      true,
    );
  }

  /** Replaces the named vectors given for existing points; every id must exist (else 404, nothing changed). */
  async updateVectors(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<number> {
    const missing = batch.ids.find((id) => this.#ids.slotOf(id) === undefined);
    if (missing !== undefined) throw pointNotFound(missing);
    const rowOf = this.#row(batch);
    const onlyIf = this.#predicate(condition.updateFilter);
    const { applied } = await this.#write(batch.ids, opId, wait, (_id, slot, i) => {
      if (onlyIf !== null && !onlyIf(slot!)) return 'skip';
      const row = rowOf(i);
      for (const [name, v] of Object.entries(row.dense)) this.#space(name).set(slot!, v);
      for (const [name, v] of Object.entries(row.sparse)) this.#sparseIndex(name).set(slot!, v);
      return 'put';
    });
    return applied;
  }

  async delete(ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (id) => {
      const slot = this.#ids.release(id);
      if (slot === undefined) return 'skip';
      for (const space of this.#spaces.values()) space.set(slot, undefined);
      for (const index of this.#sparse.values()) index.remove(slot);
      this.#payloads.set(slot, null);
      return 'removed';
    });
    return applied;
  }

  /** Set, overwrite, delete keys or clear the payload of the points named or matched; all named ids must exist. */
  async updatePayload(op: PayloadOp, ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    if (ids !== null) {
      const missing = ids.find((id) => this.#ids.slotOf(id) === undefined);
      if (missing !== undefined) throw pointNotFound(missing);
    }
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (_id, slot) => {
      this.#payloads.set(slot!, applyPayloadOp(this.#payloads.get(slot!), op));
      return 'put';
    });
    return applied;
  }

  /** Removes the named vectors (dense or sparse) from the points named or matched. */
  async deleteVectors(names: string[], ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    for (const name of names) if (!this.#spaces.has(name)) this.#sparseIndex(name);
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (_id, slot) => {
      if (slot === undefined) return 'skip';
      for (const name of names) {
        const dense = this.#spaces.get(name);
        if (dense !== undefined) dense.set(slot, undefined);
        else this.#sparse.get(name)!.remove(slot);
      }
      return 'put';
    });
    return applied;
  }

  // ---- reads --------------------------------------------------------------------------------

  readonly #view: FilterView = {
    payload: (slot) => this.#payloads.get(slot),
    id: (slot) => this.#ids.idOf(slot)!,
    hasVector: (slot, name) => this.#spaces.get(name)?.has(slot) === true || this.#sparse.get(name)?.has(slot) === true,
    textIndex: (key) => this.#payloads.textParams(key),
  };

  /** Candidate slots from the payload indexes, or null when no index narrows the filter. */
  #candidates(filter: Filter | null): Set<number> | null {
    return filter === null ? null : this.#payloads.candidates(filter, (id) => this.#ids.slotOf(id));
  }

  /** Candidate slots in external id order. */
  #sortedById(slots: Iterable<number>): number[] {
    return [...slots].sort((a, b) => comparePointIds(this.#ids.idOf(a)!, this.#ids.idOf(b)!));
  }

  #predicate(filter: Filter | null): ((slot: number) => boolean) | null {
    return filter === null ? null : compileFilter(filter, this.#view);
  }

  /** Slots matching the filter: the index's candidates (or every live slot), refined by the predicate. */
  #matchingSlots(filter: Filter | null): number[] {
    const pred = this.#predicate(filter);
    const out: number[] = [];
    for (const slot of this.#candidates(filter) ?? this.#ids.sortedSlots()) if (pred === null || pred(slot)) out.push(slot);
    return out;
  }

  #matching(filter: Filter | null): PointId[] {
    return this.#matchingSlots(filter).map((slot) => this.#ids.idOf(slot)!);
  }

  #record(slot: number, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord {
    const rec: PointRecord = { id: this.#ids.idOf(slot)! };
    const payload = selectPayload(this.#payloads.get(slot), withPayload);
    if (payload !== undefined) rec.payload = payload;
    const vector = selectVector(this.#names, withVector, (name) => {
      const space = this.#spaces.get(name);
      if (space !== undefined) return space.has(slot) ? space.store.get(slot) : undefined;
      return this.#sparse.get(name)?.get(slot);
    });
    if (vector !== undefined) rec.vector = vector;
    return rec;
  }

  /**
   * Facet counts: every distinct value of the indexed `key` among the points matching `filter`,
   * with how many points hold it (a point counts once per value). Values of another type than
   * the index's are not counted, as the index does not hold them. With `top`, only the `top`
   * most frequent values are returned (ties by value), which bounds the answer for keys with many
   * distinct values.
   */
  facet(key: string, filter: Filter | null, top: number | null = null): { values: FacetValue[]; counts: number[] } {
    const index = this.#payloads.index(key);
    if (index === undefined) throw QuiverError.badInput(`No index for facet key \`${key}\``);
    return facetCounts(index, this.#matchingSlots(filter), top);
  }

  retrieve(ids: PointId[], withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const out: PointRecord[] = [];
    for (const id of ids) {
      const slot = this.#ids.slotOf(id);
      if (slot !== undefined) out.push(this.#record(slot, withPayload, withVector));
    }
    return out;
  }

  /** Exact, or (exact=false) the index's candidate count where an index narrows the filter. */
  count(filter: Filter | null, exact: boolean): number {
    if (filter === null) return this.#ids.live;
    const candidates = this.#candidates(filter);
    if (!exact && candidates !== null) return candidates.size;
    const pred = this.#predicate(filter)!;
    let n = 0;
    for (const slot of candidates ?? this.#ids.sortedSlots()) if (pred(slot)) n++;
    return n;
  }

  /** Up to `limit` points with id >= offset, in id order. */
  scroll(
    offset: PointId | null,
    limit: number,
    filter: Filter | null,
    withPayload: PayloadSelector,
    withVector: VectorSelector,
  ): PointRecord[] {
    // Index candidates pay a sort by id; worth it only when they are few. A broad filter is
    // cheaper walked in id order, stopping at `limit`.
    const fromIndex = this.#candidates(filter);
    const candidates = fromIndex !== null && fromIndex.size * 8 < this.#ids.live ? fromIndex : null;
    const sorted = candidates === null ? this.#ids.sortedSlots() : this.#sortedById(candidates);
    let lo = 0;
    if (offset !== null) {
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (comparePointIds(this.#ids.idOf(sorted[mid]!)!, offset) < 0) lo = mid + 1;
        else hi = mid;
      }
    }
    const pred = this.#predicate(filter);
    const out: PointRecord[] = [];
    for (let i = lo; i < sorted.length && out.length < limit; i++) {
      const slot = sorted[i]!;
      if (pred === null || pred(slot)) out.push(this.#record(slot, withPayload, withVector));
    }
    return out;
  }

  /**
   * Up to `limit` entries in the order of an indexed numeric or datetime key, from `startFrom`
   * (inclusive) on, as Qdrant: a point with several values appears once per distinct value, with
   * that value as order_value; ties by point id (see compareOrdered). A datetime index holds
   * milliseconds; its order_value (and startFrom) is in microseconds, as Qdrant's.
   */
  scrollOrdered(
    order: OrderBySpec,
    limit: number,
    filter: Filter | null,
    withPayload: PayloadSelector,
    withVector: VectorSelector,
  ): OrderedRecord[] {
    const index = this.#payloads.index(order.key);
    if (!(index instanceof RangeIndex)) throw QuiverError.badInput(missingRangeIndex(order.key));
    const hits = orderedEntries(index, order, limit, this.#predicate(filter), (slot) => this.#ids.idOf(slot)!);
    return hits.map((h) => ({ ...this.#record(h.slot, withPayload, withVector), order_value: h.value }));
  }

  /** Up to `limit` matching points drawn at random (Fisher-Yates over the matches). */
  sample(limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const pool = this.#matchingSlots(filter);
    const n = Math.min(limit, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, n).map((slot) => this.#record(slot, withPayload, withVector));
  }

  /** Points having the sparse vector, and per term how many of them hold it (for idf). */
  sparseStats(name: string, terms: readonly number[]): { points: number; df: number[] } {
    const index = this.#sparseIndex(name);
    return { points: index.size, df: terms.map((t) => index.df(t)) };
  }

  /** Records of the top (slot, score) pairs, score_threshold applied for dense ones. */
  #scored(hits: Scored[], spec: SearchSpec, higherIsBetter: boolean): ScoredPoint[] {
    const out: ScoredPoint[] = [];
    for (const { slot, score } of hits) {
      if (spec.scoreThreshold !== null) {
        if (higherIsBetter ? score < spec.scoreThreshold : score > spec.scoreThreshold) continue;
      }
      out.push({ ...this.#record(slot, spec.withPayload, spec.withVector), version: this.#ids.versionOf(slot), score });
    }
    return out;
  }

  search(spec: SearchSpec): ScoredPoint[] {
    const predicate = this.#predicate(spec.filter);
    if (spec.sparse !== null) {
      const hits = searchSparse(this.#sparseIndex(spec.vector), spec.sparse, spec, { ids: this.#ids, predicate });
      return this.#scored(hits, spec, true);
    }
    const space = this.#space(spec.vector);
    const hits = searchDense(space, spec, {
      ids: this.#ids,
      predicate,
      indexCandidates: () => this.#candidates(spec.filter),
      fullScanKb: effectiveHnsw(this.#meta, spec.vector).full_scan_threshold,
    });
    return this.#scored(hits, spec, space.metric.higherIsBetter);
  }

  info(worker: number): ShardInfo {
    const indexedVectors: Record<string, number> = {};
    const vectors: Record<string, number> = {};
    for (const space of this.#spaces.values()) {
      indexedVectors[space.name] = space.index?.size ?? 0;
      vectors[space.name] = space.count();
    }
    for (const [name, index] of this.#sparse) {
      indexedVectors[name] = index.size;
      vectors[name] = index.size;
    }
    const indexedPayload = this.#payloads.indexedPoints();
    return { shard: this.shard, worker, secondary: this.secondary, points: this.#ids.live, indexedVectors, vectors, indexedPayload, rebuilding: this.rebuilding };
  }
}
