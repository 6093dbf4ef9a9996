// Dense vector rows of one named vector of one shard, owned by its VectorSpace (vector-space.ts),
// which alone knows which slots hold a vector: a row here is meaningful only while the space marks
// its slot present (a removed vector's row keeps stale floats until the slot is written again).
// Since issue 14 a VectorSpace keeps a store only where it is the one in-memory copy: vectors
// without an HNSW graph (Manhattan, m = 0), and rows staged while a shard loads; a graph holds
// its own vectors (see vector-space.ts).
//
// Layout: chunks, each a SharedArrayBuffer viewed as Float32Array holding whole rows of `dim`
// floats. Invariants: a row never straddles two chunks; growing adds a chunk and never copies
// existing rows, so views handed out earlier stay valid; slots are dense shard-local labels (the
// same labels the HNSW index uses). Growth: a new chunk holds a quarter of the capacity so far
// (at least MIN_CHUNK_ROWS rows, at most CHUNK_BYTES_MAX bytes), so unused rows are at most about
// 25% of the rows below them, and a small store does not take a 4 MiB chunk for a few rows.
// Chunks below `#fixedFrom` have growing sizes (found by binary search over their starts, fewer
// than ~30 of them); from `#fixedFrom` on every chunk has the maximum size (found by division).

import { GROWTH } from './capacity.js';

const CHUNK_BYTES_MAX = 4 * 1024 * 1024;
const MIN_CHUNK_ROWS = 64;

export class VectorStore {
  readonly dim: number;
  readonly #maxRows: number;
  readonly #chunks: Float32Array[] = [];
  /** First slot of each chunk. */
  readonly #starts: number[] = [];
  #capacity = 0;
  /** The first slot (and chunk index) from which every chunk has #maxRows rows. */
  #fixedFrom = Number.POSITIVE_INFINITY;
  #fixedChunk = 0;

  constructor(dim: number) {
    this.dim = dim;
    this.#maxRows = Math.max(MIN_CHUNK_ROWS, Math.floor(CHUNK_BYTES_MAX / (dim * 4)));
  }

  get capacity(): number {
    return this.#capacity;
  }

  #ensure(slot: number): void {
    while (slot >= this.#capacity) {
      let rows = this.#maxRows;
      if (this.#fixedFrom === Number.POSITIVE_INFINITY) {
        rows = Math.min(this.#maxRows, Math.max(MIN_CHUNK_ROWS, Math.ceil(this.#capacity * GROWTH)));
        if (rows === this.#maxRows) {
          this.#fixedFrom = this.#capacity;
          this.#fixedChunk = this.#chunks.length;
        }
      }
      this.#starts.push(this.#capacity);
      this.#chunks.push(new Float32Array(new SharedArrayBuffer(rows * this.dim * 4)));
      this.#capacity += rows;
    }
  }

  /** The chunk index holding `slot` (slot < capacity). */
  #chunkOf(slot: number): number {
    if (slot >= this.#fixedFrom) return this.#fixedChunk + Math.floor((slot - this.#fixedFrom) / this.#maxRows);
    let lo = 0;
    // Below #fixedFrom: only the growing chunks, which end where the fixed ones begin.
    let hi = (this.#fixedFrom === Number.POSITIVE_INFINITY ? this.#chunks.length : this.#fixedChunk) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= slot) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #check(slot: number): void {
    if (!(slot >= 0 && slot < this.#capacity)) throw new RangeError(`slot ${slot} beyond capacity ${this.#capacity}`);
  }

  /** Copies `src` (dim floats starting at `offset`) into row `slot`. */
  set(slot: number, src: Float32Array, offset = 0): void {
    this.#ensure(slot);
    const c = this.#chunkOf(slot);
    this.#chunks[c]!.set(src.subarray(offset, offset + this.dim), (slot - this.#starts[c]!) * this.dim);
  }

  /** A view of row `slot` (no copy). Valid for the life of the store. */
  get(slot: number): Float32Array {
    this.#check(slot);
    const c = this.#chunkOf(slot);
    const start = (slot - this.#starts[c]!) * this.dim;
    return this.#chunks[c]!.subarray(start, start + this.dim);
  }

  /** `fn` applied to `query` and row `slot` where it lies (no view made). */
  score(slot: number, query: Float32Array, fn: (q: Float32Array, data: Float32Array, offset: number) => number): number {
    this.#check(slot);
    const c = this.#chunkOf(slot);
    return fn(query, this.#chunks[c]!, (slot - this.#starts[c]!) * this.dim);
  }

  /** The backing buffers, e.g. for a thread that wants to read rows without a copy. */
  get buffers(): SharedArrayBuffer[] {
    return this.#chunks.map((c) => c.buffer as SharedArrayBuffer);
  }

  get bytes(): number {
    return this.#capacity * this.dim * 4;
  }
}
