// QuantizedGraph (src/workers/index/quantized-graph.ts): HnswIndex's label bookkeeping over the
// quantized binding: adds, updates and unchanged rows, deletes, growth past its capacity, search
// with a filter, save and restore with the labels and marks kept beside the file, and a memory
// estimate that shows what the codes save against the float32 graph of the same rows.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HnswIndex } from '../../../src/workers/index/hnsw.js';
import { QuantizedGraph, type QuantizedParams } from '../../../src/workers/index/quantized-graph.js';
import { scalarRange } from '../../../src/workers/index/scalar-range.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-qgraph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rows(n: number, dim: number, seed: number): Float32Array[] {
  let a = seed;
  const r = (): number => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  return Array.from({ length: n }, () => Float32Array.from({ length: dim }, r));
}

const skip = process.env.QUIVER_SKIP_NATIVE_BUILD === '1';

describe.skipIf(skip)('QuantizedGraph', () => {
  const data = rows(600, 32, 5);
  const { alpha, offset } = scalarRange(data, null);
  const params: QuantizedParams = { kind: 'int8', space: 'l2', dim: 32, m: 16, efConstruct: 100, alpha, offset };

  it('adds past its first capacity, leaves an unchanged row alone, updates a changed one, deletes and re-adds', () => {
    const g = new QuantizedGraph(params);
    expect(g.capacity).toBe(256);
    data.forEach((v, i) => expect(g.add(i, v)).toBe(true));
    expect(g.size).toBe(600);
    expect(g.capacity).toBeGreaterThanOrEqual(600);
    expect(g.add(7, data[7]!)).toBe(false);
    expect(g.add(7, data[8]!)).toBe(true);
    g.remove(9);
    g.remove(9);
    expect(g.has(9)).toBe(false);
    expect(g.size).toBe(599);
    expect(g.deletedLabels).toEqual([9]);
    expect(g.add(9, data[9]!)).toBe(true);
    expect(g.has(9)).toBe(true);
    expect(g.deletedLabels).toEqual([]);
    expect(g.labels.length).toBe(600);
  });

  it('finds a row by its own vector, honours the filter, and answers nothing from an empty graph', () => {
    const g = new QuantizedGraph(params);
    expect(g.searchHits(data[0]!, 5, 50)).toEqual({ slots: [], distances: [] });
    data.forEach((v, i) => g.add(i, v));
    const hits = g.searchHits(data[42]!, 5, 100);
    expect(hits.slots[0]).toBe(42);
    expect(hits.distances[0]).toBeCloseTo(0, 6);
    expect(hits.distances).toEqual([...hits.distances].sort((x, y) => x - y));
    const odd = g.searchHits(data[42]!, 5, 100, (s) => s % 2 === 1);
    expect(odd.slots.every((s) => s % 2 === 1)).toBe(true);
    expect(g.searchHits(data[1]!, 1000, 100).slots.length).toBe(600);
  });

  it('saves and restores with its labels and deletion marks; a manifest that disagrees is refused', () => {
    const g = new QuantizedGraph(params);
    data.forEach((v, i) => g.add(i, v));
    g.remove(3);
    const file = join(dir, 'g.bin');
    g.save(file);
    const back = new QuantizedGraph(params, { file, labels: g.labels, deleted: g.deletedLabels });
    expect(back.size).toBe(599);
    expect(back.has(3)).toBe(false);
    expect(back.searchHits(data[10]!, 3, 100)).toEqual(g.searchHits(data[10]!, 3, 100));
    expect(() => new QuantizedGraph(params, { file, labels: [1, 2], deleted: [] })).toThrow('graph holds 600 elements, its manifest 2');
  });

  it('estimates about 0.3x of the float32 graph\'s bytes for int8 and about 0.1x for binary (the links dominate) at 768 dimensions', () => {
    const big = rows(300, 768, 9);
    const float = new HnswIndex({ space: 'l2', dim: 768, m: 16, efConstruct: 100 });
    const int8 = new QuantizedGraph({ ...params, dim: 768, ...scalarRange(big, null) });
    const binary = new QuantizedGraph({ ...params, kind: 'binary', space: 'ip', dim: 768, alpha: 1, offset: 0 });
    for (const [i, v] of big.entries()) {
      float.add(i, v);
      int8.add(i, v);
      binary.add(i, v);
    }
    const fixed = 65_536 * 40;
    const ratio = (g: { bytes: number }): number => (g.bytes - fixed) / (float.bytes - fixed);
    expect(ratio(int8)).toBeGreaterThan(0.25);
    expect(ratio(int8)).toBeLessThan(0.35);
    expect(ratio(binary)).toBeLessThan(0.11);
  });
});
