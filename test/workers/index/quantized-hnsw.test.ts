// Quiver's own hnswlib binding over int8 and binary codes (src/native/quantized-hnsw.cc, built at
// install by src/native/build-quantized.mjs) and its loader (src/workers/index/quantized-loader.ts):
// the codes it stores, recall against exact ground truth once the candidates are rescored with
// the float32 originals, filters, deletes, growth, save and restore, and every bad argument's
// message. CI installs with a C++ compiler, so the build must be there; QUIVER_SKIP_NATIVE_BUILD=1
// (no build made) skips the binding's own tests and keeps the loader's.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadQuantized, quantizedHnsw, type QuantizedIndexNative, type QuantizedModule } from '../../../src/workers/index/quantized-loader.js';
import { scalarRange } from '../../../src/workers/index/scalar-range.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-quantized-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seeded generator (mulberry32), so recall figures are the same every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` rows around `clusters` centres (Gaussian, sigma), unit length when `normalize`. The centres
 * come from `dim` and `clusters` alone, so data and queries drawn with other seeds share them.
 */
function clustered(n: number, dim: number, clusters: number, sigma: number, seed: number, normalize: boolean): Float32Array[] {
  const c0 = rng(dim * 1000 + clusters);
  const r = rng(seed);
  const gaussOf = (g: () => number) => (): number => Math.sqrt(-2 * Math.log(g() + 1e-12)) * Math.cos(2 * Math.PI * g());
  const gauss = gaussOf(r);
  const centreGauss = gaussOf(c0);
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dim }, () => centreGauss()));
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(r() * clusters)]!;
    const v = Float32Array.from(c, (x) => x + sigma * gauss());
    if (normalize) {
      const len = Math.hypot(...v);
      for (let i = 0; i < dim; i++) v[i]! /= len;
    }
    return v;
  });
}

const l2 = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return s;
};
const ipDist = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return 1 - s;
};

/** Top k labels by exact distance among `candidates` (all rows when null). */
function exactTop(rows: Float32Array[], q: Float32Array, k: number, dist: (a: Float32Array, b: Float32Array) => number, candidates: Iterable<number> | null = null): number[] {
  const ids = candidates === null ? rows.map((_, i) => i) : [...candidates];
  return ids
    .map((i) => [i, dist(rows[i]!, q)] as const)
    .sort((a, b) => a[1] - b[1])
    .slice(0, k)
    .map(([i]) => i);
}

/** recall@k of the graph's top k * oversampling rescored with the originals, over `queries`. */
function recall(index: QuantizedIndexNative, rows: Float32Array[], queries: Float32Array[], k: number, oversampling: number, dist: (a: Float32Array, b: Float32Array) => number, asymmetric = false): number {
  let hit = 0;
  for (const q of queries) {
    const truth = new Set(exactTop(rows, q, k, dist));
    const found = index.searchKnn(q, k * oversampling, undefined, asymmetric).neighbors;
    for (const id of exactTop(rows, q, k, dist, found)) if (truth.has(id)) hit++;
  }
  return hit / (k * queries.length);
}

describe('the quantized hnswlib loader', () => {
  it('says why it cannot load: no build, an unreadable record, flags the CPU lacks', () => {
    expect(loadQuantized(join(dir, 'none'), new Set())).toEqual({ reason: expect.stringMatching(/^no quantized hnswlib build at .*none: quantization needs the native build made at install with a C\+\+ compiler \(npm run native:build\)$/) });
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'build-info.json'), '{not json');
    expect(loadQuantized(bad, new Set())).toEqual({ reason: expect.stringContaining('build-info.json is unreadable') });
    const wide = join(dir, 'wide');
    mkdirSync(wide);
    writeFileSync(join(wide, 'build-info.json'), JSON.stringify({ tier: 'x86-64-v4', requiredCpuFlags: ['avx2', 'avx512f'] }));
    expect(loadQuantized(wide, new Set(['avx2']))).toEqual({ reason: expect.stringContaining('needs CPU flags this CPU lacks (avx512f)') });
    writeFileSync(join(wide, 'build-info.json'), JSON.stringify({ tier: 7 }));
    expect(loadQuantized(wide, new Set())).toEqual({ reason: expect.stringContaining('is not a build record') });
  });
});

describe('scalarRange', () => {
  it('keeps the whole range without a quantile, and clips the outer values with one', () => {
    const rows = [Float32Array.from({ length: 1000 }, (_, i) => i / 999)];
    expect(scalarRange(rows, null)).toEqual({ alpha: expect.closeTo(1 / 255, 6), offset: 0 });
    const outlier = [Float32Array.from([...rows[0]!.subarray(0, 999), 100])];
    const r = scalarRange(outlier, 0.99);
    expect(r.offset).toBeCloseTo(0.005, 2);
    expect(r.alpha * 255 + r.offset).toBeLessThan(1.01);
  });

  it('gives an empty or constant sample a range one unit wide', () => {
    expect(scalarRange([], null)).toEqual({ alpha: 1 / 255, offset: -0.5 });
    expect(scalarRange([Float32Array.from([3, 3, 3])], 0.9)).toEqual({ alpha: 1 / 255, offset: 2.5 });
  });
});

const built = quantizedHnsw();
const skipBinding = process.env.QUIVER_SKIP_NATIVE_BUILD === '1';

describe.skipIf(skipBinding)('the quantized hnswlib binding', () => {
  const lib = (): QuantizedModule => {
    if (!('lib' in built)) throw new Error(`the quantized build must be present here: ${built.reason}`);
    return built.lib;
  };

  it('is built and loads', () => {
    expect(built).toMatchObject({ tier: expect.any(String) });
  });

  it('stores int8 rows as one byte per dimension plus the codes\' sum, and binary rows as sign bits in 64-bit words', () => {
    const { QuantizedIndex } = lib();
    const int8 = new QuantizedIndex('int8', 'l2', 4, 0.5, -1);
    expect(int8.bytesPerRow).toBe(8);
    // (x - offset) / alpha: -1 -> 0, 0 -> 2, 126.5 -> 255, -5 and NaN clamp to 0, 500 to 255
    const row = int8.encode(Float32Array.from([-1, 0, 126.5, -5]));
    expect([...row.subarray(0, 4)]).toEqual([0, 2, 255, 0]);
    expect(new DataView(row.buffer, row.byteOffset).getInt32(4, true)).toBe(257);
    expect([...int8.encode(Float32Array.from([Number.NaN, 500, 0.24, 0.26])).subarray(0, 4)]).toEqual([0, 255, 2, 3]);
    const binary = new QuantizedIndex('binary', 'ip', 70, 1, 0);
    expect(binary.bytesPerRow).toBe(16);
    const v = new Float32Array(70).fill(-1);
    v[0] = 1;
    v[65] = 0.5;
    const bits = binary.encode(v);
    expect([...bits]).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('answers the exact distances between the dequantized query and rows (int8), and Hamming distances (binary)', () => {
    const { QuantizedIndex } = lib();
    const rows = clustered(500, 64, 10, 0.3, 7, true);
    const queries = clustered(20, 64, 10, 0.3, 8, true);
    const { alpha, offset } = scalarRange(rows, 0.99);
    const deq = (c: Uint8Array): Float32Array => Float32Array.from(c.subarray(0, 64), (x) => offset + alpha * x);
    for (const [metric, dist] of [['l2', l2], ['ip', ipDist]] as const) {
      const index = new QuantizedIndex('int8', metric, 64, alpha, offset);
      index.initIndex(rows.length);
      rows.forEach((r, i) => index.addPoint(r, i));
      index.setEf(100);
      for (const q of queries) {
        const found = index.searchKnn(q, 5);
        found.neighbors.forEach((label, j) => expect(found.distances[j]).toBeCloseTo(dist(deq(index.getCodes(label)), deq(index.encode(q))), 5));
      }
    }
    const binary = new QuantizedIndex('binary', 'ip', 64, 1, 0);
    binary.initIndex(rows.length);
    rows.forEach((r, i) => binary.addPoint(r, i));
    const bitsOf = (v: Float32Array): number[] => [...v].map((x) => (x > 0 ? 1 : 0));
    for (const q of queries) {
      const found = binary.searchKnn(q, 3);
      found.neighbors.forEach((label, j) => expect(found.distances[j]).toBe(bitsOf(rows[label]!).filter((b, i) => b !== bitsOf(q)[i]).length));
    }
  });

  it('int8: recall@10 of at least 0.97 with twice the candidates rescored (l2, raw and unit-length rows); ip at ten times', () => {
    const { QuantizedIndex } = lib();
    for (const [metric, normalize, oversampling] of [['l2', false, 2], ['l2', true, 2], ['ip', true, 10]] as const) {
      const rows = clustered(3000, 64, 30, 0.3, 7, normalize);
      const queries = clustered(50, 64, 30, 0.3, 8, normalize);
      const dist = metric === 'l2' ? l2 : ipDist;
      const { alpha, offset } = scalarRange(rows, 0.99);
      const index = new QuantizedIndex('int8', metric, 64, alpha, offset);
      index.initIndex(rows.length, 16, 100);
      rows.forEach((r, i) => index.addPoint(r, i));
      index.setEf(200);
      expect(index.getCurrentCount()).toBe(3000);
      expect(recall(index, rows, queries, 10, oversampling, dist)).toBeGreaterThanOrEqual(0.97);
    }
  });

  it('binary over unit-length rows: recall@10 of at least 0.97 with ten times the candidates rescored, against at most 0.5 without', () => {
    const { QuantizedIndex } = lib();
    const rows = clustered(3000, 128, 30, 0.5, 11, true);
    const queries = clustered(50, 128, 30, 0.5, 12, true);
    const index = new QuantizedIndex('binary', 'ip', 128, 1, 0);
    index.initIndex(rows.length, 16, 100);
    rows.forEach((r, i) => index.addPoint(r, i));
    index.setEf(200);
    expect(recall(index, rows, queries, 10, 10, ipDist)).toBeGreaterThanOrEqual(0.97);
    expect(recall(index, rows, queries, 10, 1, ipDist)).toBeLessThanOrEqual(0.5);
  });

  it('binary, asymmetric (the float32 query against the signs): better recall than Hamming distances at the same candidates', () => {
    const { QuantizedIndex } = lib();
    // Tight clusters: within one, the signs of most dimensions are the centre's, and Hamming
    // distances say little about which members are nearest.
    const rows = clustered(4000, 128, 20, 0.2, 13, true);
    const queries = clustered(50, 128, 20, 0.2, 14, true);
    const index = new QuantizedIndex('binary', 'l2', 128, 1, 0);
    index.initIndex(rows.length, 16, 100);
    rows.forEach((r, i) => index.addPoint(r, i));
    index.setEf(200);
    const hamming = [recall(index, rows, queries, 10, 2, ipDist), recall(index, rows, queries, 10, 10, ipDist)];
    const asymmetric = [recall(index, rows, queries, 10, 2, ipDist, true), recall(index, rows, queries, 10, 10, ipDist, true)];
    // Measured: 0.232 and 0.68 by Hamming, 0.25 and 0.752 asymmetric.
    expect(asymmetric[0]).toBeGreaterThanOrEqual(hamming[0]! - 0.02);
    expect(asymmetric[1]).toBeGreaterThan(hamming[1]! + 0.03);
    // The distance is sum |q| - q.s: zero for the query's own signs.
    const own = index.searchKnn(rows[5]!, 1, undefined, true);
    let abs = 0;
    let dot = 0;
    const codes = index.getCodes(own.neighbors[0]!);
    for (let i = 0; i < 128; i++) {
      abs += Math.abs(rows[5]![i]!);
      dot += ((codes[i >> 3]! >> (i & 7)) & 1) === 1 ? rows[5]![i]! : -rows[5]![i]!;
    }
    expect(own.distances[0]).toBeCloseTo(abs - dot, 3);
    expect(() => new QuantizedIndex('int8', 'l2', 4, 0.01, -1).searchKnn(new Float32Array(4), 1, undefined, true)).toThrow();
  });

  it('filters per visited label, skips deleted labels, grows, and a filter\'s error reaches the caller', () => {
    const { QuantizedIndex } = lib();
    const rows = clustered(200, 16, 4, 0.2, 3, false);
    const index = new QuantizedIndex('int8', 'l2', 16, ...(Object.values(scalarRange(rows, null)) as [number, number]));
    index.initIndex(100);
    rows.slice(0, 100).forEach((r, i) => index.addPoint(r, i));
    expect(() => index.addPoint(rows[100]!, 100)).toThrow('The number of elements exceeds the specified limit');
    index.resizeIndex(200);
    rows.slice(100).forEach((r, i) => index.addPoint(r, 100 + i));
    expect(index.getMaxElements()).toBe(200);
    index.setEf(200);
    const even = index.searchKnn(rows[3]!, 10, (label) => label % 2 === 0).neighbors;
    expect(even.length).toBe(10);
    expect([...even].every((l) => l % 2 === 0)).toBe(true);
    expect(index.searchKnn(rows[3]!, 1).neighbors[0]).toBe(3);
    index.markDelete(3);
    expect([...index.searchKnn(rows[3]!, 10).neighbors]).not.toContain(3);
    index.unmarkDelete(3);
    expect(index.searchKnn(rows[3]!, 1).neighbors[0]).toBe(3);
    expect(() =>
      index.searchKnn(rows[3]!, 5, () => {
        throw new Error('filter failed');
      }),
    ).toThrow('filter failed');
    expect(index.searchKnn(rows[5]!, 1).neighbors[0]).toBe(5);
  });

  it('writes the graph and reads it back with the same answers; a graph of another kind is refused', () => {
    const { QuantizedIndex } = lib();
    const rows = clustered(500, 32, 5, 0.3, 5, false);
    const { alpha, offset } = scalarRange(rows, null);
    const index = new QuantizedIndex('int8', 'l2', 32, alpha, offset);
    index.initIndex(500);
    rows.forEach((r, i) => index.addPoint(r, i));
    index.markDelete(7);
    const file = join(dir, 'graph.bin');
    index.writeIndexSync(file);
    const back = new QuantizedIndex('int8', 'l2', 32, alpha, offset);
    back.readIndexSync(file);
    expect(back.getCurrentCount()).toBe(500);
    expect([...back.getCodes(9)]).toEqual([...index.getCodes(9)]);
    for (const q of rows.slice(0, 20)) expect([...back.searchKnn(q, 5).neighbors]).toEqual([...index.searchKnn(q, 5).neighbors]);
    expect([...back.searchKnn(rows[7]!, 5).neighbors]).not.toContain(7);
    expect(() => new QuantizedIndex('binary', 'l2', 32, 1, 0).readIndexSync(file)).toThrow("the graph's rows do not match this index's kind and dimension");
    expect(() => back.readIndexSync(join(dir, 'missing.bin'))).toThrow(/^cannot read the graph: /);
    expect(() => index.writeIndexSync(join(dir, 'no-such-dir', 'g.bin'))).toThrow(/^cannot write the graph: cannot open .*no-such-dir\/g\.bin for writing$/);
  });

  it('writes and reads on a libuv thread (writeIndex, readIndex) with the same answers and errors', async () => {
    const { QuantizedIndex } = lib();
    const rows = clustered(400, 16, 4, 0.3, 6, true);
    const index = new QuantizedIndex('binary', 'l2', 16, 1, 0);
    index.initIndex(400);
    rows.forEach((r, i) => index.addPoint(r, i));
    const file = join(dir, 'graph-async.bin');
    await index.writeIndex(file);
    const back = new QuantizedIndex('binary', 'l2', 16, 1, 0);
    await back.readIndex(file);
    expect(back.getCurrentCount()).toBe(400);
    for (const q of rows.slice(0, 20)) expect([...back.searchKnn(q, 5).neighbors]).toEqual([...index.searchKnn(q, 5).neighbors]);
    await expect(new QuantizedIndex('int8', 'l2', 16, 0.01, -1).readIndex(file)).rejects.toThrow("the graph's rows do not match this index's kind and dimension");
    await expect(back.readIndex(join(dir, 'missing-async.bin'))).rejects.toThrow(/^cannot read the graph: /);
    await expect(index.writeIndex(join(dir, 'no-such-dir', 'g.bin'))).rejects.toThrow(/^cannot write the graph: /);
    // A failed read leaves the graph it had.
    expect(back.getCurrentCount()).toBe(400);
  });

  it('answers each bad argument with its message', () => {
    const { QuantizedIndex } = lib();
    const make = (...a: unknown[]) => () => new (QuantizedIndex as unknown as new (...x: unknown[]) => unknown)(...a);
    expect(make('int4', 'l2', 8, 1, 0)).toThrow("kind must be 'int8' or 'binary'");
    expect(make('int8', 'cosine', 8, 1, 0)).toThrow("metric must be 'l2' or 'ip'");
    expect(make('int8', 'l2', 0, 1, 0)).toThrow('dim must be an integer from 1 to 65536');
    expect(make('int8', 'l2', 8, 0, 0)).toThrow('alpha must be finite and positive, offset finite');
    expect(make('int8', 'l2')).toThrow('expected (kind, metric, dim, alpha, offset)');
    const index = new QuantizedIndex('int8', 'l2', 8, 1, 0);
    expect(() => index.searchKnn(new Float32Array(8), 1)).toThrow('the index is not initialized: call initIndex or readIndexSync first');
    index.initIndex(10);
    expect(() => index.addPoint(new Float32Array(7), 0)).toThrow('vector of 7 dimensions, the index has 8');
    expect(() => index.addPoint([1, 2, 3] as unknown as Float32Array, 0)).toThrow('expected a Float32Array');
    expect(() => index.addPoint(new Float32Array(8), -1)).toThrow('label must be a non-negative integer');
    expect(() => index.searchKnn(new Float32Array(8), 1, 'x' as never)).toThrow('filter must be a function');
    expect(() => index.getCodes(3)).toThrow('label not found');
  });
});
