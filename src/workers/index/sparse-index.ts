// The inverted index of one sparse vector name in one shard: term -> posting list of
// (slot, weight). Search is exact: the dot product over shared terms, accumulated per slot.
//
// Layout: each posting is three growable typed columns (slot, weight, generation). A slot's
// generation rises whenever its vector changes or goes, so stale entries are skipped without
// being found and removed; a posting is compacted once half of it is stale. Document
// frequencies (live vectors per term) are kept exactly, for the idf modifier.

import type { SparseVec } from '../../shared/protocol.js';

export type { SparseVec };

class Posting {
  slots = new Int32Array(8);
  weights = new Float32Array(8);
  gens = new Int32Array(8);
  length = 0;
  stale = 0;

  push(slot: number, weight: number, gen: number): void {
    if (this.length === this.slots.length) {
      const n = this.length * 2;
      const grow = <T extends Int32Array | Float32Array>(a: T, make: (n: number) => T): T => {
        const b = make(n);
        b.set(a);
        return b;
      };
      this.slots = grow(this.slots, (k) => new Int32Array(k));
      this.weights = grow(this.weights, (k) => new Float32Array(k));
      this.gens = grow(this.gens, (k) => new Int32Array(k));
    }
    this.slots[this.length] = slot;
    this.weights[this.length] = weight;
    this.gens[this.length] = gen;
    this.length++;
  }

  compact(current: (slot: number) => number): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      if (this.gens[r] !== current(this.slots[r]!)) continue;
      this.slots[w] = this.slots[r]!;
      this.weights[w] = this.weights[r]!;
      this.gens[w] = this.gens[r]!;
      w++;
    }
    this.length = w;
    this.stale = 0;
  }
}

export class SparseIndex {
  readonly #vectors = new Map<number, SparseVec>();
  readonly #postings = new Map<number, Posting>();
  readonly #df = new Map<number, number>();
  #gens = new Int32Array(1024);
  /** Entries (index, value pairs) of the live vectors. */
  #entries = 0;

  get size(): number {
    return this.#vectors.size;
  }

  /** Bytes of the live vectors' data: 4 per index and 4 per value (strict mode's vector storage size). */
  get dataBytes(): number {
    return this.#entries * 8;
  }

  /**
   * Estimated bytes: per vector its Map entry, two typed arrays (about 100 bytes of object and
   * buffer each) and 8 bytes per term; per posting three typed columns of 12 bytes per entry
   * allocated, about 300 bytes of objects; the per-slot scratch columns. From counts, for
   * memory reporting.
   */
  get bytes(): number {
    let n = this.#gens.byteLength + this.#acc.byteLength + this.#seen.byteLength + this.#df.size * 32;
    for (const v of this.#vectors.values()) n += 32 + 200 + v.indices.byteLength + v.values.byteLength;
    for (const p of this.#postings.values()) n += 300 + p.slots.length * 12;
    return n;
  }

  has(slot: number): boolean {
    return this.#vectors.has(slot);
  }

  get(slot: number): SparseVec | undefined {
    return this.#vectors.get(slot);
  }

  /** Live vectors holding `term`. */
  df(term: number): number {
    return this.#df.get(term) ?? 0;
  }

  #gen(slot: number): number {
    return this.#gens[slot] ?? 0;
  }

  #bump(slot: number): number {
    if (slot >= this.#gens.length) {
      let n = this.#gens.length;
      while (slot >= n) n *= 2;
      const g = new Int32Array(n);
      g.set(this.#gens);
      this.#gens = g;
    }
    return ++this.#gens[slot]!;
  }

  set(slot: number, v: SparseVec): void {
    this.remove(slot);
    const gen = this.#bump(slot);
    this.#vectors.set(slot, v);
    this.#entries += v.indices.length;
    for (let i = 0; i < v.indices.length; i++) {
      const term = v.indices[i]!;
      let p = this.#postings.get(term);
      if (p === undefined) this.#postings.set(term, (p = new Posting()));
      p.push(slot, v.values[i]!, gen);
      this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
    }
  }

  remove(slot: number): void {
    const old = this.#vectors.get(slot);
    if (old === undefined) return;
    this.#vectors.delete(slot);
    this.#entries -= old.indices.length;
    this.#bump(slot);
    for (const term of old.indices) {
      const n = (this.#df.get(term) ?? 1) - 1;
      if (n === 0) this.#df.delete(term);
      else this.#df.set(term, n);
      const p = this.#postings.get(term);
      if (p === undefined) continue;
      p.stale++;
      if (p.stale * 2 > p.length) {
        p.compact((s) => this.#gen(s));
        if (p.length === 0) this.#postings.delete(term);
      }
    }
  }

  /**
   * Dot products of `query` (weights already multiplied by any idf) with every stored vector
   * sharing a term; calls `emit(slot, score)` once per such slot.
   */
  scores(query: SparseVec, emit: (slot: number, score: number) => void): void {
    // Typed scratch arrays, reused across queries: `seen` stamps a slot with the query's epoch on
    // its first posting, so nothing needs clearing between queries (a Map per query was ~5x slower).
    const epoch = ++this.#epoch;
    const touched: number[] = [];
    for (let q = 0; q < query.indices.length; q++) {
      const p = this.#postings.get(query.indices[q]!);
      if (p === undefined) continue;
      const qw = query.values[q]!;
      const { slots, weights, gens } = p;
      for (let i = 0; i < p.length; i++) {
        const slot = slots[i]!;
        if (gens[i] !== this.#gens[slot]) continue;
        if (slot >= this.#acc.length) this.#growScratch(slot);
        if (this.#seen[slot] !== epoch) {
          this.#seen[slot] = epoch;
          this.#acc[slot] = 0;
          touched.push(slot);
        }
        this.#acc[slot] = this.#acc[slot]! + qw * weights[i]!;
      }
    }
    for (const slot of touched) emit(slot, this.#acc[slot]!);
  }

  #acc = new Float64Array(1024);
  #seen = new Int32Array(1024);
  #epoch = 0;

  #growScratch(slot: number): void {
    let n = this.#acc.length;
    while (slot >= n) n *= 2;
    const acc = new Float64Array(n);
    acc.set(this.#acc);
    const seen = new Int32Array(n);
    seen.set(this.#seen);
    this.#acc = acc;
    this.#seen = seen;
  }
}
