// The paced REST run's pure helpers (bench/lib/h2load-paced.ts), whose mistakes would skew the
// p50/p99 at half the peak rate: the split of the rate over clients and processes, h2load's
// per-request log, the percentiles and histogram, and the count of possibly delayed sends.

import { describe, expect, it } from 'vitest';
import { histogram, pacedPlan, pacedResult, parseLogs, percentile } from '../../bench/lib/h2load-paced.js';

// h2load 1.52 --log-file lines captured against Quiver's REST search (start us, status, us), with
// a failed stream (-1) and a 400 added, and two files as two processes write them
const LOG_A = `1795490354146935\t200\t10256
1795490354167673\t200\t2974
1795490354210411\t200\t7179
1795490354190812\t200\t26798
`;
const LOG_B = `1795490354150000\t-1\t1500
1795490354160000\t400\t800
1795490354170000\t200\t1000
`;

describe('pacedPlan', () => {
  it('gives each of 64 clients in 8 processes 1/64 of the rate, and interleaves their starts', () => {
    const p = pacedPlan(2000, 64, 8, 5);
    expect(p.clients).toEqual([8, 8, 8, 8, 8, 8, 8, 8]);
    expect(p.rpsPerClient).toBeCloseTo(31.25, 9);
    expect(p.intervalMs).toBeCloseTo(32, 9);
    // 156 requests per client over 5 s (31.25/s, rounded)
    expect(p.requests).toEqual(new Array(8).fill(8 * 156));
    // a process's 8 clients start 4 ms apart, the processes 0.5 ms apart: 64 starts 0.5 ms apart
    expect(p.clientStaggerMs).toBe(4);
    expect(p.procOffsetMs).toBeCloseTo(0.5, 9);
  });

  it('uses fewer processes than asked when there are fewer clients, and spreads an uneven split', () => {
    expect(pacedPlan(100, 3, 8, 1).clients).toEqual([1, 1, 1]);
    expect(pacedPlan(100, 10, 4, 1).clients).toEqual([3, 3, 2, 2]);
  });

  it('staggers clients by at least 1 ms (h2load --rate-period takes whole ms)', () => {
    expect(pacedPlan(100_000, 64, 1, 1).clientStaggerMs).toBe(1);
  });

  it('refuses a zero rate or no clients', () => {
    expect(() => pacedPlan(0, 64, 8, 5)).toThrow(/must be positive/);
    expect(() => pacedPlan(100, 0, 8, 5)).toThrow(/must be positive/);
  });
});

describe('parseLogs', () => {
  it('takes latency from 200s only, counts every status, and spans first start to last end', () => {
    const f = parseLogs([LOG_A, LOG_B]);
    expect(f.latencyMs).toEqual([10.256, 2.974, 7.179, 26.798, 1]);
    expect(f.statusCodes).toEqual({ '200': 5, '-1': 1, '400': 1 });
    expect(f.firstStartUs).toBe(1795490354146935);
    expect(f.lastEndUs).toBe(1795490354190812 + 26798);
  });

  it('throws on a line that is not start, status, duration', () => {
    expect(() => parseLogs(['1795490354146935\t200\n'])).toThrow(/bad line/);
    expect(() => parseLogs(['abc\t200\t12\n'])).toThrow(/bad line/);
  });
});

describe('percentile and histogram', () => {
  const ms = Array.from({ length: 1000 }, (_, i) => (i + 1) / 100); // 0.01 .. 10 ms

  it('takes the nearest rank', () => {
    expect(percentile(ms, 50)).toBeCloseTo(5, 9);
    expect(percentile(ms, 99)).toBeCloseTo(9.9, 9);
    expect(percentile(ms, 99.9)).toBeCloseTo(9.99, 9);
    expect(percentile([], 99)).toBeNaN();
  });

  it('puts a value on a bound in that bound bucket and the rest above the last bound', () => {
    const h = histogram([0.5, 0.6, 1, 4, 120], [0.5, 1, 5]);
    expect(h).toEqual({ leMs: [0.5, 1, 5], counts: [1, 2, 1, 1] });
    expect(histogram(ms).counts.reduce((a, b) => a + b, 0)).toBe(1000);
  });
});

describe('pacedResult', () => {
  it('reports the failures by status, the rate reached, and the requests slower than a client interval', () => {
    const plan = pacedPlan(2000, 64, 8, 5);
    const r = pacedResult(parseLogs([LOG_A, LOG_B]), { ...plan, intervalMs: 10, requests: [7] }, 2000, 0.5);
    expect(r.ok).toBe(5);
    expect(r.failed).toBe(2);
    expect(r.statusCodes).toEqual({ '200': 5, 'failed stream': 1, '400': 1 });
    expect(r.firstError).toMatch(/failed stream/);
    expect(r.durationS).toBeCloseTo((190812 + 26798 - 146935) / 1e6, 9);
    // 10.256 and 26.798 ms are above the 10 ms interval
    expect(r.paced.overInterval).toBe(2);
    expect(r.latencyMs.max).toBeCloseTo(26.798, 9);
    expect(r.clientCpuMsPerRequest).toBeCloseTo(100, 9);
    expect(r.targetRate).toBe(2000);
  });

  it('counts the requests planned but missing from the logs as failed', () => {
    const plan = pacedPlan(2000, 64, 8, 5);
    const r = pacedResult(parseLogs([LOG_A, '']), { ...plan, requests: [4, 6] }, 2000, 0);
    expect(r.ok).toBe(4);
    expect(r.failed).toBe(6);
    expect(r.statusCodes).toEqual({ '200': 4, 'not logged': 6 });
    expect(r.firstError).toMatch(/not logged/);
  });
});
