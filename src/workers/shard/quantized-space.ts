// The quantized HNSW graph of one VectorSpace (docs/storage.md, "Quantized graphs"): built in the
// background once the vector holds QUANTIZE_AT rows (fewer are searched exactly, and there is no
// sample to learn an int8 range from), over codes learned from the rows present then; rebuilt in
// the background when the setting changes, the graph it replaces serving meanwhile. The float32
// originals stay in the VectorSpace's store: searches rescore the graph's candidates with them.
//
// Invariants: once built, the serving graph holds every present row (each write reaches it, and
// the build redoes every slot written while it ran); a build never blocks the thread for more than
// BUILD_CHUNK inserts.

import { QuantizedGraph, type QuantizedParams } from '../index/quantized-graph.js';
import { scalarRange } from '../index/scalar-range.js';
import type { Distance } from '../../shared/types.js';

/** Rows a vector holds before its quantized graph is built. */
export const QUANTIZE_AT = 1000;
/** Rows sampled to learn an int8 range from. */
const TRAIN_ROWS = 4096;
/** Rows inserted per turn of the event loop while a graph is built. */
const BUILD_CHUNK = 256;

/** What the configuration asks for (src/shared/hnsw-params.ts: effectiveQuantization). */
export interface QuantSpec {
  kind: 'int8' | 'binary';
  quantile: number | null;
}

/** The space the codes are compared in: l2 for Euclid and for Cosine's unit rows, ip for Dot (see the binding's comment). */
export function codeSpace(distance: Distance): 'l2' | 'ip' {
  return distance === 'Dot' ? 'ip' : 'l2';
}

/** What approxScore needs of an asymmetric binary search's query: sum |q| and |q|, taken once per search. */
export interface QueryStats {
  abs: number;
  norm: number;
}

export function queryStats(query: Float32Array): QueryStats {
  let abs = 0;
  let sq = 0;
  for (const x of query) {
    abs += Math.abs(x);
    sq += x * x;
  }
  return { abs, norm: Math.sqrt(sq) };
}

export function sameSpec(a: QuantSpec | null, b: QuantSpec | null): boolean {
  return a === b || (a !== null && b !== null && a.kind === b.kind && a.quantile === b.quantile);
}

/** What the space gives the graph to build from. */
export interface RowSource {
  live(): number;
  presentSlots(): number[];
  has(slot: number): boolean;
  vector(slot: number): Float32Array;
}

export class QuantizedSpace {
  readonly spec: QuantSpec;
  readonly #distance: Distance;
  readonly #dim: number;
  readonly #graph: { m: number; efConstruct: number };
  readonly #rows: RowSource;
  /** The graph searches use, or null until one is built. */
  graph: QuantizedGraph | null;
  #job: { graph: QuantizedGraph; touched: Set<number> } | null = null;
  /** Whether `graph` is this setting's own (not one kept serving from the setting before). */
  #built = false;

  /** `serving`: the graph of the setting this one replaces, used until this one's is built. */
  constructor(spec: QuantSpec, distance: Distance, dim: number, graph: { m: number; efConstruct: number }, rows: RowSource, serving: QuantizedGraph | null = null) {
    this.spec = spec;
    this.#distance = distance;
    this.#dim = dim;
    this.#graph = graph;
    this.#rows = rows;
    this.graph = serving;
  }

  /** The slot's row was written (v) or removed (undefined) in the space. */
  written(slot: number, v: Float32Array | undefined): void {
    // The serving graph (this setting's, or the one before while this one's is built) stays whole.
    if (v !== undefined) this.graph?.add(slot, v);
    else this.graph?.remove(slot);
    this.#job?.touched.add(slot);
    this.startIfDue();
  }

  /** This setting's own built graph (what a save holds), or null while none is. */
  get own(): QuantizedGraph | null {
    return this.#built ? this.graph : null;
  }

  /** A graph read from a save of this setting takes over; a build under way is dropped. */
  restore(graph: QuantizedGraph): void {
    this.#job = null;
    this.graph = graph;
    this.#built = true;
  }

  get building(): boolean {
    return this.#job !== null;
  }

  /** Estimated bytes of the serving graph and of one being built. */
  get bytes(): number {
    return (this.graph?.bytes ?? 0) + (this.#job?.graph.bytes ?? 0);
  }

  /**
   * Starts the build once the space holds enough rows and none is built or building: on the next
   * turn, since the write that got it there may not be readable yet (its row reaches the shard's
   * pending rows, which the originals on disk are read through, after the space).
   */
  startIfDue(): void {
    if (this.#startScheduled || this.#job !== null || (this.graph !== null && this.#built) || this.#rows.live() < QUANTIZE_AT) return;
    this.#startScheduled = true;
    setImmediate(() => {
      this.#startScheduled = false;
      if (!this.#stopped && this.#job === null && !(this.graph !== null && this.#built) && this.#rows.live() >= QUANTIZE_AT) this.#start();
    });
  }

  #startScheduled = false;
  #stopped = false;

  stop(): void {
    this.#job = null;
    this.#stopped = true;
  }

  /**
   * A score in the metric's scale from the graph's distance, for `rescore: false`: exact for the
   * dequantized rows (int8), an estimate from the share of differing signs (binary), or, for an
   * asymmetric binary search (`query` given; d = sum |q| - q.s), from q.s: a unit row's components
   * are about s * sqrt(2 / (pi * dim)) on average in magnitude, so q.x is about q.s times that.
   */
  approxScore(d: number, query: QueryStats | null = null): number {
    if (this.spec.kind === 'binary') {
      const cos = query === null ? Math.cos((Math.PI * d) / this.#dim) : Math.max(-1, Math.min(1, ((query.abs - d) * Math.sqrt(2 / (Math.PI * this.#dim))) / (query.norm || 1)));
      return this.#distance === 'Euclid' ? Math.sqrt(Math.max(0, 2 - 2 * cos)) : cos;
    }
    if (this.#distance === 'Dot') return 1 - d;
    if (this.#distance === 'Cosine') return 1 - d / 2;
    return Math.sqrt(Math.max(0, d));
  }

  #params(slots: readonly number[]): QuantizedParams {
    const base = { kind: this.spec.kind, space: codeSpace(this.#distance), dim: this.#dim, m: this.#graph.m, efConstruct: this.#graph.efConstruct } as const;
    if (this.spec.kind === 'binary') return { ...base, alpha: 1, offset: 0 };
    const step = Math.max(1, Math.floor(slots.length / TRAIN_ROWS));
    const sample: Float32Array[] = [];
    for (let i = 0; i < slots.length; i += step) sample.push(this.#rows.vector(slots[i]!));
    return { ...base, ...scalarRange(sample, this.spec.quantile) };
  }

  #start(): void {
    const slots = this.#rows.presentSlots();
    const job = { graph: new QuantizedGraph(this.#params(slots)), touched: new Set<number>() };
    this.#job = job;
    let next = 0;
    const step = (): void => {
      if (this.#job !== job) return; // stopped, or superseded
      for (const end = Math.min(next + BUILD_CHUNK, slots.length); next < end; next++) {
        const slot = slots[next]!;
        if (this.#rows.has(slot) && !job.touched.has(slot)) job.graph.add(slot, this.#rows.vector(slot));
      }
      if (next < slots.length) {
        setImmediate(step);
        return;
      }
      // Slots written while the graph was built: redone as they are now.
      for (const slot of job.touched) {
        if (this.#rows.has(slot)) job.graph.add(slot, this.#rows.vector(slot));
        else job.graph.remove(slot);
      }
      this.graph = job.graph;
      this.#built = true;
      this.#job = null;
    };
    setImmediate(step);
  }
}
