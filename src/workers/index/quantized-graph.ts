// The HNSW graph of one named vector in one shard over quantized codes (docs/storage.md,
// "Quantized graphs"), through Quiver's own binding (quantized-loader.ts): the counterpart of
// hnsw.ts's HnswIndex, with the same labels (the shard's dense slots) and label states, whose
// rows are int8 or binary codes rather than float32 vectors. It holds no float32 row: the
// originals are read from the vector's store or the point's LMDB record, for rescoring the
// candidates it finds.
//
// Memory estimate (bytes), hnswlib's layout as in hnsw.ts with the code row instead of 4d:
//   C * (8M + 4 + R + 8) + C * (40 + 4 + 8 + 2) + N * (4M + 4) / (M - 1) + N * 48 + 65,536 * 40
// where R is the code row (d + 4 bytes for int8, 8 * ceil(d / 64) for binary).

import { LABEL_LOCKS_BYTES, sameRow, type HnswHits } from './hnsw.js';
import { INITIAL_CAPACITY, LabelStates } from './label-states.js';
import { quantizedHnsw, type QuantizedIndexNative, type QuantizedKind } from './quantized-loader.js';
import { QuiverError } from '../../shared/errors.js';

export interface QuantizedParams {
  kind: QuantizedKind;
  /** The space over the codes: l2 for Euclid and Cosine (unit rows), ip for Dot (see the binding). */
  space: 'l2' | 'ip';
  dim: number;
  m: number;
  efConstruct: number;
  /** int8: the float one code step stands for, and the float code 0 stands for (scalar-range.ts). */
  alpha: number;
  offset: number;
}

export class QuantizedGraph {
  readonly #index: QuantizedIndexNative;
  readonly #params: QuantizedParams;
  #efSet = -1;
  #labels: LabelStates;

  /**
   * A saved graph read on a libuv thread, so the calling thread does other work meanwhile (a
   * shard's load reads its LMDB records), with its labels and deletion marks as saved beside it.
   */
  static async read(params: QuantizedParams, saved: { file: string; labels: Iterable<number>; deleted: Iterable<number> }): Promise<QuantizedGraph> {
    const native = QuantizedGraph.#native(params);
    await native.readIndex(saved.file);
    return new QuantizedGraph(params, { ...saved, native });
  }

  static #native(params: QuantizedParams): QuantizedIndexNative {
    const lib = quantizedHnsw();
    if (!('lib' in lib)) throw new QuiverError('BadInput', `Quantization is not available on this server: ${lib.reason}`);
    return new lib.lib.QuantizedIndex(params.kind, params.space, params.dim, params.alpha, params.offset);
  }

  /**
   * A new empty graph, or one read from `saved.file` (synchronously, unless `saved.native` was
   * read already: QuantizedGraph.read) with its labels and deletion marks as saved beside it.
   * Throws BadInput naming the reason when this install has no quantized build (the collection's
   * setting is refused with it).
   */
  constructor(params: QuantizedParams, saved?: { file: string; labels: Iterable<number>; deleted: Iterable<number>; native?: QuantizedIndexNative }) {
    this.#params = params;
    this.#index = saved?.native ?? QuantizedGraph.#native(params);
    if (saved === undefined) {
      this.#index.initIndex(INITIAL_CAPACITY, params.m, params.efConstruct, 100);
      this.#labels = new LabelStates(INITIAL_CAPACITY);
      return;
    }
    if (saved.native === undefined) this.#index.readIndexSync(saved.file);
    const labels = [...saved.labels];
    if (this.#index.getCurrentCount() !== labels.length) throw new Error(`graph holds ${this.#index.getCurrentCount()} elements, its manifest ${labels.length}`);
    this.#labels = LabelStates.restored(this.#index.getMaxElements(), labels, saved.deleted);
  }

  get params(): QuantizedParams {
    return this.#params;
  }

  get size(): number {
    return this.#labels.live;
  }

  get capacity(): number {
    return this.#labels.capacity;
  }

  get labels(): number[] {
    return this.#labels.labels();
  }

  get deletedLabels(): number[] {
    return this.#labels.deletedLabels();
  }

  /** Estimated bytes of the graph (formula in the module comment). */
  get bytes(): number {
    const { m } = this.#params;
    const perSlot = 8 * m + 4 + this.#index.bytesPerRow + 8 + (40 + 4 + 8 + 2) + 1;
    const held = this.#labels.held;
    const upper = m > 1 ? (held * (4 * m + 4)) / (m - 1) : 0;
    return Math.round(this.#labels.capacity * perSlot + upper + held * 48 + LABEL_LOCKS_BYTES);
  }

  /** The code row a vector is stored as. */
  encode(vector: Float32Array): Uint8Array {
    return this.#index.encode(vector);
  }

  /**
   * Inserts `slot`, or updates it when it is in the graph. A live slot whose codes would not
   * change is left alone (answers false), as HnswIndex leaves an unchanged row: hnswlib's update
   * rebuilds the neighbours' links and costs recall.
   */
  add(slot: number, vector: Float32Array): boolean {
    if (this.#labels.isLive(slot) && sameRow(this.#index.getCodes(slot), this.#index.encode(vector))) return false;
    this.#labels.makeRoom(slot, (n) => this.#index.resizeIndex(n));
    this.#index.addPoint(vector, slot);
    this.#labels.markLive(slot);
    return true;
  }

  remove(slot: number): void {
    if (this.#labels.markDeleted(slot)) this.#index.markDelete(slot);
  }

  has(slot: number): boolean {
    return this.#labels.isLive(slot);
  }

  /**
   * Up to k candidates, nearest first by the codes' distances (squared L2 of the dequantized rows,
   * 1 - their dot, or Hamming bits; `asymmetric`, binary only: sum |q| - q.s, the float32 query
   * against the rows' signs s). `accept` is consulted per visited label.
   */
  searchHits(query: Float32Array, k: number, ef: number, accept?: (slot: number) => boolean, asymmetric = false): HnswHits {
    if (this.#labels.live === 0) return { slots: [], distances: [] };
    const kk = Math.min(k, this.#labels.live);
    if (ef !== this.#efSet) {
      this.#index.setEf(ef);
      this.#efSet = ef;
    }
    const res = this.#index.searchKnn(query, kk, accept, asymmetric);
    return { slots: Array.from(res.neighbors), distances: Array.from(res.distances) };
  }

  /** Writes the graph to `file` (its labels and deletion marks are the caller's to save beside it). */
  save(file: string): void {
    this.#index.writeIndexSync(file);
  }

  /**
   * save() on a libuv thread. The caller must not change this graph until the promise settles:
   * hnswlib reads it without a lock.
   */
  async saveAsync(file: string): Promise<void> {
    await this.#index.writeIndex(file);
  }
}
