// One shard of one collection, owned by exactly one worker for the life of the process, so its
// methods never race: every mutation happens synchronously in memory first (reads see it at
// once), then is queued to LMDB in the same order. Writes resolve once LMDB has committed them;
// with wait=true, once the commit is flushed to disk.
//
// The facade the ShardHost calls; its logic is in its parts, which share one memory
// (shard-state.ts: IdTracker, payloads by slot with their field indexes, per named vector a
// VectorSpace or a SparseIndex): the load and its replay (shard-load.ts), the writes
// (shard-writes.ts: every write goes through its #write), the reads (shard-reads.ts) and the
// graph saves (shard-saves.ts). Graph files are graph-snapshots.ts's, the choice of exact or HNSW
// search search-planner.ts's.
//
// A secondary shard is a read copy of a primary in another worker (replication_factor): it loads
// from the same LMDB range and applies the same writes, in the same order, in memory only. It
// never writes LMDB or graph files; it reads the primary's newest intact save (checksummed, so a
// save being replaced is never trusted) and replays the records written after it, as a primary does.

import { type FacetValue, type OrderBySpec, type OrderedRecord, type PointBatch, type SearchSpec, type TenantGuard, type WriteCondition } from '../../shared/protocol.js';
import type { MemoryBytes, ShardInfo, StoredBytes } from '../../shared/shard-reports.js';
import { UNCONDITIONAL } from '../../shared/shard-results.js';
import type { QuiverDb } from '../../shared/db.js';
import type { Filter } from '../../shared/filter.js';
import type { CollectionMeta, FieldIndexSchema, PayloadSelector, PointId, PointRecord, ScoredPoint, VectorSelector } from '../../shared/types.js';
import type { PayloadOp } from './payload-ops.js';
import { loadShard, loadShardAsync, type ShardLoad } from './shard-load.js';
import { ShardReads } from './shard-reads.js';
import { DEFAULT_SAVE_POLICY, ShardSaves, type GraphSavePolicy } from './shard-saves.js';
import { ShardState, graphConfig, payloadsOnDisk } from './shard-state.js';
import { ShardWrites } from './shard-writes.js';

export { NotCommittedError } from './shard-writes.js';
export type { GraphSavePolicy } from './shard-saves.js';
export type { ShardLoad } from './shard-load.js';

export interface ShardOptions {
  /**
   * False for a copy that loads from the same LMDB and graph files as the primary but must never
   * write graph files (a secondary copy in another worker): no background, shutdown or drop save.
   */
  saveGraphs?: boolean;
  savePolicy?: GraphSavePolicy;
  /** A read copy (replication_factor): applies writes in memory only; implies saveGraphs false. */
  secondary?: boolean;
}

export class Shard {
  readonly collection: number;
  readonly shard: number;
  /** A read copy: memory only, never writes LMDB or graph files (see the file comment). */
  readonly secondary: boolean;
  readonly #s: ShardState;
  readonly #saves: ShardSaves;
  readonly #reads: ShardReads;
  readonly #writes: ShardWrites;
  /** Wall ms of the last load (telemetry's init time). */
  #loadMs = 0;

  constructor(meta: CollectionMeta, shard: number, db: QuiverDb, indexDir: string, options: ShardOptions = {}) {
    this.collection = meta.id;
    this.shard = shard;
    this.secondary = options.secondary ?? false;
    this.#s = new ShardState(meta, shard, db, indexDir, this.secondary);
    this.#saves = new ShardSaves(this.#s, !this.secondary && (options.saveGraphs ?? true), options.savePolicy ?? DEFAULT_SAVE_POLICY);
    this.#reads = new ShardReads(this.#s);
    this.#writes = new ShardWrites(this.#s, this.#reads, this.#saves);
    for (const [key, schema] of Object.entries(meta.config.payload_schema)) this.createIndex(key, schema);
  }

  // ---- payload indexes ----------------------------------------------------------------------

  /** Builds (or rebuilds) the index on `key` from every live point's payload. */
  createIndex(key: string, schema: FieldIndexSchema): void {
    this.#s.payloads.createIndex(key, schema, this.#s.ids.sortedSlots());
  }

  dropIndex(key: string): void {
    this.#s.payloads.dropIndex(key);
  }

  /** The collection's configuration as this shard last took it. */
  get meta(): CollectionMeta {
    return this.#s.meta;
  }

  get maxVersion(): number {
    return this.#s.maxVersion;
  }

  /**
   * Takes a new configuration. A vector whose graph parameters (m, ef_construct) changed gets its
   * HNSW graph rebuilt in the background (see VectorSpace.reconfigure). A vector name created
   * starts empty; one deleted leaves memory, then the points' records; either way the graphs are
   * saved again, so that no start reads a save made for other vectors (a name deleted and created
   * again would find its old graph there).
   */
  async updateMeta(meta: CollectionMeta): Promise<void> {
    this.#s.meta = meta;
    const { dropped, added } = this.#s.syncVectors(meta);
    for (const space of this.#s.spaces.values()) space.reconfigure(graphConfig(meta, space.name, this.#s.secondary), this.#s.ids.slotLimit);
    this.#s.payloads.setOnDisk(payloadsOnDisk(meta, this.#s.secondary), this.#s.ids.sortedSlots());
    if (dropped.length + added.length === 0) return;
    await this.#writes.purgeVectors(dropped);
    if (!this.secondary) {
      this.#saves.wrote();
      await this.#saves.saveIndexes();
    }
  }

  /** True while a graph is being rebuilt (the collection then reports status yellow). */
  get rebuilding(): boolean {
    return this.#s.rebuilding;
  }

  /** Stops background work: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    for (const space of this.#s.spaces.values()) space.dispose();
  }

  // ---- graph saves and loading (shard-saves.ts, shard-load.ts) ------------------------------

  /** Writes still to wait for before a write may run (a save is writing the graphs), or null. */
  get writeHold(): Promise<void> | null {
    return this.#saves.writeHold;
  }

  /** Resolves once no save is in flight (before a drop deletes the files, or at shutdown). */
  idle(): Promise<void> {
    return this.#saves.idle();
  }

  /** Background saves so far, and writes not yet covered by a saved graph (for shardInfo). */
  get graphSaves(): { saves: number; unsaved: number; savedSeq: number } {
    return this.#saves.graphSaves;
  }

  /** Starts a background save when the policy asks for one (`now` in ms); after each write and on the host's timer. */
  maybeSave(now: number): void {
    this.#saves.maybeSave(now);
  }

  /** Saves the graphs at a clean shutdown when anything changed since the last save (none for a copy that never saves). */
  saveIndexes(): Promise<void> {
    return this.#saves.saveIndexes();
  }

  /** Resolves once every graph holds every row (a load's background replay is done). */
  caughtUp(): Promise<void> {
    return this.#s.caughtUp();
  }

  /**
   * Rebuilds memory from this shard's LMDB range. The HNSW graphs are read from the newest save
   * when it is intact and built with the collection's parameters, then brought up to date with
   * the writes after it; otherwise they are rebuilt from the vectors. `onPoints` is told the
   * points read so far, now and then (start-up progress).
   */
  load(onPoints?: (n: number) => void): ShardLoad {
    const t0 = performance.now();
    const out = loadShard(this.#s, this.#saves, onPoints);
    this.#loadMs = performance.now() - t0;
    return out;
  }

  /**
   * load(), with the saved graph files read on libuv threads while this thread reads the LMDB
   * records (at start, where nothing else runs on the shard until it resolves). Many writes to
   * replay onto a saved graph (after kill -9) are added in the background once it resolves
   * (VectorSpace.replay: searched exactly until then; no save before; see caughtUp).
   */
  async loadAsync(onPoints?: (n: number) => void): Promise<ShardLoad> {
    const t0 = performance.now();
    const out = await loadShardAsync(this.#s, this.#saves, onPoints);
    this.#loadMs = performance.now() - t0;
    return out;
  }

  // ---- writes (shard-writes.ts) -------------------------------------------------------------

  /** Writes whole points (payload and every vector), as `condition` allows; a point that fails stops the batch (partial failure). */
  upsert(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL, guard: TenantGuard | null = null): Promise<{ applied: number; error?: string }> {
    return this.#writes.upsert(batch, opId, wait, condition, guard);
  }

  /** Replaces the named vectors given for existing points; every id must exist (else 404, nothing changed). */
  updateVectors(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL, guard: TenantGuard | null = null): Promise<number> {
    return this.#writes.updateVectors(batch, opId, wait, condition, guard);
  }

  /** `guard` (a tenant binding's, on every write here): see shard-writes.ts for what each write does under one. */
  delete(ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    return this.#writes.delete(ids, filter, opId, wait, guard);
  }

  /** Set, overwrite, delete keys or clear the payload of the points named or matched; all named ids must exist. */
  updatePayload(op: PayloadOp, ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    return this.#writes.updatePayload(op, ids, filter, opId, wait, guard);
  }

  /** Removes the named vectors (dense or sparse) from the points named or matched. */
  deleteVectors(names: string[], ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean, guard: TenantGuard | null = null): Promise<number> {
    return this.#writes.deleteVectors(names, ids, filter, opId, wait, guard);
  }

  // ---- reads (shard-reads.ts) ---------------------------------------------------------------

  /** Facet counts of the indexed `key` among the points matching `filter`; with `top`, the `top` most frequent values only. */
  facet(key: string, filter: Filter | null, top: number | null = null): { values: FacetValue[]; counts: number[] } {
    return this.#reads.facet(key, filter, top);
  }

  /** The points named that exist and match `filter` (null: all that exist), in the order named. */
  retrieve(ids: PointId[], withPayload: PayloadSelector, withVector: VectorSelector, filter: Filter | null = null): PointRecord[] {
    return this.#reads.retrieve(ids, withPayload, withVector, filter);
  }

  /** Exact, or (exact=false) the index's candidate count where an index narrows the filter. */
  count(filter: Filter | null, exact: boolean): number {
    return this.#reads.count(filter, exact);
  }

  /** Up to `limit` points with id >= offset, in id order. */
  scroll(offset: PointId | null, limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    return this.#reads.scroll(offset, limit, filter, withPayload, withVector);
  }

  /** Up to `limit` entries in the order of an indexed numeric or datetime key, from `order`'s start on, as Qdrant. */
  scrollOrdered(order: OrderBySpec, limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): OrderedRecord[] {
    return this.#reads.scrollOrdered(order, limit, filter, withPayload, withVector);
  }

  /** Up to `limit` matching points drawn at random (Fisher-Yates over the matches). */
  sample(limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    return this.#reads.sample(limit, filter, withPayload, withVector);
  }

  /** Points having the sparse vector, and per term how many of them hold it (for idf). */
  sparseStats(name: string, terms: readonly number[]): { points: number; df: number[] } {
    return this.#reads.sparseStats(name, terms);
  }

  search(spec: SearchSpec): ScoredPoint[] {
    return this.#reads.search(spec);
  }

  info(worker: number): ShardInfo {
    return this.#reads.info(worker, this.#saves.graphSaves, this.#loadMs);
  }

  /** Estimated in-memory bytes by kind (see MemoryBytes). */
  memory(): MemoryBytes {
    return this.#reads.memory();
  }

  /** Bytes of its live vectors and payloads (see StoredBytes). */
  storedBytes(): StoredBytes {
    return this.#reads.storedBytes();
  }
}
