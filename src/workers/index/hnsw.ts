// The HNSW index of one named vector in one shard, over hnswlib-node.
// Labels are the shard's dense slots, so a deleted slot that is reused is re-added under the same
// label (hnswlib un-marks and updates it). hnswlib keeps its own copy of each vector; scores are
// recomputed exactly from the shard's VectorStore, so the index only proposes candidates.

import { hnswlib, type HnswlibModule } from './hnswlib-loader.js';

type Index = InstanceType<HnswlibModule['HierarchicalNSW']>;

const INITIAL_CAPACITY = 1024;

export interface HnswParams {
  space: 'ip' | 'l2';
  dim: number;
  m: number;
  efConstruct: number;
}

export class HnswIndex {
  readonly #index: Index;
  readonly #params: HnswParams;
  #capacity = INITIAL_CAPACITY;
  #live = 0;
  #efSet = -1;
  readonly #labels = new Set<number>();
  readonly #deleted = new Set<number>();

  constructor(params: HnswParams, saved?: { file: string; labels: readonly number[]; deleted: readonly number[] }) {
    this.#params = params;
    this.#index = new (hnswlib().HierarchicalNSW)(params.space, params.dim);
    if (saved === undefined) {
      this.#index.initIndex(this.#capacity, params.m, params.efConstruct, 100);
      return;
    }
    // A saved graph (graph-snapshots.ts): its labels, and those it had marked deleted, as saved
    // beside it.
    this.#index.readIndexSync(saved.file);
    if (this.#index.getCurrentCount() !== saved.labels.length) {
      throw new Error(`graph holds ${this.#index.getCurrentCount()} elements, its manifest ${saved.labels.length}`);
    }
    this.#capacity = this.#index.getMaxElements();
    for (const label of saved.labels) this.#labels.add(label);
    for (const label of saved.deleted) this.#deleted.add(label);
    this.#live = this.#labels.size - this.#deleted.size;
  }

  /** Every label the graph holds, live or marked deleted (what a restore needs to know). */
  get labels(): number[] {
    return [...this.#labels];
  }

  /** Labels marked deleted (saved beside the graph: hnswlib's file keeps the marks, not a list). */
  get deletedLabels(): number[] {
    return [...this.#deleted];
  }

  /**
   * Writes the graph to `file` on a libuv thread (hnswlib-node's writeIndex). The caller must not
   * mutate this index until the promise settles: hnswlib reads the graph without a lock.
   */
  async saveAsync(file: string): Promise<void> {
    await this.#index.writeIndex(file);
  }

  get size(): number {
    return this.#live;
  }

  get params(): HnswParams {
    return this.#params;
  }

  add(slot: number, vector: Float32Array): void {
    if (slot >= this.#capacity) {
      while (slot >= this.#capacity) this.#capacity *= 2;
      this.#index.resizeIndex(this.#capacity);
    }
    this.#index.addPoint(Array.from(vector), slot);
    if (!this.#labels.has(slot)) {
      this.#labels.add(slot);
      this.#live++;
    } else if (this.#deleted.delete(slot)) {
      this.#live++;
    }
  }

  remove(slot: number): void {
    if (this.#labels.has(slot) && !this.#deleted.has(slot)) {
      this.#index.markDelete(slot);
      this.#deleted.add(slot);
      this.#live--;
    }
  }

  /** Up to k candidate slots, nearest first. `accept` is consulted per visited label. */
  search(query: Float32Array, k: number, ef: number, accept?: (slot: number) => boolean): number[] {
    if (this.#live === 0) return [];
    const kk = Math.min(k, this.#live);
    if (ef !== this.#efSet) {
      this.#index.setEf(ef);
      this.#efSet = ef;
    }
    const res = accept
      ? this.#index.searchKnn(Array.from(query), kk, accept)
      : this.#index.searchKnn(Array.from(query), kk);
    return res.neighbors;
  }
}
