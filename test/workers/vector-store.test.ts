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

  // dim 1000 gives chunks of ~1048 rows; dim 20000 would give fewer than 64 and is clamped to 64.
  for (const dim of [1000, 20_000]) {
    it(`dim ${dim}: rows survive growth across chunk boundaries and old views stay valid`, () => {
      const s = new VectorStore(dim);
      s.set(0, row(dim, 0));
      const R = s.capacity;
      expect(R).toBeGreaterThanOrEqual(64);
      expect(R * dim * 4).toBeLessThanOrEqual(Math.max(64 * dim * 4, 4 * 1024 * 1024));

      // Views taken before any growth.
      const early0 = s.get(0);
      s.set(R - 1, row(dim, R - 1));
      const earlyLast = s.get(R - 1);

      // Grow into the second and third chunks, writing rows on both sides of each boundary.
      const slots = [1, R - 2, R, R + 1, 2 * R - 1, 2 * R, 2 * R + 7];
      for (const slot of slots) s.set(slot, row(dim, slot));
      expect(s.capacity).toBe(3 * R);
      expect(s.buffers).toHaveLength(3);
      for (const b of s.buffers) expect(b).toBeInstanceOf(SharedArrayBuffer);

      for (const slot of [0, R - 1, ...slots]) expectRow(s.get(slot), dim, slot);

      // Old views still read the same memory: writes through the store show in them and back.
      expectRow(early0, dim, 0);
      expectRow(earlyLast, dim, R - 1);
      s.set(0, row(dim, 42));
      expectRow(early0, dim, 42);
      earlyLast[0] = -1;
      expect(s.get(R - 1)[0]).toBe(-1);

      // A row never straddles chunks: every view lies inside its chunk's buffer.
      for (const slot of [R - 1, R, 2 * R - 1, 2 * R]) {
        const v = s.get(slot);
        expect(v.buffer).toBe(s.buffers[Math.floor(slot / R)]);
        expect(v.byteOffset + v.byteLength).toBeLessThanOrEqual(v.buffer.byteLength);
        expect(v.byteOffset).toBe((slot % R) * dim * 4);
      }

      // Rows never written read as zeros.
      expect(Array.from(s.get(R + 2).subarray(0, 3))).toEqual([0, 0, 0]);
    });
  }

  it('setting a far slot allocates every chunk up to it, intermediate rows are zero', () => {
    const dim = 1000;
    const s = new VectorStore(dim);
    s.set(0, row(dim, 0));
    const R = s.capacity;
    s.set(3 * R + 5, row(dim, 7));
    expect(s.capacity).toBe(4 * R);
    expect(s.buffers).toHaveLength(4);
    expectRow(s.get(3 * R + 5), dim, 7);
    expect(s.get(2 * R).every((x) => x === 0)).toBe(true);
    expectRow(s.get(0), dim, 0);
  });

  it('the backing buffers show the same rows as get()', () => {
    const dim = 1000;
    const s = new VectorStore(dim);
    s.set(0, row(dim, 0));
    const R = s.capacity;
    s.set(R + 3, row(dim, 9));
    const chunk = new Float32Array(s.buffers[1]!);
    expect(Array.from(chunk.subarray(3 * dim, 4 * dim))).toEqual(Array.from(s.get(R + 3)));
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
