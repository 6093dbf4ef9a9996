import { describe, expect, it } from 'vitest';
import { VectorStore } from '../../src/workers/storage/vector-store.js';

/** A row whose every element identifies (slot, column), so misplaced or overlapping rows show. */
function row(dim: number, slot: number): Float32Array {
  const r = new Float32Array(dim);
  for (let j = 0; j < dim; j++) r[j] = slot * 1000 + j + 0.5;
  return r;
}

function expectRow(v: Float32Array, dim: number, slot: number): void {
  expect(v.length).toBe(dim);
  const want = row(dim, slot);
  for (let j = 0; j < dim; j++) {
    if (v[j] !== want[j]) expect(`slot ${slot} col ${j} = ${v[j]}`).toBe(`slot ${slot} col ${j} = ${want[j]}`);
  }
}

describe('VectorStore', () => {
  it('starts empty: no capacity, no buffers, get throws RangeError', () => {
    const s = new VectorStore(4);
    expect(s.capacity).toBe(0);
    expect(s.bytes).toBe(0);
    expect(s.buffers).toEqual([]);
    expect(() => s.get(0)).toThrow(RangeError);
  });

  it('stores rows in SharedArrayBuffer chunks and reports bytes', () => {
    const dim = 3;
    const s = new VectorStore(dim);
    s.set(0, row(dim, 0));
    const perChunk = s.capacity;
    expect(perChunk).toBeGreaterThanOrEqual(64);
    expect(s.buffers).toHaveLength(1);
    expect(s.buffers[0]).toBeInstanceOf(SharedArrayBuffer);
    expect(s.bytes).toBe(perChunk * dim * 4);
    expect(s.buffers[0]!.byteLength).toBe(perChunk * dim * 4);
    expect(s.get(0).buffer).toBe(s.buffers[0]);
  });

  /** Chunk sizes in rows, from the buffers. */
  const chunkRows = (s: VectorStore): number[] => s.buffers.map((b) => b.byteLength / (s.dim * 4));

  // dim 128 reaches the 4 MiB chunk (8192 rows) after a growing phase; dim 20000 starts at the
  // 64-row minimum, which is also its maximum.
  for (const [dim, last] of [
    [128, 40_000],
    [20_000, 700],
  ] as const) {
    it(`dim ${dim}: capacity grows by at most a quarter per chunk, rows survive growth and old views stay valid`, () => {
      const s = new VectorStore(dim);
      s.set(0, row(dim, 0));
      expect(s.capacity).toBe(64);
      const early0 = s.get(0);
      let before = s.capacity;
      for (let slot = 1; slot <= last; slot++) {
        s.set(slot, row(dim, slot));
        if (s.capacity !== before) {
          // A new chunk: at most a quarter of the capacity below it (or the 64-row minimum), at
          // most 4 MiB (or one 64-row chunk of a large dim).
          const added = s.capacity - before;
          expect(added).toBeLessThanOrEqual(Math.max(64, Math.ceil(before * 0.25)));
          expect(added * dim * 4).toBeLessThanOrEqual(Math.max(64 * dim * 4, 4 * 1024 * 1024));
          before = s.capacity;
        }
      }
      // Unused rows: at most about 25% of the used ones.
      expect(s.capacity - (last + 1)).toBeLessThanOrEqual(Math.ceil((last + 1) * 0.25));
      expect(chunkRows(s).reduce((a, b) => a + b, 0)).toBe(s.capacity);
      for (const b of s.buffers) expect(b).toBeInstanceOf(SharedArrayBuffer);
      for (let slot = 0; slot <= last; slot += 997) expectRow(s.get(slot), dim, slot);
      expectRow(s.get(last), dim, last);

      // Every chunk boundary: the rows on both sides read back, each view inside one buffer.
      let start = 0;
      for (const [c, rows] of chunkRows(s).entries()) {
        for (const slot of [start, start + rows - 1]) {
          if (slot > last) continue;
          const v = s.get(slot);
          expectRow(v, dim, slot);
          expect(v.buffer).toBe(s.buffers[c]);
          expect(v.byteOffset).toBe((slot - start) * dim * 4);
          expect(v.byteOffset + v.byteLength).toBeLessThanOrEqual(v.buffer.byteLength);
        }
        start += rows;
      }

      // Old views still read the same memory: writes through the store show in them and back.
      expectRow(early0, dim, 0);
      s.set(0, row(dim, 42));
      expectRow(early0, dim, 42);
      early0[0] = -1;
      expect(s.get(0)[0]).toBe(-1);
    });
  }

  it('a small store takes one small chunk, not 4 MiB', () => {
    const s = new VectorStore(128);
    s.set(3, row(128, 3));
    expect(s.bytes).toBe(64 * 128 * 4);
    expect(s.buffers).toHaveLength(1);
  });

  it('setting a far slot allocates chunks up to it; rows never written read as zeros', () => {
    const dim = 1000;
    const s = new VectorStore(dim);
    s.set(0, row(dim, 0));
    s.set(5000, row(dim, 7));
    expect(s.capacity).toBeGreaterThan(5000);
    expectRow(s.get(5000), dim, 7);
    expect(s.get(2500).every((x) => x === 0)).toBe(true);
    expectRow(s.get(0), dim, 0);
  });

  it('the backing buffers show the same rows as get()', () => {
    const dim = 1000;
    const s = new VectorStore(dim);
    s.set(70, row(dim, 9));
    expect(chunkRows(s)[0]).toBe(64);
    const chunk = new Float32Array(s.buffers[1]!);
    expect(Array.from(chunk.subarray(6 * dim, 7 * dim))).toEqual(Array.from(s.get(70)));
  });

  it('set copies dim floats starting at offset and copies (does not alias) the source', () => {
    const dim = 4;
    const s = new VectorStore(dim);
    const src = Float32Array.of(9, 9, 1, 2, 3, 4, 9, 9);
    s.set(2, src, 2);
    expect(Array.from(s.get(2))).toEqual([1, 2, 3, 4]);
    src[2] = 100;
    expect(s.get(2)[0]).toBe(1);
    // Neighbouring rows untouched.
    expect(Array.from(s.get(1))).toEqual([0, 0, 0, 0]);
    expect(Array.from(s.get(3))).toEqual([0, 0, 0, 0]);
  });

  it('overwriting a row replaces it', () => {
    const s = new VectorStore(2);
    s.set(5, Float32Array.of(1, 2));
    s.set(5, Float32Array.of(3, 4));
    expect(Array.from(s.get(5))).toEqual([3, 4]);
  });

  it('out-of-range get throws RangeError (beyond capacity, negative)', () => {
    const s = new VectorStore(2);
    s.set(0, Float32Array.of(1, 2));
    expect(() => s.get(s.capacity)).toThrow(RangeError);
    expect(() => s.get(s.capacity + 1000)).toThrow(RangeError);
    expect(() => s.get(-1)).toThrow(RangeError);
    // The last in-range slot is fine.
    expect(s.get(s.capacity - 1)).toHaveLength(2);
  });
});
