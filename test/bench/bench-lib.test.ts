// The bench's pure helpers whose mistakes would silently skew its figures: the seeded dataset,
// exact ground truth and recall, /proc parsing and CPU arithmetic, and wrk's output.

import { describe, expect, it } from 'vitest';
import { exactTopK, makeDataset, recallAtK, rowJson, rowOf, toFloat32, UNIT, type DatasetSpec } from '../../bench/lib/dataset.js';
import { parseWrk } from '../../bench/lib/load.js';
import { groundTruth } from '../../bench/lib/truth.js';
import { cpuPerRequest, parseTidFile, statTicks, statusBytes, type CpuSample } from '../../bench/lib/proc.js';
import { memoryFields } from '../../bench/lib/report.js';

const SPEC: DatasetSpec = { n: 300, queries: 20, dim: 8, clusters: 5, sigma: 0.3, seed: 1 };

describe('makeDataset', () => {
  it('gives the same values for the same spec, and other values for another seed', () => {
    const a = makeDataset(SPEC);
    const b = makeDataset(SPEC);
    expect(Array.from(a.points)).toEqual(Array.from(b.points));
    expect(Array.from(a.queries)).toEqual(Array.from(b.queries));
    const c = makeDataset({ ...SPEC, seed: 2 });
    expect(Array.from(c.points)).not.toEqual(Array.from(a.points));
  });

  it('draws points and queries from separate streams, so sizing one does not move the other', () => {
    const a = makeDataset(SPEC);
    const more = makeDataset({ ...SPEC, n: 600, queries: 40 });
    expect(Array.from(more.points.subarray(0, a.points.length))).toEqual(Array.from(a.points));
    expect(Array.from(more.queries.subarray(0, a.queries.length))).toEqual(Array.from(a.queries));
  });

  it('clusters points around the centroids with the given spread', () => {
    const ds = makeDataset({ ...SPEC, n: 4000, clusters: 1, dim: 4 });
    const f = toFloat32(ds.points);
    for (let d = 0; d < 4; d++) {
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < 4000; i++) {
        s += f[i * 4 + d]!;
        s2 += f[i * 4 + d]! ** 2;
      }
      const mean = s / 4000;
      const sd = Math.sqrt(s2 / 4000 - mean * mean);
      expect(Math.abs(mean)).toBeLessThanOrEqual(1.05);
      expect(sd).toBeGreaterThan(0.27);
      expect(sd).toBeLessThan(0.33);
    }
  });

  it('prints rows as the short decimals the float32 values come from', () => {
    const units = Int32Array.from([12345, -7, 0, 20000]);
    expect(rowJson(units, 0, 4)).toBe('[1.2345,-0.0007,0,2]');
    expect(rowOf(units, 0, 4)).toEqual([1.2345, -0.0007, 0, 2]);
    expect(toFloat32(units)[0]).toBe(Math.fround(12345 / UNIT));
    // what a server parses from the JSON is what the ground truth used
    const parsed = JSON.parse(rowJson(units, 0, 4)) as number[];
    expect(Float32Array.from(parsed)).toEqual(toFloat32(units));
  });
});

describe('exactTopK', () => {
  it('matches a full sort by squared distance, nearest first', () => {
    const ds = makeDataset(SPEC);
    const data = toFloat32(ds.points);
    const queries = toFloat32(ds.queries);
    const got = exactTopK(data, SPEC.n, queries, 0, SPEC.queries, SPEC.dim, 10);
    for (let q = 0; q < SPEC.queries; q++) {
      const d = Array.from({ length: SPEC.n }, (_, i) => {
        let s = 0;
        for (let k = 0; k < SPEC.dim; k++) s += (data[i * SPEC.dim + k]! - queries[q * SPEC.dim + k]!) ** 2;
        return { i, s };
      });
      d.sort((a, b) => a.s - b.s || a.i - b.i);
      expect(got[q]).toEqual(d.slice(0, 10).map((x) => x.i));
    }
  });

  it('keeps the lower id on ties, and returns fewer than k when there are fewer points', () => {
    const data = Float32Array.from([1, 1, 0, 0, 1, 1]); // ids 0 and 2 at the same place
    const q = Float32Array.from([1, 1]);
    expect(exactTopK(data, 3, q, 0, 1, 2, 2)).toEqual([[0, 2]]);
    expect(exactTopK(data, 3, q, 0, 1, 2, 10)).toEqual([[0, 2, 1]]);
  });
});

describe('groundTruth', () => {
  it('gives what the plain exact scan gives', () => {
    const spec = { ...SPEC, n: 2000, queries: 30, dim: 16 };
    const ds = makeDataset(spec);
    const want = exactTopK(toFloat32(ds.points), spec.n, toFloat32(ds.queries), 0, spec.queries, spec.dim, 10);
    expect(groundTruth(ds.points, spec.n, ds.queries, spec.queries, spec.dim, 10)).toEqual(want);
  });
});

describe('recallAtK', () => {
  it('counts the true ids found, once each, over all queries', () => {
    expect(recallAtK([[1, 2, 3]], [[1, 2, 3]])).toBe(1);
    expect(recallAtK([[1, 9, 8]], [[1, 2, 3]])).toBeCloseTo(1 / 3);
    expect(recallAtK([[1, 1, 1]], [[1, 2, 3]])).toBeCloseTo(1 / 3);
    expect(recallAtK([[1, 2], []], [[1, 2], [3, 4]])).toBe(0.5);
    expect(recallAtK([], [])).toBe(0);
  });
});

describe('/proc parsing', () => {
  it('reads utime + stime after a process name holding spaces and parentheses', () => {
    const line = '4242 (node (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 150 25 0 0 20 0 12 0 100 0 0';
    expect(statTicks(line)).toBe(175);
    expect(() => statTicks('garbage')).toThrow(/not a \/proc stat line/);
  });

  it("reads the preload's thread file, ignoring torn or foreign lines", () => {
    const t = parseTidFile('100 main 0\n101 worker 1\n102 worker 2\nxx worker\n103 wor');
    expect(t.main).toBe(100);
    expect([...t.workers].sort()).toEqual([101, 102]);
  });

  it('reads kB fields of /proc/<pid>/status as bytes', () => {
    const s = 'Name:\tnode\nVmRSS:\t  2048 kB\nRssAnon:\t    1024 kB\n';
    expect(statusBytes(s, 'RssAnon')).toBe(1024 * 1024);
    expect(statusBytes(s, 'VmRSS')).toBe(2048 * 1024);
    expect(statusBytes(s, 'RssFile')).toBeNaN();
  });

  it('divides each group by the completed requests', () => {
    const a: CpuSample = { mainMs: 100, workersMs: 200, otherMs: 10, processMs: 310, workerThreads: 2, at: 0 };
    const b: CpuSample = { mainMs: 150, workersMs: 400, otherMs: 20, processMs: 580, workerThreads: 2, at: 1000 };
    const c = cpuPerRequest(a, b, 1000);
    expect(c.mainMs).toBeCloseTo(0.05);
    expect(c.workersMs).toBeCloseTo(0.2);
    expect(c.otherMs).toBeCloseTo(0.01);
    expect(c.totalMs).toBeCloseTo(0.27);
    expect(c.coresBusy).toBeCloseTo(0.27);
    expect(cpuPerRequest(a, b, 0).mainMs).toBeNaN();
  });
});

describe('parseWrk', () => {
  it('reads requests, duration, errors and latency percentiles', () => {
    const out = `Running 5s test @ http://127.0.0.1:1234
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.12ms    1.10ms  30.00ms   90.00%
    Req/Sec     6.00k   200.00    7.00k    70.00%
  Latency Distribution
     50%    4.90ms
     75%    5.50ms
     90%    6.20ms
     99%  950.00us
  60000 requests in 5.00s, 10.00MB read
  Socket errors: connect 0, read 1, write 0, timeout 2
  Non-2xx or 3xx responses: 10
Requests/sec:  12000.00
`;
    const f = parseWrk(out, 5);
    expect(f.ok).toBe(59990);
    expect(f.failed).toBe(13);
    expect(f.durationS).toBe(5);
    expect(f.qps).toBeCloseTo(11998);
    expect(f.latencyMs.p50).toBeCloseTo(4.9);
    expect(f.latencyMs.p90).toBeCloseTo(6.2);
    expect(f.latencyMs.p99).toBeCloseTo(0.95);
    expect(f.latencyMs.mean).toBeCloseTo(5.12);
  });
});

describe('memoryFields', () => {
  it('finds numeric memory fields by path', () => {
    expect(memoryFields({ a: { memory: { vectors_bytes: 5, graph_bytes: 6 } }, points_count: 3, rss: 7 })).toEqual([
      ['a.memory.vectors_bytes', 5],
      ['a.memory.graph_bytes', 6],
      ['rss', 7],
    ]);
  });
});
