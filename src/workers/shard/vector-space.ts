// One named dense vector of one shard: its rows (VectorStore), which slots hold one (a presence
// byte per slot), its HNSW graph and the background rebuild of that graph when the graph
// parameters change.
//
// Invariants: a slot is in the graph exactly when its presence byte is 1 (deleted slots are
// marked deleted in hnswlib); while a rebuild runs, every slot written since it started is in
// `touched` and is redone from the store before the new graph replaces the old one. No graph
// (null) means exact search: Manhattan (hnswlib has no L1) or m = 0 (Qdrant's way to turn HNSW off).

import { HnswIndex, type HnswParams } from '../index/hnsw.js';
import { metricFor, type Metric } from '../index/distance.js';
import { VectorStore } from '../storage/vector-store.js';
import type { Distance } from '../../shared/types.js';

/** Slots added to a graph being rebuilt per turn of the event loop, between which requests run. */
const REBUILD_CHUNK = 256;

/** The graph parameters a configuration asks for. */
export interface GraphConfig {
  m: number;
  ef_construct: number;
}

/** A background rebuild: the new graph, and the slots written since it started (redone at the end). */
interface Rebuild {
  index: HnswIndex;
  touched: Set<number>;
}

export class VectorSpace {
  readonly name: string;
  readonly store: VectorStore;
  readonly metric: Metric;
  #present = new Uint8Array(1024);
  /** The graph that serves searches, or null for exact search. */
  index: HnswIndex | null = null;
  /** The graph parameters the configuration asks for (the index may still be built with others). */
  #want: GraphConfig;
  #rebuild: Rebuild | null = null;

  constructor(name: string, dim: number, distance: Distance, want: GraphConfig) {
    this.name = name;
    this.store = new VectorStore(dim);
    this.metric = metricFor(distance);
    this.#want = want;
    const graph = this.graphParams();
    if (graph !== null) this.index = new HnswIndex(graph);
  }

  /** The HNSW graph this vector should have, or null for none (exact search). */
  graphParams(): HnswParams | null {
    const kind = this.metric.hnswSpace;
    if (kind === null || this.#want.m === 0) return null;
    return { space: kind, dim: this.store.dim, m: this.#want.m, efConstruct: this.#want.ef_construct };
  }

  has(slot: number): boolean {
    return this.#present[slot] === 1;
  }

  /** How many slots hold a vector (one pass over a byte per slot: for info and scrapes). */
  count(): number {
    let n = 0;
    for (let i = 0; i < this.#present.length; i++) n += this.#present[i]!;
    return n;
  }

  /** Slots below `limit` that hold a vector, ascending. */
  presentSlots(limit: number): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < limit; slot++) if (this.#present[slot] === 1) out.push(slot);
    return out;
  }

  /**
   * Writes (v given) or removes (undefined) the slot's vector. `graph` false leaves the graph
   * alone: a load whose graph is restored from disk, or rebuilt once all rows are in.
   */
  set(slot: number, v: Float32Array | undefined, graph = true): void {
    if (v !== undefined) {
      this.store.set(slot, v);
      this.#setPresent(slot, true);
      if (graph) this.index?.add(slot, this.store.get(slot));
    } else {
      this.#setPresent(slot, false);
      this.index?.remove(slot);
    }
    this.#rebuild?.touched.add(slot);
  }

  #setPresent(slot: number, on: boolean): void {
    if (slot >= this.#present.length) {
      let n = this.#present.length;
      while (slot >= n) n *= 2;
      const grown = new Uint8Array(n);
      grown.set(this.#present);
      this.#present = grown;
    }
    this.#present[slot] = on ? 1 : 0;
  }

  /**
   * Takes the graph parameters of a new configuration. Changed ones get the graph rebuilt in the
   * background, as Qdrant's optimizer does: the old graph serves until the new one is complete.
   * `slotLimit` bounds the slots to walk.
   */
  reconfigure(want: GraphConfig, slotLimit: number): void {
    if (want.m === this.#want.m && want.ef_construct === this.#want.ef_construct) return;
    this.#want = want;
    const graph = this.graphParams();
    if (graph !== null) {
      this.#startRebuild(graph, slotLimit);
    } else {
      // No graph any more: searches are exact from now on.
      this.index = null;
      this.#rebuild = null;
    }
  }

  get rebuilding(): boolean {
    return this.#rebuild !== null;
  }

  /** Stops a background rebuild: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    this.#rebuild = null;
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
        if (this.has(slot) && !job.touched.has(slot)) job.index.add(slot, this.store.get(slot));
      }
      if (next < slots.length) {
        setImmediate(step);
        return;
      }
      // Writes made while the graph was built: their slots are redone as they are now.
      for (const slot of job.touched) {
        if (this.has(slot)) job.index.add(slot, this.store.get(slot));
        else job.index.remove(slot);
      }
      this.index = job.index;
      this.#rebuild = null;
    };
    setImmediate(step);
  }
}
