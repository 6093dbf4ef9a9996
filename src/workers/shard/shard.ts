// One shard of one collection, owned by exactly one worker for the life of the process, so its
// methods never race: every mutation happens synchronously in memory first (reads see it at
// once), then is queued to LMDB in the same order. Upserts and deletes resolve once LMDB has
// committed them; with wait=true, once the commit is flushed to disk.
//
// In memory: IdTracker (id <-> slot, versions), payloads by slot, and per named vector a
// VectorStore (SharedArrayBuffer chunks), a presence bitmap and an HNSW index (none for
// Manhattan, which hnswlib lacks: it is always searched exactly).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNCONDITIONAL, compareFacetValues, missingRangeIndex, type FacetValue, type OrderBySpec, type OrderedRecord, type PointBatch, type SearchSpec, type ShardInfo, type SparseVec, type WriteCondition } from '../../shared/protocol.js';
import { bytesU32, bytesVector, shardRange, vectorBytes, type QuiverDb, type StoredPoint } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import type {
  CollectionMeta,
  FieldIndexSchema,
  JsonValue,
  Payload,
  PayloadSchemaType,
  PayloadSelector,
  PointId,
  PointRecord,
  ScoredPoint,
  VectorSelector,
} from '../../shared/types.js';
import { HnswIndex, type HnswParams } from '../index/hnsw.js';
import { SparseIndex } from '../index/sparse-index.js';
import { metricFor, type Metric } from '../index/distance.js';
import { VectorStore } from '../storage/vector-store.js';
import { createFieldIndex, planCandidates, RangeIndex, type FieldIndex } from '../index/payload-index.js';
import { compileFilter, fieldValues, parsePath, type FilterView, type PathPart } from './filter-eval.js';
import { applyPayloadOp, type PayloadOp } from './payload-ops.js';
import { IdTracker } from './id-tracker.js';
import { comparePointIds, pointNotFound } from '../../shared/ids.js';
import { selectPayload, selectVector } from './select.js';
import { TopK } from './top-k.js';
import { failpoint } from '../failpoints.js';

const failCommitId = failpoint('commit_fail_on_id');

/** A write LMDB did not commit: this thread's memory is ahead of the disk and must be reloaded. */
export class NotCommittedError extends Error {}

/** A payload value as a facet of an index of `type` counts it, or undefined when it does not. */
function facetValueOf(v: JsonValue, type: PayloadSchemaType): FacetValue | undefined {
  switch (type) {
    case 'keyword':
      return typeof v === 'string' ? v : undefined;
    case 'uuid':
      return typeof v === 'string' && UUID_RE.test(v) ? v.toLowerCase() : undefined;
    case 'integer':
      // Exact integers only: beyond 2^53 a number is no longer the integer it was written as,
      // and gRPC would carry it as a wrapped int64.
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
    case 'bool':
      return typeof v === 'boolean' ? v : undefined;
    default:
      return undefined;
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only the last write of a batch is awaited; the others share its commit and its outcome. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** One point's vectors as a write carries them. */
interface Row {
  dense: Record<string, Float32Array>;
  sparse: Record<string, SparseVec>;
}

interface SparseSpace {
  name: string;
  index: SparseIndex;
}

interface VectorSpace {
  name: string;
  store: VectorStore;
  present: Uint8Array;
  index: HnswIndex | null;
  metric: Metric;
  /** The graph parameters the configuration asks for (the index may still be built with others). */
  hnsw: { m: number; ef_construct: number };
  /** A graph being rebuilt in the background with new parameters, or null. */
  rebuild: Rebuild | null;
}

/** A background rebuild: the new graph, and the slots written since it started (redone at the end). */
interface Rebuild {
  index: HnswIndex;
  touched: Set<number>;
}

/** Slots added to a graph being rebuilt per turn of the event loop, between which requests run. */
const REBUILD_CHUNK = 256;

/** What a clean shutdown writes beside the HNSW graph files, to restore the exact slot layout. */
interface IndexManifest {
  token: number;
  count: number;
  slots: [PointId, number][];
  /** m and efConstruct: the parameters the graph was built with (absent in manifests before they were kept). */
  spaces: Record<string, { file: string; labels: number[]; m?: number; efConstruct?: number }>;
}

function hnswOf(meta: CollectionMeta, name: string): { m: number; ef_construct: number } {
  const h = { ...meta.config.hnsw_config, ...meta.config.vectors[name]?.hnsw_config };
  return { m: h.m, ef_construct: h.ef_construct };
}

export class Shard {
  readonly collection: number;
  readonly shard: number;
  #meta: CollectionMeta;
  readonly #db: QuiverDb;
  readonly #ids = new IdTracker();
  readonly #payloads: (Payload | null)[] = [];
  readonly #spaces = new Map<string, VectorSpace>();
  readonly #sparse = new Map<string, SparseSpace>();
  /** Dense names then sparse names: what with_vector can return. */
  readonly #names: string[];
  readonly #indexes = new Map<string, FieldIndex>();
  readonly #indexPaths = new Map<string, PathPart[]>();
  #maxVersion = 0;

  readonly #indexDir: string;
  #restoring = false;

  constructor(meta: CollectionMeta, shard: number, db: QuiverDb, indexDir: string) {
    this.#indexDir = indexDir;
    this.collection = meta.id;
    this.shard = shard;
    this.#meta = meta;
    this.#db = db;
    this.#names = [...Object.keys(meta.config.vectors), ...Object.keys(meta.config.sparse_vectors)];
    for (const name of Object.keys(meta.config.sparse_vectors)) this.#sparse.set(name, { name, index: new SparseIndex() });
    for (const [name, params] of Object.entries(meta.config.vectors)) {
      const space: VectorSpace = {
        name,
        store: new VectorStore(params.size),
        present: new Uint8Array(1024),
        metric: metricFor(params.distance),
        hnsw: hnswOf(meta, name),
        rebuild: null,
        index: null,
      };
      const graph = this.#hnswParams(space);
      if (graph !== null) space.index = new HnswIndex(graph);
      this.#spaces.set(name, space);
    }
    for (const [key, schema] of Object.entries(meta.config.payload_schema)) this.createIndex(key, schema);
  }

  // ---- payload indexes ----------------------------------------------------------------------

  /** Builds (or rebuilds) the index on `key` from every live point's payload. */
  createIndex(key: string, schema: FieldIndexSchema): void {
    const index = createFieldIndex(schema);
    const path = parsePath(key);
    for (const slot of this.#ids.sortedSlots()) {
      const payload = this.#payloads[slot];
      if (payload) index.add(slot, fieldValues(payload, path));
    }
    this.#indexes.set(key, index);
    this.#indexPaths.set(key, path);
  }

  dropIndex(key: string): void {
    this.#indexes.delete(key);
    this.#indexPaths.delete(key);
  }

  /** Keeps every index in step with the slot's current payload (null: the slot is gone). */
  #reindex(slot: number, payload: Payload | null): void {
    for (const [key, index] of this.#indexes) {
      index.remove(slot);
      if (payload) index.add(slot, fieldValues(payload, this.#indexPaths.get(key)!));
    }
  }

  get maxVersion(): number {
    return this.#maxVersion;
  }

  /**
   * Takes a new configuration. A vector whose graph parameters (m, ef_construct) changed gets its
   * HNSW graph rebuilt in the background, as Qdrant's optimizer does: the old graph serves until
   * the new one is complete.
   */
  updateMeta(meta: CollectionMeta): void {
    this.#meta = meta;
    for (const space of this.#spaces.values()) {
      const want = hnswOf(meta, space.name);
      if (want.m === space.hnsw.m && want.ef_construct === space.hnsw.ef_construct) continue;
      space.hnsw = want;
      const graph = this.#hnswParams(space);
      if (graph !== null) {
        this.#rebuild(space, graph);
      } else {
        // No graph any more: searches are exact from now on.
        space.index = null;
        space.rebuild = null;
      }
    }
  }

  /** True while a graph is being rebuilt (the collection then reports status yellow). */
  get rebuilding(): boolean {
    for (const space of this.#spaces.values()) if (space.rebuild !== null) return true;
    return false;
  }

  /** Stops background work: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    for (const space of this.#spaces.values()) space.rebuild = null;
  }

  #rebuild(space: VectorSpace, graph: HnswParams): void {
    const job: Rebuild = { index: new HnswIndex(graph), touched: new Set() };
    space.rebuild = job;
    const slots: number[] = [];
    for (let slot = 0; slot < this.#ids.slotLimit; slot++) if (space.present[slot] === 1) slots.push(slot);
    let next = 0;
    const step = (): void => {
      if (space.rebuild !== job) return; // superseded by a newer rebuild, or the shard was dropped
      for (const end = Math.min(next + REBUILD_CHUNK, slots.length); next < end; next++) {
        const slot = slots[next]!;
        if (space.present[slot] === 1 && !job.touched.has(slot)) job.index.add(slot, space.store.get(slot));
      }
      if (next < slots.length) {
        setImmediate(step);
        return;
      }
      // Writes made while the graph was built: their slots are redone as they are now.
      for (const slot of job.touched) {
        if (space.present[slot] === 1) job.index.add(slot, space.store.get(slot));
        else job.index.remove(slot);
      }
      space.index = job.index;
      space.rebuild = null;
    };
    setImmediate(step);
  }

  /**
   * The HNSW graph a vector has, or null for none: Manhattan (hnswlib has no L1) and m = 0
   * (Qdrant's way to turn HNSW off) are searched exactly.
   */
  #hnswParams(space: VectorSpace): HnswParams | null {
    const kind = space.metric.hnswSpace;
    if (kind === null || space.hnsw.m === 0) return null;
    return { space: kind, dim: space.store.dim, m: space.hnsw.m, efConstruct: space.hnsw.ef_construct };
  }

  get #base(): string {
    return join(this.#indexDir, `${this.collection}-${this.shard}`);
  }

  get #marker(): string {
    return `hnsw:${this.collection}:${this.shard}`;
  }

  /**
   * Writes each HNSW graph and the slot layout, then a marker in LMDB that says they match the
   * data. Called at a clean shutdown only; load() removes the marker before anything can change,
   * so after a crash the graphs are rebuilt rather than trusted.
   */
  async saveIndexes(): Promise<void> {
    mkdirSync(this.#indexDir, { recursive: true });
    const token = Math.floor(Math.random() * 2 ** 31);
    const spaces: IndexManifest['spaces'] = {};
    let n = 0;
    for (const space of this.#spaces.values()) {
      if (space.index === null) continue;
      const file = `${this.#base}-${n++}.hnsw`;
      space.index.save(file);
      spaces[space.name] = { file, labels: space.index.labels, m: space.index.params.m, efConstruct: space.index.params.efConstruct };
    }
    const slots: [PointId, number][] = [];
    for (let slot = 0; slot < this.#ids.slotLimit; slot++) {
      const id = this.#ids.idOf(slot);
      if (id !== undefined) slots.push([id, slot]);
    }
    const manifest: IndexManifest = { token, count: this.#ids.live, slots, spaces };
    writeFileSync(`${this.#base}.json`, JSON.stringify(manifest));
    await this.#db.meta.put(this.#marker, token);
  }

  #savedManifest(): IndexManifest | null {
    const token = this.#db.meta.get(this.#marker);
    if (token === undefined) return null;
    void this.#db.meta.remove(this.#marker);
    try {
      const m = JSON.parse(readFileSync(`${this.#base}.json`, 'utf8')) as IndexManifest;
      return m.token === token && Object.values(m.spaces).every((sp) => existsSync(sp.file)) ? m : null;
    } catch {
      return null;
    }
  }

  /**
   * Rebuilds memory from this shard's LMDB range. The HNSW graphs are read from disk when a
   * clean shutdown left them matching the data (true is returned), otherwise rebuilt.
   */
  load(): boolean {
    const manifest = this.#savedManifest();
    if (manifest !== null) {
      for (const [id, slot] of manifest.slots) this.#ids.place(id, slot);
      this.#ids.settle();
      this.#restoring = true;
    }
    this.#readRange();
    this.#restoring = false;
    if (manifest === null) return false;
    let restored = manifest.count === this.#ids.live;
    for (const space of this.#spaces.values()) {
      const params = this.#hnswParams(space);
      if (params === null) continue;
      const saved = manifest.spaces[space.name];
      const live = new Set<number>();
      for (let slot = 0; slot < this.#ids.slotLimit; slot++) if (space.present[slot] === 1) live.add(slot);
      // A graph built with other parameters than the configuration's (changed since) is rebuilt.
      const sameParams = saved !== undefined && (saved.m ?? params.m) === params.m && (saved.efConstruct ?? params.efConstruct) === params.efConstruct;
      try {
        if (!restored || !sameParams) throw new Error('stale');
        space.index = new HnswIndex(params, { file: saved.file, labels: saved.labels, live });
      } catch {
        restored = false;
        space.index = new HnswIndex(params);
        for (const slot of live) space.index.add(slot, space.store.get(slot));
      }
    }
    return restored;
  }

  #readRange(): void {
    const { start, end } = shardRange(this.collection, this.shard);
    for (const { key, value } of this.#db.points.getRange({ start, end })) {
      const id = key[2];
      const row: Row = { dense: {}, sparse: {} };
      for (const [name, bytes] of Object.entries(value.x)) row.dense[name] = bytesVector(bytes);
      for (const [name, sv] of Object.entries(value.s ?? {})) row.sparse[name] = { indices: bytesU32(sv.i), values: bytesVector(sv.v) };
      this.#apply(id, value.v, value.p, row);
    }
  }

  // ---- writes -------------------------------------------------------------------------------

  #space(name: string): VectorSpace {
    const s = this.#spaces.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  #setPresent(space: VectorSpace, slot: number, on: boolean): void {
    if (slot >= space.present.length) {
      let n = space.present.length;
      while (slot >= n) n *= 2;
      const grown = new Uint8Array(n);
      grown.set(space.present);
      space.present = grown;
    }
    space.present[slot] = on ? 1 : 0;
  }

  #setDense(space: VectorSpace, slot: number, v: Float32Array | undefined): void {
    if (v !== undefined) {
      space.store.set(slot, v);
      this.#setPresent(space, slot, true);
      if (!this.#restoring) space.index?.add(slot, space.store.get(slot));
    } else {
      this.#setPresent(space, slot, false);
      space.index?.remove(slot);
    }
    space.rebuild?.touched.add(slot);
  }

  #sparseSpace(name: string): SparseSpace {
    const s = this.#sparse.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  /** Writes one whole point into memory (vectors not named are removed). */
  #apply(id: PointId, version: number, payload: Payload | null, row: Row): void {
    const { slot } = this.#ids.acquire(id);
    this.#ids.setVersion(slot, version);
    if (version > this.#maxVersion) this.#maxVersion = version;
    this.#payloads[slot] = payload;
    this.#reindex(slot, payload);
    for (const space of this.#spaces.values()) this.#setDense(space, slot, row.dense[space.name]);
    for (const space of this.#sparse.values()) {
      const v = row.sparse[space.name];
      if (v !== undefined) space.index.set(slot, v);
      else space.index.remove(slot);
    }
  }

  #row(batch: PointBatch): (i: number) => Row {
    // Row offsets per column, computed once: point i's row in a column with a presence mask is
    // the count of present flags before it.
    const cols = Object.entries(batch.vectors).map(([name, col]) => {
      const dim = this.#space(name).store.dim;
      const rowOf = new Int32Array(batch.ids.length).fill(-1);
      let r = 0;
      for (let i = 0; i < batch.ids.length; i++) {
        if (col.present === null || col.present[i] === 1) rowOf[i] = r++;
      }
      return { name, col, dim, rowOf };
    });
    for (const name of Object.keys(batch.sparse)) this.#sparseSpace(name);
    return (i) => {
      const out: Row = { dense: {}, sparse: {} };
      for (const { name, col, dim, rowOf } of cols) {
        const r = rowOf[i]!;
        if (r >= 0) out.dense[name] = col.data.subarray(r * dim, (r + 1) * dim);
      }
      for (const [name, col] of Object.entries(batch.sparse)) {
        if (col.present[i] !== 1) continue;
        const from = col.offsets[i]!;
        const to = col.offsets[i + 1]!;
        // Copies: the batch's buffers are not kept after the write.
        out.sparse[name] = { indices: col.indices.slice(from, to), values: col.values.slice(from, to) };
      }
      return out;
    };
  }

  #persist(id: PointId, slot: number): Promise<boolean> {
    const x: Record<string, Uint8Array> = {};
    for (const space of this.#spaces.values()) {
      if (space.present[slot] === 1) x[space.name] = vectorBytes(space.store.get(slot));
    }
    const record: StoredPoint = { v: this.#ids.versionOf(slot), p: this.#payloads[slot] ?? null, x };
    for (const space of this.#sparse.values()) {
      const v = space.index.get(slot);
      if (v !== undefined) (record.s ??= {})[space.name] = { i: vectorBytes(v.indices), v: vectorBytes(v.values) };
    }
    if (failCommitId !== null && id === failCommitId) return handled(Promise.reject(new Error(`failpoint commit_fail_on_id=${failCommitId}`)));
    return handled(this.#db.points.put([this.collection, this.shard, id], record));
  }

  /**
   * Waits for the batch's commit (and flush when asked). Every write of a batch shares one LMDB
   * commit, so the last one's promise speaks for all. A commit that fails leaves memory ahead of
   * the disk: the error says so, and the worker ends its thread so that a new one reloads the
   * shard from LMDB (see entry.ts).
   */
  async #durable(last: Promise<unknown> | null, wait: boolean): Promise<void> {
    try {
      if (last !== null) await last;
      if (wait) await this.#db.points.flushed;
    } catch (err) {
      throw new NotCommittedError(`Write was not committed: ${err instanceof Error ? err.message : String(err)}. The shard reloads from disk; check the data before retrying`);
    }
  }

  /**
   * Applies the batch point by point. If a point fails, the points before it stay applied (each
   * fully, in memory and on disk) and the answer says how far it got, so the main thread can
   * report a partial failure (spec 7.3 rule 1) instead of a silent one.
   */
  async upsert(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<{ applied: number; error?: string }> {
    const rowOf = this.#row(batch);
    const failAfter = failpoint('upsert_after');
    const onlyIf = this.#predicate(condition.updateFilter);
    let last: Promise<boolean> | null = null;
    let applied = 0;
    let error: string | undefined;
    for (let i = 0; i < batch.ids.length; i++) {
      const id = batch.ids[i]!;
      try {
        if (failAfter !== null && i === failAfter) throw new Error(`failpoint upsert_after=${failAfter}`);
        const slot = this.#ids.slotOf(id);
        if (slot !== undefined && this.#ids.versionOf(slot) > opId) continue; // a replay of an older op
        if (slot === undefined ? condition.mode === 'update_only' : condition.mode === 'insert_only' || (onlyIf !== null && !onlyIf(slot))) continue;
        this.#apply(id, opId, batch.payloads[i] ?? null, rowOf(i));
        last = this.#persist(id, this.#ids.slotOf(id)!);
        applied++;
      } catch (err) {
        error = `point ${JSON.stringify(id)}: ${err instanceof Error ? err.message : String(err)}`;
        break;
      }
    }
    await this.#durable(last, wait);
    return error === undefined ? { applied } : { applied, error };
  }

  /** Replaces the named vectors given for existing points; every id must exist (else 404, nothing changed). */
  async updateVectors(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<number> {
    const missing = batch.ids.find((id) => this.#ids.slotOf(id) === undefined);
    if (missing !== undefined) throw pointNotFound(missing);
    const rowOf = this.#row(batch);
    const onlyIf = this.#predicate(condition.updateFilter);
    let last: Promise<boolean> | null = null;
    let applied = 0;
    for (let i = 0; i < batch.ids.length; i++) {
      const id = batch.ids[i]!;
      const slot = this.#ids.slotOf(id)!;
      if (onlyIf !== null && !onlyIf(slot)) continue;
      applied++;
      const row = rowOf(i);
      for (const [name, v] of Object.entries(row.dense)) this.#setDense(this.#space(name), slot, v);
      for (const [name, v] of Object.entries(row.sparse)) this.#sparseSpace(name).index.set(slot, v);
      this.#ids.setVersion(slot, opId);
      if (opId > this.#maxVersion) this.#maxVersion = opId;
      last = this.#persist(id, slot);
    }
    await this.#durable(last, wait);
    return applied;
  }

  async delete(ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    const targets = ids ?? this.#matching(filter);
    let last: Promise<boolean> | null = null;
    let deleted = 0;
    for (const id of targets) {
      const slot = this.#ids.release(id);
      if (slot === undefined) continue;
      for (const space of this.#spaces.values()) this.#setDense(space, slot, undefined);
      for (const space of this.#sparse.values()) space.index.remove(slot);
      this.#payloads[slot] = null;
      this.#reindex(slot, null);
      last = handled(this.#db.points.remove([this.collection, this.shard, id]));
      deleted++;
    }
    if (opId > this.#maxVersion) this.#maxVersion = opId;
    await this.#durable(last, wait);
    return deleted;
  }

  /** Set, overwrite, delete keys or clear the payload of the points named or matched; all named ids must exist. */
  async updatePayload(op: PayloadOp, ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    if (ids !== null) {
      const missing = ids.find((id) => this.#ids.slotOf(id) === undefined);
      if (missing !== undefined) throw pointNotFound(missing);
    }
    const targets = ids ?? this.#matching(filter);
    let last: Promise<boolean> | null = null;
    for (const id of targets) {
      const slot = this.#ids.slotOf(id)!;
      const payload = applyPayloadOp(this.#payloads[slot] ?? null, op);
      this.#payloads[slot] = payload;
      this.#reindex(slot, payload);
      this.#ids.setVersion(slot, opId);
      last = this.#persist(id, slot);
    }
    if (opId > this.#maxVersion) this.#maxVersion = opId;
    await this.#durable(last, wait);
    return targets.length;
  }

  // ---- reads --------------------------------------------------------------------------------

  readonly #view: FilterView = {
    payload: (slot) => this.#payloads[slot] ?? null,
    id: (slot) => this.#ids.idOf(slot)!,
    hasVector: (slot, name) => this.#spaces.get(name)?.present[slot] === 1 || this.#sparse.get(name)?.index.has(slot) === true,
    textIndex: (key) => {
      const schema = this.#indexes.get(key)?.schema;
      return schema?.type === 'text' ? schema.text : undefined;
    },
  };

  /** Candidate slots from the payload indexes, or null when no index narrows the filter. */
  #candidates(filter: Filter | null): Set<number> | null {
    if (filter === null) return null;
    return planCandidates(filter, this.#indexes, (ids) => {
      const out = new Set<number>();
      for (const id of ids) {
        const slot = this.#ids.slotOf(id);
        if (slot !== undefined) out.add(slot);
      }
      return out;
    });
  }

  /** Candidate slots in external id order. */
  #sortedById(slots: Iterable<number>): number[] {
    return [...slots].sort((a, b) => comparePointIds(this.#ids.idOf(a)!, this.#ids.idOf(b)!));
  }

  #predicate(filter: Filter | null): ((slot: number) => boolean) | null {
    return filter === null ? null : compileFilter(filter, this.#view);
  }

  #matching(filter: Filter | null): PointId[] {
    const pred = this.#predicate(filter);
    const out: PointId[] = [];
    for (const slot of this.#candidates(filter) ?? this.#ids.sortedSlots()) {
      if (pred === null || pred(slot)) out.push(this.#ids.idOf(slot)!);
    }
    return out;
  }

  #record(slot: number, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord {
    const rec: PointRecord = { id: this.#ids.idOf(slot)! };
    const payload = selectPayload(this.#payloads[slot] ?? null, withPayload);
    if (payload !== undefined) rec.payload = payload;
    const vector = selectVector(this.#names, withVector, (name) => {
      const space = this.#spaces.get(name);
      if (space !== undefined) return space.present[slot] === 1 ? space.store.get(slot) : undefined;
      return this.#sparse.get(name)?.index.get(slot);
    });
    if (vector !== undefined) rec.vector = vector;
    return rec;
  }

  #filtered(accept: (slot: number) => boolean): number[] {
    const out: number[] = [];
    for (const slot of this.#ids.sortedSlots()) if (accept(slot)) out.push(slot);
    return out;
  }

  /**
   * Facet counts: every distinct value of the indexed `key` among the points matching `filter`,
   * with how many points hold it (a point counts once per value). Values of another type than
   * the index's are not counted, as the index does not hold them. With `top`, only the `top`
   * most frequent values are returned (ties by value), which bounds the answer for keys with many
   * distinct values.
   */
  facet(key: string, filter: Filter | null, top: number | null = null): { values: FacetValue[]; counts: number[] } {
    const type = this.#indexes.get(key)?.schema.type;
    const path = this.#indexPaths.get(key);
    if (type === undefined || path === undefined) throw QuiverError.badInput(`No index for facet key \`${key}\``);
    const pred = this.#predicate(filter);
    const counts = new Map<FacetValue, number>();
    const seen = new Set<FacetValue>();
    for (const slot of this.#candidates(filter) ?? this.#ids.sortedSlots()) {
      if (pred !== null && !pred(slot)) continue;
      const payload = this.#payloads[slot];
      if (!payload) continue;
      seen.clear();
      for (const v of fieldValues(payload, path)) {
        const fv = facetValueOf(v, type);
        if (fv === undefined || seen.has(fv)) continue;
        seen.add(fv);
        counts.set(fv, (counts.get(fv) ?? 0) + 1);
      }
    }
    let entries = [...counts];
    if (top !== null && entries.length > top) {
      entries.sort((a, b) => b[1] - a[1] || compareFacetValues(a[0], b[0]));
      entries = entries.slice(0, top);
    }
    return { values: entries.map((e) => e[0]), counts: entries.map((e) => e[1]) };
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
    const index = this.#indexes.get(order.key);
    if (!(index instanceof RangeIndex)) throw QuiverError.badInput(missingRangeIndex(order.key));
    const scale = index.schema.type === 'datetime' ? 1000 : 1;
    const { values, slots } = index.column();
    const pred = this.#predicate(filter);
    const hits: { slot: number; value: number }[] = [];
    const asc = order.direction === 'asc';
    const start = order.startFrom === null ? null : order.startFrom / scale;
    let i = asc ? (start === null ? 0 : index.lowerBound(start)) : (start === null ? values.length : index.lowerBound(start, true)) - 1;
    const step = asc ? 1 : -1;
    // The column orders ties by slot, not by point id: take the whole run of the value at the
    // limit, so that sorting by id below picks the right ones.
    for (; i >= 0 && i < values.length; i += step) {
      const value = values[i]!;
      const slot = slots[i]!;
      if (hits.length >= limit && value !== hits[hits.length - 1]!.value) break;
      // The same value twice in one point's array (adjacent in the column) counts once.
      const prev = i - step >= 0 && i - step < values.length ? i - step : -1;
      if (prev !== -1 && values[prev] === value && slots[prev] === slot) continue;
      if (pred === null || pred(slot)) hits.push({ slot, value });
    }
    const dir = asc ? 1 : -1;
    hits.sort((a, b) => dir * (a.value - b.value || comparePointIds(this.#ids.idOf(a.slot)!, this.#ids.idOf(b.slot)!)));
    return hits.slice(0, limit).map((h) => ({ ...this.#record(h.slot, withPayload, withVector), order_value: h.value * scale }));
  }

  /** Up to `limit` matching points drawn at random (Fisher-Yates over the matches). */
  sample(limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const pred = this.#predicate(filter);
    const pool: number[] = [];
    for (const slot of this.#candidates(filter) ?? this.#ids.sortedSlots()) if (pred === null || pred(slot)) pool.push(slot);
    const n = Math.min(limit, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, n).map((slot) => this.#record(slot, withPayload, withVector));
  }

  /** Points having the sparse vector, and per term how many of them hold it (for idf). */
  sparseStats(name: string, terms: readonly number[]): { points: number; df: number[] } {
    const { index } = this.#sparseSpace(name);
    return { points: index.size, df: terms.map((t) => index.df(t)) };
  }

  /** Removes the named vectors (dense or sparse) from the points named or matched. */
  async deleteVectors(names: string[], ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    for (const name of names) if (!this.#spaces.has(name)) this.#sparseSpace(name);
    const targets = ids ?? this.#matching(filter);
    let last: Promise<boolean> | null = null;
    let applied = 0;
    for (const id of targets) {
      const slot = this.#ids.slotOf(id);
      if (slot === undefined) continue;
      for (const name of names) {
        const dense = this.#spaces.get(name);
        if (dense !== undefined) this.#setDense(dense, slot, undefined);
        else this.#sparse.get(name)!.index.remove(slot);
      }
      this.#ids.setVersion(slot, opId);
      last = this.#persist(id, slot);
      applied++;
    }
    if (opId > this.#maxVersion) this.#maxVersion = opId;
    await this.#durable(last, wait);
    return applied;
  }

  #searchSparse(spec: SearchSpec, sparse: SparseVec): ScoredPoint[] {
    const { index } = this.#sparseSpace(spec.vector);
    const pred = this.#predicate(spec.filter);
    const only = spec.only === null ? null : new Set(spec.only);
    const excluded = new Set(spec.exclude);
    const top = new TopK(spec.k, true);
    index.scores(sparse, (slot, score) => {
      const id = this.#ids.idOf(slot)!;
      if (excluded.has(id) || (only !== null && !only.has(id)) || (pred !== null && !pred(slot))) return;
      if (spec.scoreThreshold !== null && score < spec.scoreThreshold) return;
      top.push(slot, score);
    });
    return top.drain().map(({ slot, score }) => ({
      ...this.#record(slot, spec.withPayload, spec.withVector),
      version: this.#ids.versionOf(slot),
      score,
    }));
  }

  search(spec: SearchSpec): ScoredPoint[] {
    if (spec.sparse !== null) return this.#searchSparse(spec, spec.sparse);
    const space = this.#space(spec.vector);
    const { metric } = space;
    const pred = this.#predicate(spec.filter);
    const excluded = new Set<number>();
    for (const id of spec.exclude) {
      const slot = this.#ids.slotOf(id);
      if (slot !== undefined) excluded.add(slot);
    }
    const accept = (slot: number): boolean =>
      space.present[slot] === 1 && !excluded.has(slot) && (pred === null || pred(slot));

    const top = new TopK(spec.k, metric.higherIsBetter);
    // Plan as Qdrant does: a filter that leaves few candidates is scored exactly (HNSW walking a
    // graph whose nodes mostly fail the filter loses recall); many candidates go through HNSW
    // with the filter applied during the walk. Payload indexes give the candidates (and so the
    // cardinality) cheaply; without one they come from a scan of the payloads. An exact search
    // (asked for, or with no graph: Manhattan, m = 0) scores the index's candidates only.
    let candidates: Iterable<number> | null = null;
    let cardinality = 0;
    if (spec.only !== null) {
      const slots: number[] = [];
      for (const id of spec.only) {
        const slot = this.#ids.slotOf(id);
        if (slot !== undefined) slots.push(slot);
      }
      candidates = slots;
    } else if (pred !== null) {
      const fromIndex = this.#candidates(spec.filter);
      if (fromIndex !== null) {
        candidates = fromIndex;
        cardinality = fromIndex.size;
      } else if (!spec.exact && space.index !== null) {
        const scanned = this.#filtered(accept);
        candidates = scanned;
        cardinality = scanned.length;
      }
    }
    // full_scan_threshold is in kilobytes of vectors, as in Qdrant: the candidate count whose
    // vectors fill that much is scored exactly.
    const kb = this.#meta.config.vectors[spec.vector]?.hnsw_config?.full_scan_threshold ?? this.#meta.config.hnsw_config.full_scan_threshold;
    const threshold = Math.max(Math.floor((kb * 1024) / (space.store.dim * 4)), spec.k);
    const exactly = spec.only !== null || spec.exact || space.index === null || (candidates !== null && cardinality <= threshold);
    if (exactly || space.index === null) {
      for (const slot of candidates ?? this.#ids.sortedSlots()) {
        if (accept(slot)) top.push(slot, space.store.score(slot, spec.query, metric.score));
      }
    } else {
      const needsFilter = pred !== null || excluded.size > 0;
      const ef = Math.max(spec.ef, spec.k);
      const found = space.index.search(spec.query, spec.k, ef, needsFilter ? accept : undefined);
      for (const slot of found) top.push(slot, space.store.score(slot, spec.query, metric.score));
    }

    const out: ScoredPoint[] = [];
    for (const { slot, score } of top.drain()) {
      if (spec.scoreThreshold !== null) {
        if (metric.higherIsBetter ? score < spec.scoreThreshold : score > spec.scoreThreshold) continue;
      }
      const rec = this.#record(slot, spec.withPayload, spec.withVector);
      out.push({ ...rec, version: this.#ids.versionOf(slot), score });
    }
    return out;
  }

  info(worker: number): ShardInfo {
    const indexedVectors: Record<string, number> = {};
    const vectors: Record<string, number> = {};
    for (const space of this.#spaces.values()) {
      indexedVectors[space.name] = space.index?.size ?? 0;
      // Asked at scrape or info time only: one pass over a byte per slot.
      let n = 0;
      for (let i = 0; i < space.present.length; i++) n += space.present[i]!;
      vectors[space.name] = n;
    }
    for (const space of this.#sparse.values()) {
      indexedVectors[space.name] = space.index.size;
      vectors[space.name] = space.index.size;
    }
    const indexedPayload: Record<string, number> = {};
    for (const [key, index] of this.#indexes) indexedPayload[key] = index.points;
    return { shard: this.shard, worker, points: this.#ids.live, indexedVectors, vectors, indexedPayload, rebuilding: this.rebuilding };
  }
}
