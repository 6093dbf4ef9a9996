// The latency probe's summary line (src/shared/latency-probe.ts): what the p99 investigation reads
// per thread, so a wrong percentile or a lost kind would send it the wrong way.

import { describe, expect, it } from 'vitest';
import { PROBE_ON, probeRecord, summarizeSamples } from '../../src/shared/latency-probe.js';

describe('summarizeSamples', () => {
  it('gives count, sum, nearest-rank p50 and p99, and max per kind, kinds in name order', () => {
    const by = new Map<string, number[]>([
      ['req-total', Array.from({ length: 100 }, (_, i) => i + 1)],
      ['gc-scavenge', [0.5, 1.5]],
    ]);
    expect(summarizeSamples(by)).toBe('gc-scavenge n=2 sum=2.00 p50=0.50 p99=1.50 max=1.50 | req-total n=100 sum=5050.00 p50=50.00 p99=99.00 max=100.00');
  });

  it('leaves out a kind without samples, and an empty map is an empty string', () => {
    expect(summarizeSamples(new Map([['release-gc', []]]))).toBe('');
    expect(summarizeSamples(new Map())).toBe('');
  });
});

describe('probeRecord', () => {
  it('is off unless QUIVER_LATENCY_PROBE=1, and a call while off is harmless', () => {
    expect(PROBE_ON).toBe(process.env.QUIVER_LATENCY_PROBE === '1');
    expect(() => probeRecord('req-total', 1)).not.toThrow();
  });
});
