// The dashboard's reading of live recall from /metrics (src/dashboard/recall.ts: pure functions,
// no DOM): labels in any order, escaped values, other collections and metrics ignored.

import { describe, expect, it } from 'vitest';
import { describeRecall, liveRecall } from '../../src/dashboard/recall.js';

const TEXT = [
  '# HELP quiver_live_recall Recall@k of sampled searches against exact ones',
  '# TYPE quiver_live_recall gauge',
  'quiver_live_recall{filtered="false",collection="docs"} 0.97',
  'quiver_live_recall{collection="docs",filtered="true"} 0.8125',
  'quiver_live_recall{collection="other",filtered="false"} 0.5',
  'quiver_live_recall{ collection = "we\\"ird" , filtered="false"} 1',
  '# TYPE quiver_live_recall_samples_total counter',
  'quiver_live_recall_samples_total{collection="docs",filtered="false"} 120',
  'quiver_live_recall_samples_total{filtered="true",collection="docs"} 1',
  'quiver_live_recall_samples_total{collection="we\\"ird",filtered="false"} 3 1700000000000',
  'quiver_live_recall_total{collection="docs",filtered="false"} 9',
  'quiver_points{collection="docs"} 1000',
].join('\n');

describe('live recall in the dashboard', () => {
  it('reads both kinds for a collection, whatever the label order', () => {
    const r = liveRecall(TEXT, 'docs');
    expect(r).toEqual({ unfiltered: { recall: 0.97, samples: 120 }, filtered: { recall: 0.8125, samples: 1 } });
    expect(describeRecall(r)).toBe('unfiltered 0.97 (120 samples), filtered 0.813 (1 sample)');
  });

  it('names a missing kind with a dash, and no samples at all as such', () => {
    expect(describeRecall(liveRecall(TEXT, 'other'))).toBe('unfiltered 0.5, filtered —');
    expect(describeRecall(liveRecall(TEXT, 'we"ird'))).toBe('unfiltered 1 (3 samples), filtered —');
    expect(describeRecall(liveRecall(TEXT, 'absent'))).toBe('no samples yet');
    expect(describeRecall(liveRecall('', 'docs'))).toBe('no samples yet');
    // A gauge with a zero sample count says nothing yet.
    const zero = 'quiver_live_recall{collection="z",filtered="false"} 0\nquiver_live_recall_samples_total{collection="z",filtered="false"} 0';
    expect(describeRecall(liveRecall(zero, 'z'))).toBe('no samples yet');
  });
});
