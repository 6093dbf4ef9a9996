// The HNSW index of one named vector in one shard, over hnswlib-node.
// Labels are the shard's dense slots, so a deleted slot that is reused is re-added under the same
// label (hnswlib un-marks and updates it).
//
// One copy of each vector (issue 14): hnswlib keeps every vector it indexes, so for a vector with
// a graph this index is the only in-memory copy (LMDB holds the durable one). Measured in one
// process at 100k x 128 (bench/shard-memory.ts): the SharedArrayBuffer copy beside the graph was
// 1.0x the raw vector bytes of a 3.5x RssAnon growth (169.5 MiB for 48.8 MiB raw); without it,
// with 25% capacity steps and typed per-point arrays, 1.8x (87.9 MiB). Reading back costs:
// getPoint builds a JS array element by element through N-API, about 20-40 us per 128-d row
// against 0.15 us for a Float32Array row, so reads avoid it where they can:
//   - HNSW search scores come from hnswlib's own distances (no read-back);
//   - exact search over many candidates walks the whole graph natively (exactHits), where
//     hnswlib computes every distance with SIMD;
//   - other rows (small candidate sets, those the walk cannot reach, with_vector, persisting a
//     record, rebuilds) are read from the point's LMDB record, memory-mapped, so not anonymous
//     memory (about 0.5-0.8 us a row read in place, 5-7 us decoded: Shard#readRow,
//     VectorSpace.readRows); getPoint only where that record cannot be trusted (a
//     secondary's primary at another version).
// The price is exact scoring: a full exact search or a filtered one below full_scan_threshold
// is several times slower than from a Float32Array (1,000 candidates of 20k, in one run on a
// busy machine: 10 ms from LMDB, 33 ms through getPoint, 0.8-1.3 ms from a store); what the
// memory targets buy.
// Per-label state is one byte (absent, live, deleted) in a typed array, not Sets (label-states.ts).
//
// Capacity grows by 25% (grownCapacity), not by doubling. Memory estimate (bytes), from
// hnswlib's layout (hnswalg.h), with C the capacity, N the labels held, d the dimension,
// M the graph's m:
//   C * (8M + 4 + 4d + 8)          level 0: 2M links, their count, the vector, the label
//   + C * (40 + 4 + 8 + 2)         per-slot mutex, level, upper-level pointer, visited-list mark
//   + N * (4M + 4) / (M - 1)       upper levels (a node has level >= l with probability M^-l)
//   + N * 48                       label -> internal id hash map (node and bucket)
//   + 65,536 * 40                  the label operation locks, a fixed table per index
// plus one byte per slot here for the label state.

import { hnswlib, type HnswlibModule } from './hnswlib-loader.js';
import { INITIAL_CAPACITY, LabelStates } from './label-states.js';

type Index = InstanceType<HnswlibModule['HierarchicalNSW']>;

/** hnswlib's fixed table of label operation locks, per index (bytes). */
export const LABEL_LOCKS_BYTES = 65_536 * 40;

export interface HnswParams {
  space: 'ip' | 'l2';
  dim: number;
  m: number;
  efConstruct: number;
}

/** Nearest first: slots and hnswlib's distances (1 - dot for 'ip', squared L2 for 'l2'). */
export interface HnswHits {
  slots: number[];
  distances: number[];
}

/** True when both rows hold the same values (float32 rows here, code rows in quantized-graph.ts). */
export function sameRow<T extends Float32Array | Uint8Array>(a: T, b: T): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class HnswIndex {
  readonly #index: Index;
  readonly #params: HnswParams;
  #efSet = -1;
  #labels: LabelStates;
  /** hnswlib-node takes plain arrays only: one reused per index rather than one made per call. */
  readonly #row: number[];

  /**
   * A saved graph read on a libuv thread (hnswlib-node's readIndex), so the calling thread does
   * other work meanwhile (a shard's load reads its LMDB records).
   */
  static async read(params: HnswParams, saved: { file: string; labels: ArrayLike<number> & Iterable<number>; deleted: Iterable<number> }): Promise<HnswIndex> {
    const native = new (hnswlib().HierarchicalNSW)(params.space, params.dim);
    await native.readIndex(saved.file);
    return new HnswIndex(params, { ...saved, native });
  }

  /** `saved.native`: the graph already read (HnswIndex.read); else the file is read here, synchronously. */
  constructor(params: HnswParams, saved?: { file: string; labels: ArrayLike<number> & Iterable<number>; deleted: Iterable<number>; native?: Index }) {
    this.#params = params;
    this.#row = new Array<number>(params.dim).fill(0);
    this.#index = saved?.native ?? new (hnswlib().HierarchicalNSW)(params.space, params.dim);
    if (saved === undefined) {
      this.#index.initIndex(INITIAL_CAPACITY, params.m, params.efConstruct, 100);
      this.#labels = new LabelStates(INITIAL_CAPACITY);
      return;
    }
    // A saved graph (graph-snapshots.ts): its labels, and those it had marked deleted, as saved
    // beside it.
    if (saved.native === undefined) this.#index.readIndexSync(saved.file);
    if (this.#index.getCurrentCount() !== saved.labels.length) {
      throw new Error(`graph holds ${this.#index.getCurrentCount()} elements, its manifest ${saved.labels.length}`);
    }
    this.#labels = LabelStates.restored(this.#index.getMaxElements(), saved.labels, saved.deleted);
  }

  /** Every label the graph holds, live or marked deleted (what a restore needs to know). */
  get labels(): number[] {
    return this.#labels.labels();
  }

  /** Labels marked deleted (saved beside the graph: hnswlib's file keeps the marks, not a list). */
  get deletedLabels(): number[] {
    return this.#labels.deletedLabels();
  }

  /**
   * Writes the graph to `file` on a libuv thread (hnswlib-node's writeIndex). The caller must not
   * mutate this index until the promise settles: hnswlib reads the graph without a lock.
   */
  async saveAsync(file: string): Promise<void> {
    await this.#index.writeIndex(file);
  }

  get size(): number {
    return this.#labels.live;
  }

  get params(): HnswParams {
    return this.#params;
  }

  get capacity(): number {
    return this.#labels.capacity;
  }

  /** Estimated bytes this graph takes, vectors included (formula in the module comment). */
  get bytes(): number {
    const { m, dim } = this.#params;
    const perSlot = 8 * m + 4 + 4 * dim + 8 + (40 + 4 + 8 + 2) + 1;
    const held = this.#labels.held;
    const upper = m > 1 ? (held * (4 * m + 4)) / (m - 1) : 0;
    return Math.round(this.#labels.capacity * perSlot + upper + held * 48 + LABEL_LOCKS_BYTES);
  }

  /**
   * Inserts `slot`, or updates it when it is in the graph. A live slot given the vector it holds
   * already is left alone (answers false): hnswlib would run its updatePoint, which rebuilds the
   * link lists of the slot's neighbours from their two-hop neighbourhood and so drops their
   * longer links. Re-upserting unchanged points (a client re-sending the batches in flight at a
   * crash, a payload-only write replayed onto a saved graph) then cost recall: in one run at 100k
   * x 128, re-upserting 3,000 of them took recall@10 at ef 64 from 0.977 to 0.971. `held`: the
   * row this graph holds for the slot when the caller knows it (cheaper than getPoint).
   */
  add(slot: number, vector: Float32Array, held?: Float32Array): boolean {
    if (this.#labels.isLive(slot) && sameRow(held ?? this.vector(slot), vector)) return false;
    this.#labels.makeRoom(slot, (n) => this.#index.resizeIndex(n));
    this.#index.addPoint(this.#rowOf(vector), slot);
    this.#labels.markLive(slot);
    return true;
  }

  remove(slot: number): void {
    if (this.#labels.markDeleted(slot)) this.#index.markDelete(slot);
  }

  /** True when `slot` is live in the graph. */
  has(slot: number): boolean {
    return this.#labels.isLive(slot);
  }

  /** The vector stored for a live slot (read back from hnswlib: see the module comment for the cost). */
  vector(slot: number): Float32Array {
    return Float32Array.from(this.#index.getPoint(slot));
  }

  /** `v` in the reused row; hnswlib copies it before the call returns, so the next call may overwrite it. */
  #rowOf(v: Float32Array): number[] {
    const row = this.#row;
    if (v.length !== row.length) return Array.from(v);
    for (let i = 0; i < row.length; i++) row[i] = v[i]!;
    return row;
  }

  #setEf(ef: number): void {
    if (ef !== this.#efSet) {
      this.#index.setEf(ef);
      this.#efSet = ef;
    }
  }

  /** Up to k candidates with hnswlib's distances, nearest first. `accept` is consulted per visited label. */
  searchHits(query: Float32Array, k: number, ef: number, accept?: (slot: number) => boolean): HnswHits {
    if (this.#labels.live === 0) return { slots: [], distances: [] };
    const kk = Math.min(k, this.#labels.live);
    this.#setEf(ef);
    const res = accept ? this.#index.searchKnn(this.#rowOf(query), kk, accept) : this.#index.searchKnn(this.#rowOf(query), kk);
    return { slots: res.neighbors, distances: res.distances };
  }

  /** Up to k candidate slots, nearest first. `accept` is consulted per visited label. */
  search(query: Float32Array, k: number, ef: number, accept?: (slot: number) => boolean): number[] {
    return this.searchHits(query, k, ef, accept).slots;
  }

  /**
   * The exact top k among the live slots `accept` lets through (at most `allowed` of them), by
   * walking the whole graph: with ef above the number of slots that can enter the result,
   * hnswlib's search never stops early, so it visits every node reachable from the entry point
   * and computes each distance natively. `visited` receives every live label the walk met (the
   * caller scores any candidate it did not meet, which a graph may leave unreachable).
   */
  exactHits(query: Float32Array, k: number, allowed: number, accept: (slot: number) => boolean, visited: (slot: number) => void): HnswHits {
    if (this.#labels.live === 0) return { slots: [], distances: [] };
    const kk = Math.min(k, this.#labels.live);
    this.#setEf(Math.max(kk, Math.min(allowed, this.#labels.live) + 1));
    const res = this.#index.searchKnn(this.#rowOf(query), kk, (slot: number) => {
      visited(slot);
      return accept(slot);
    });
    return { slots: res.neighbors, distances: res.distances };
  }
}
