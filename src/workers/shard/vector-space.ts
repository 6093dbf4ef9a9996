// One named dense vector of one shard: its rows, which slots hold one (a presence byte per slot),
// its HNSW graph and the background rebuild of that graph when the graph parameters change.
//
// One in-memory copy of each vector (issue 14): where the vector has a graph, the graph holds the
// rows (hnswlib keeps each vector it indexes; see index/hnsw.ts for the measurements and the cost
// of reading them back), and there is no VectorStore. A VectorStore holds the rows only where it
// is the one copy: no graph (Manhattan, which hnswlib cannot index, or m = 0), a graph being
// rebuilt from a store (m turned from 0 to > 0), and rows staged during a load whose graphs
// are restored from disk or rebuilt once all rows are in (`set(.., graph = false)`, then
// useGraph / buildGraph). LMDB keeps the durable copy.
//
// Reading rows back where a graph holds them: through the row reader the shard injects
// (`readRows`: the point's LMDB record, memory-mapped pages rather than anonymous memory, or the
// vectors of a write not committed yet), which falls back to hnswlib's getPoint when it has no
// row it can trust. Measured at 128-d, 1,000 random rows of 100k: about 5 us a row from LMDB
// decoded by msgpackr against 20-40 us through getPoint (scratch script, busy machine); score()
// now reads the row's bytes in place (record-decode.ts plainRecordRow) into a scratch row:
// 0.5-0.8 us a row at 128-d, 10k-20k points.
//
// Writes to replay onto a restored graph at start (after kill -9, those after the last save) may
// be left to catch up in the background (behind-rows.ts), for the float32 graph and the quantized
// one alike.
//
// Invariants: a slot is in the serving graph exactly when its presence byte is 1 and it is not
// in `#behind` (deleted slots, and behind slots the graph held an older row of, are marked
// deleted in the graph); when `#store` is not null it holds every present row (and exact search
// reads it), otherwise the serving graph and `#behind` do. While a rebuild runs, every slot
// written since it started is in `touched` and is redone from the rows as they are at the end,
// before the new graph replaces the old one. No graph (null) means exact search, unless the vector
// is quantized: then its graph over codes (quantized-space.ts) serves searches and the store holds
// the originals its candidates are rescored with.

import { HnswIndex, type HnswParams } from '../index/hnsw.js';
import { metricFor, type Metric } from '../index/distance.js';
import { grownArray } from '../storage/capacity.js';
import { VectorStore } from '../storage/vector-store.js';
import type { Distance } from '../../shared/types.js';
import type { QuantizedGraph } from '../index/quantized-graph.js';
import { QuantizedSpace, codeSpace, sameSpec, type QuantSpec } from './quantized-space.js';
import { BehindRows } from './behind-rows.js';
import { codesSpace, type GraphSpace } from './graph-manifest.js';

/** Slots added to a graph being rebuilt per turn of the event loop, between which requests run. */
const REBUILD_CHUNK = 256;

/**
 * Exact search with a graph and no store: reading a candidate back costs about this many times
 * what visiting one node in the native walk of the whole graph does (measured at 128-d, 20k
 * points, on the same busy machine: 4.4-5.5 us a row from LMDB against 0.8-1.1 us a node;
 * through getPoint it was 20-47 us a row, a ratio of 16). Fewer candidates than live/ratio are
 * read back one by one, more are scored by walking the graph. With rows read in place and the
 * filter decided by the index, 2,769 of 10k candidates a shard took the same time either way
 * (bench:tenant's data, 2 shards: 9-11 ms a search), so the ratio stands.
 */
const READ_BACK_VS_VISIT = 5;

/**
 * Reads a present slot's row from outside the graph (the shard's LMDB record, or the vectors of a
 * write not committed yet); undefined when it has none it can trust (then getPoint reads it).
 * With `into` (dim floats), the row may be copied into it and `into` returned: a scoring loop's
 * scratch, used before the next read, so that no array is made per row.
 */
export type RowReader = (slot: number, into?: Float32Array) => Float32Array | undefined;

/** The graph parameters a configuration asks for. */
export interface GraphConfig {
  m: number;
  ef_construct: number;
  /** A graph over quantized codes instead of float32 rows (quantized-space.ts); null: float32. */
  quantization: QuantSpec | null;
  /**
   * A quantized vector's float32 rows are read from the points' LMDB records (memory-mapped
   * pages, not anonymous memory) rather than kept in a store (vectors.on_disk).
   */
  originalsOnDisk: boolean;
}

/** A background rebuild: the new graph, and the slots written since it started (redone at the end). */
interface Rebuild {
  index: HnswIndex;
  touched: Set<number>;
}

/**
 * The graph a vector's save must have been made with to be read back (graph-snapshots.ts): a
 * float32 graph's parameters, or a quantized one's (`space` names the codes, `quantile` the range).
 */
export interface WantedGraph {
  space: GraphSpace;
  dim: number;
  m: number;
  efConstruct: number;
  quantile?: number | null;
}

/** Estimated bytes of one vector's in-memory structures. */
export interface SpaceMemory {
  /** Rows held in a VectorStore (vectors without a graph, or staged). */
  vectors: number;
  /** HNSW graphs, the vectors they hold included (a rebuild in progress counts too). */
  graph: number;
}

export class VectorSpace {
  readonly name: string;
  readonly dim: number;
  readonly metric: Metric;
  readonly #distance: Distance;
  #present = new Uint8Array(0);
  /** Present slots (kept as presence changes: the quantized graph's build waits for enough). */
  #live = 0;
  /**
   * The quantized graph and its builds, where the configuration asks for one; the float32 rows
   * then stay in `#store` (the originals candidates are rescored with) and `index` is null.
   */
  #quantized: QuantizedSpace | null = null;
  /** The rows, where they are the one in-memory copy (see the module comment); else null. */
  #store: VectorStore | null = null;
  /** The graph that serves searches, or null for exact search. */
  index: HnswIndex | null = null;
  /** The graph parameters the configuration asks for (the index may still be built with others). */
  #want: GraphConfig;
  #rebuild: Rebuild | null = null;
  /** Where rows held by a graph are read back from first (see the module comment); null: getPoint only. */
  #reader: RowReader | null = null;
  /** The row score() reads into: scored at once, never kept. */
  readonly #scratch: Float32Array;
  /** Present slots whose rows the serving graph does not hold yet, with their rows (behind-rows.ts). */
  readonly #behind = new BehindRows(() => this.servingGraph);

  constructor(name: string, dim: number, distance: Distance, want: GraphConfig) {
    this.name = name;
    this.dim = dim;
    this.metric = metricFor(distance);
    this.#distance = distance;
    this.#want = want;
    this.#scratch = new Float32Array(dim);
    const graph = this.graphParams();
    if (graph !== null) this.index = new HnswIndex(graph);
    else if (!want.originalsOnDisk) this.#store = new VectorStore(dim);
    this.#quantized = this.#quantizedFor(want, null);
  }

  /** The quantized side a configuration asks for (a vector without a graph gets none), keeping `serving` until it has its own. */
  #quantizedFor(want: GraphConfig, serving: QuantizedGraph | null): QuantizedSpace | null {
    if (want.quantization === null || want.m === 0 || this.metric.hnswSpace === null) return null;
    const rows = {
      live: () => this.#live,
      presentSlots: () => this.presentSlots(this.#present.length),
      has: (slot: number) => this.has(slot),
      vector: (slot: number) => this.vector(slot),
    };
    return new QuantizedSpace(want.quantization, this.#distance, this.dim, { m: want.m, efConstruct: want.ef_construct }, rows, serving);
  }

  /** The float32 rows are read from the points' LMDB records only (see GraphConfig). */
  get originalsOnDisk(): boolean {
    return this.#want.originalsOnDisk;
  }

  /** The quantized graph searches use, or null (no quantization, or not built yet: exact). */
  get quantized(): QuantizedSpace | null {
    return this.#quantized;
  }

  /** Vectors a graph indexes (float32 or quantized): indexed_vectors_count. */
  get indexedCount(): number {
    return this.index?.size ?? this.#quantized?.graph?.size ?? 0;
  }

  /**
   * The graph searches use, float32 or this setting's own over codes; null: exact search (or a
   * quantized graph still being built for the setting in force).
   */
  get servingGraph(): HnswIndex | QuantizedGraph | null {
    return this.index ?? this.#quantized?.own ?? null;
  }

  /** The graph a save of this vector must hold to be restored, float32 or quantized; null: none. */
  wantedGraph(): WantedGraph | null {
    const float = this.graphParams();
    if (float !== null) return float;
    const q = this.#quantized;
    if (q === null) return null;
    return { space: codesSpace(q.spec.kind, codeSpace(this.#distance)), dim: this.dim, m: this.#want.m, efConstruct: this.#want.ef_construct, quantile: q.spec.quantile };
  }

  /** A quantized graph read from a save takes over (its setting's own: see wantedGraph). */
  useQuantized(graph: QuantizedGraph): void {
    this.#quantized?.restore(graph);
    this.#behind.clear();
  }

  /** The HNSW graph this vector should have, or null for none (exact search). */
  graphParams(): HnswParams | null {
    const kind = this.metric.hnswSpace;
    // A quantized vector's graph is over codes (quantized-space.ts): no float32 graph to restore.
    if (kind === null || this.#want.m === 0 || this.#want.quantization !== null) return null;
    return { space: kind, dim: this.dim, m: this.#want.m, efConstruct: this.#want.ef_construct };
  }

  has(slot: number): boolean {
    return this.#present[slot] === 1;
  }

  /** How many slots hold a vector (kept as presence changes). */
  count(): number {
    return this.#live;
  }

  /** Slots below `limit` that hold a vector, ascending. */
  presentSlots(limit: number): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < Math.min(limit, this.#present.length); slot++) if (this.#present[slot] === 1) out.push(slot);
    return out;
  }

  /** Reads rows held by a graph through `reader` first (the shard's LMDB records). */
  readRows(reader: RowReader): void {
    this.#reader = reader;
  }

  /**
   * The vector of a present slot: a view of the store's row, or, where a graph holds it, the row
   * the reader gives (not to be written to: it may be the write's own array) or a copy read back
   * from the graph. `into`: see RowReader.
   */
  vector(slot: number, into?: Float32Array): Float32Array {
    if (this.#store !== null) return this.#store.get(slot);
    const row = this.#behind.get(slot) ?? this.#reader?.(slot, into);
    if (row !== undefined) return row;
    // Only a quantized vector with its originals on disk has no graph to read back from; its
    // reader always has the row of a present slot on a copy that writes LMDB (see graphConfig).
    if (this.index === null) throw new Error(`vector '${this.name}' has no stored row for slot ${slot}`);
    return this.index.vector(slot);
  }

  /** True when exact scores are computed from a store in JS (no graph holds the rows). */
  get storeBacked(): boolean {
    return this.#store !== null;
  }

  /** The score of a present slot against `query`, exactly as the metric defines it. */
  score(slot: number, query: Float32Array): number {
    if (this.#store !== null) return this.#store.score(slot, query, this.metric.score);
    return this.metric.score(query, this.vector(slot, this.#scratch), 0);
  }

  /** A score from hnswlib's distance for the metric (1 - dot for 'ip', squared L2 for 'l2'). */
  scoreOfDistance(d: number): number {
    return this.metric.hnswSpace === 'l2' ? Math.sqrt(Math.max(0, d)) : 1 - d;
  }

  /**
   * Writes (v given) or removes (undefined) the slot's vector. `graph` false leaves the graph
   * alone and stages the row in a store: a load whose graph is restored from disk, or rebuilt
   * once all rows are in (then useGraph or buildGraph).
   */
  set(slot: number, v: Float32Array | undefined, graph = true): void {
    // A write to a slot still to catch up goes to the graph now (the graph never held its row, or
    // holds an older one marked deleted, which add un-marks and replaces).
    this.#behind.written(slot);
    if (v !== undefined) {
      const toGraph = graph && this.index !== null;
      if (!toGraph && !this.#want.originalsOnDisk) this.#store ??= new VectorStore(this.dim);
      this.#store?.set(slot, v);
      this.#setPresent(slot, true);
      // The serving graph holds the row the reader gives (every write reaches both), so an
      // unchanged row is recognised without reading the graph back.
      if (toGraph) this.index!.add(slot, v, this.index!.has(slot) ? this.#reader?.(slot) : undefined);
    } else {
      this.#setPresent(slot, false);
      this.index?.remove(slot);
    }
    this.#rebuild?.touched.add(slot);
    this.#quantized?.written(slot, v);
  }

  /**
   * Marks the slot present or not, leaving its row where it is: a load whose graph is restored
   * from a save that holds the row (rows replayed into that graph, or a rebuild if it cannot be
   * read, come through the reader).
   */
  setPresence(slot: number, present: boolean): void {
    this.#setPresent(slot, present);
  }

  #setPresent(slot: number, on: boolean): void {
    this.#present = grownArray(this.#present, slot + 1, (n) => new Uint8Array(n));
    const was = this.#present[slot] === 1;
    if (was !== on) this.#live += on ? 1 : -1;
    this.#present[slot] = on ? 1 : 0;
  }

  /** A graph restored from disk takes over: the rows staged during the load are dropped. */
  useGraph(index: HnswIndex): void {
    this.index = index;
    this.#store = null;
    // A graph built from every present row (a rebuild) holds the rows that were behind too.
    this.#behind.clear();
  }

  /**
   * Brings the serving graph (float32 or quantized) up to date with `slots` (writes after its
   * save): removals now, and rows to add either now or, `defer`, in the background in chunks
   * between which requests run (behind-rows.ts). A deferred slot's row is read now (the reader's
   * LMDB record) and scored exactly by searches until the graph holds it; a graph row older than
   * it is marked deleted meanwhile.
   */
  replay(slots: Iterable<number>, defer: boolean): void {
    const graph = this.servingGraph;
    if (graph === null) return;
    for (const slot of slots) {
      if (!this.has(slot)) {
        graph.remove(slot);
        continue;
      }
      const row = this.vector(slot);
      if (!defer) {
        graph.add(slot, row);
        continue;
      }
      graph.remove(slot);
      this.#behind.hold(slot, row);
    }
    this.#behind.start();
  }

  /** Rows not in the serving graph yet (see replay). */
  get behind(): number {
    return this.#behind.size;
  }

  /** Resolves once the serving graph holds every present row (see replay). */
  caughtUp(): Promise<void> {
    return this.#behind.caughtUp();
  }

  /** Adds every row still behind now (before a save: the graph must hold what its manifest claims). */
  catchUp(): void {
    this.#behind.catchUp();
  }

  /**
   * The exact scores of the rows not in the graph yet that `accept` lets through (beside an HNSW
   * search, whose graph cannot find them).
   */
  scoreBehind(query: Float32Array, accept: (slot: number) => boolean, push: (slot: number, score: number) => void): void {
    this.#behind.forEach(accept, (slot, row) => push(slot, this.metric.score(query, row, 0)));
  }

  /** The slots not in the graph yet that `accept` lets through (custom scores read their rows). */
  forBehind(accept: (slot: number) => boolean, each: (slot: number) => void): void {
    this.#behind.forEach(accept, (slot) => each(slot));
  }

  /**
   * Builds a new graph now from the staged rows, which are then dropped (a load without a usable
   * saved graph). Rows left unstaged (setPresence) are read through the reader.
   */
  buildGraph(params: HnswParams, slotLimit: number): void {
    const index = new HnswIndex(params);
    for (const slot of this.presentSlots(slotLimit)) index.add(slot, this.vector(slot));
    this.useGraph(index);
  }

  /**
   * Takes the graph parameters of a new configuration. Changed ones get the graph rebuilt in the
   * background, as Qdrant's optimizer does: the old graph serves until the new one is complete.
   * `slotLimit` bounds the slots to walk.
   */
  reconfigure(want: GraphConfig, slotLimit: number): void {
    const same = want.m === this.#want.m && want.ef_construct === this.#want.ef_construct && sameSpec(want.quantization, this.#want.quantization);
    if (same && want.originalsOnDisk === this.#want.originalsOnDisk) return;
    if (same) {
      // Only where the originals live: the store goes (rows read from LMDB), or is filled from it.
      this.#want = want;
      this.#store = want.originalsOnDisk ? null : this.#copyRows(slotLimit);
      return;
    }
    this.#want = want;
    // Rows a load left to replay go into the graph serving now, which may keep serving a while.
    this.#behind.catchUp();
    const graph = this.graphParams();
    // A new quantized setting builds its graph in the background while the one before serves;
    // none any more: the float32 graph (or exact search) takes over.
    this.#quantized?.stop();
    const serving = this.#quantized?.graph ?? null;
    this.#quantized = null;
    if (graph !== null) {
      this.#startRebuild(graph, slotLimit);
    } else {
      // No float32 graph any more: searches are exact (or over codes) from now on, over rows
      // copied out of the graph, or read from LMDB where the originals are on disk.
      if (want.originalsOnDisk) this.#store = null;
      else if (this.#store === null) this.#store = this.#copyRows(slotLimit);
      this.index = null;
      this.#rebuild = null;
      this.#behind.clear();
      this.#quantized = this.#quantizedFor(want, serving);
      this.#quantized?.startIfDue();
    }
  }

  /** A store holding every present row, read from wherever they are now. */
  #copyRows(slotLimit: number): VectorStore {
    const store = new VectorStore(this.dim);
    for (const slot of this.presentSlots(slotLimit)) store.set(slot, this.vector(slot));
    return store;
  }

  get rebuilding(): boolean {
    return this.#rebuild !== null || this.#quantized?.building === true;
  }

  /** Stops a background rebuild: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    this.#rebuild = null;
    this.#quantized?.stop();
    this.#behind.stop();
  }

  /** Estimated bytes of the rows and graphs (see index/hnsw.ts for the graph's formula). */
  memory(): SpaceMemory {
    return {
      vectors: (this.#store?.bytes ?? 0) + this.#present.byteLength + this.behind * this.dim * 4,
      graph: (this.index?.bytes ?? 0) + (this.#rebuild?.index.bytes ?? 0) + (this.#quantized?.bytes ?? 0),
    };
  }

  #startRebuild(graph: HnswParams, slotLimit: number): void {
    const job: Rebuild = { index: new HnswIndex(graph), touched: new Set() };
    this.#rebuild = job;
    const slots = this.presentSlots(slotLimit);
    let next = 0;
    const step = (): void => {
      if (this.#rebuild !== job) return; // superseded by a newer rebuild, or the shard was dropped
      for (const end = Math.min(next + REBUILD_CHUNK, slots.length); next < end; next++) {
        const slot = slots[next]!;
        if (this.has(slot) && !job.touched.has(slot)) job.index.add(slot, this.vector(slot));
      }
      if (next < slots.length) {
        setImmediate(step);
        return;
      }
      // Writes made while the graph was built: their slots are redone as they are now.
      for (const slot of job.touched) {
        if (this.has(slot)) job.index.add(slot, this.vector(slot));
        else job.index.remove(slot);
      }
      // The new graph holds every row now: it is their one copy.
      this.useGraph(job.index);
      this.#rebuild = null;
    };
    setImmediate(step);
  }

  /**
   * The exact top candidates among `candidates` (null: every present slot, `live` of them) that
   * `accept` lets through, as (slot, score) pairs pushed to `push` (possibly more than k: the
   * caller keeps the best k). From the store when it holds the rows; otherwise read back one by
   * one for a few candidates, or by a native walk of the whole graph for many
   * (HnswIndex.exactHits), the candidates it could not reach read back.
   */
  exactScores(
    query: Float32Array,
    k: number,
    candidates: Iterable<number>,
    count: number,
    live: number,
    accept: (slot: number) => boolean,
    push: (slot: number, score: number) => void,
  ): void {
    const graph = this.index;
    if (this.#store !== null || graph === null || count * READ_BACK_VS_VISIT < live) {
      for (const slot of candidates) if (accept(slot)) push(slot, this.score(slot, query));
      return;
    }
    const visited = new Uint8Array(this.#present.length);
    const member = count >= live ? null : new Uint8Array(this.#present.length);
    if (member !== null) for (const slot of candidates) member[slot] = 1;
    // hnswlib's float32 distances choose the top; their scores are then computed exactly, as the
    // store would (a score_threshold at an exact score must hold), with a margin for near ties.
    const hits = graph.exactHits(
      query,
      k + Math.ceil(k / 4) + 2,
      count,
      (slot) => (member === null || member[slot] === 1) && accept(slot),
      (slot) => {
        visited[slot] = 1;
      },
    );
    for (const slot of hits.slots) push(slot, this.score(slot, query));
    // A graph may leave a node unreachable from its entry point: such candidates are scored apart.
    for (const slot of candidates) if (visited[slot] !== 1 && this.has(slot) && accept(slot)) push(slot, this.score(slot, query));
  }
}
