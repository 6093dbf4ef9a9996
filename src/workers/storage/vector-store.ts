// Dense vector rows of one named vector of one shard, owned by its VectorSpace (vector-space.ts),
// which alone knows which slots hold a vector: a row here is meaningful only while the space marks
// its slot present (a removed vector's row keeps stale floats until the slot is written again).
//
// Layout: fixed-size chunks, each a SharedArrayBuffer viewed as Float32Array holding
// CHUNK_ROWS rows of `dim` floats. Row `slot` lives in chunk floor(slot / CHUNK_ROWS) at row
// slot % CHUNK_ROWS. Invariants: a row never straddles two chunks; growing adds a chunk and never
// copies existing rows, so views handed out earlier stay valid; slots are dense shard-local
// labels (the same labels the HNSW index uses).

const CHUNK_BYTES_TARGET = 4 * 1024 * 1024;

export class VectorStore {
  readonly dim: number;
  readonly #rowsPerChunk: number;
  readonly #chunks: Float32Array[] = [];

  constructor(dim: number) {
    this.dim = dim;
    this.#rowsPerChunk = Math.max(64, Math.floor(CHUNK_BYTES_TARGET / (dim * 4)));
  }

  get capacity(): number {
    return this.#chunks.length * this.#rowsPerChunk;
  }

  #ensure(slot: number): void {
    while (slot >= this.capacity) {
      this.#chunks.push(new Float32Array(new SharedArrayBuffer(this.#rowsPerChunk * this.dim * 4)));
    }
  }

  /** Copies `src` (dim floats starting at `offset`) into row `slot`. */
  set(slot: number, src: Float32Array, offset = 0): void {
    this.#ensure(slot);
    const chunk = this.#chunks[Math.floor(slot / this.#rowsPerChunk)]!;
    chunk.set(src.subarray(offset, offset + this.dim), (slot % this.#rowsPerChunk) * this.dim);
  }

  /** A view of row `slot` (no copy). Valid for the life of the store. */
  get(slot: number): Float32Array {
    const chunk = this.#chunks[Math.floor(slot / this.#rowsPerChunk)];
    if (chunk === undefined) throw new RangeError(`slot ${slot} beyond capacity ${this.capacity}`);
    const start = (slot % this.#rowsPerChunk) * this.dim;
    return chunk.subarray(start, start + this.dim);
  }

  /** `fn` applied to `query` and row `slot` where it lies (no view made). */
  score(slot: number, query: Float32Array, fn: (q: Float32Array, data: Float32Array, offset: number) => number): number {
    const chunk = this.#chunks[Math.floor(slot / this.#rowsPerChunk)];
    if (chunk === undefined) throw new RangeError(`slot ${slot} beyond capacity ${this.capacity}`);
    return fn(query, chunk, (slot % this.#rowsPerChunk) * this.dim);
  }

  /** The backing buffers, e.g. for a thread that wants to read rows without a copy. */
  get buffers(): SharedArrayBuffer[] {
    return this.#chunks.map((c) => c.buffer as SharedArrayBuffer);
  }

  get bytes(): number {
    return this.#chunks.length * this.#rowsPerChunk * this.dim * 4;
  }
}
