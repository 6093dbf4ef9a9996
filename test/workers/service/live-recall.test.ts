// Unit tests of the live recall sampler (src/workers/service/live-recall.ts) over a fake engine
// whose exact answers the test controls: what is recorded, what is skipped and counted. The
// module's queue is one per thread, so the tests run in order and the check that never ends
// comes last.

import { describe, expect, it } from 'vitest';
import type { PointEngine } from '../../../src/shared/point-engine.js';
import type { SearchSpec } from '../../../src/shared/protocol.js';
import type { CollectionMeta, ScoredPoint } from '../../../src/shared/types.js';
import { liveRecall, sampleRecall, setLiveRecallFraction } from '../../../src/workers/service/live-recall.js';

const meta = (id: number): CollectionMeta => ({ id, name: `c${id}`, created_at: '', config: { shard_number: 1 } as CollectionMeta['config'] });

const spec = (filtered: boolean): SearchSpec => ({
  vector: '',
  query: new Float32Array([1, 0]),
  sparse: null,
  k: 3,
  ef: 8,
  exact: false,
  quantization: null,
  scoreThreshold: null,
  filter: filtered ? { must: [{ key: 'g', match: { value: 1 } }] } : null,
  exclude: [],
  only: null,
  withPayload: { kind: 'none' },
  withVector: { kind: 'none' },
} as SearchSpec);

const hits = (...ids: number[]): ScoredPoint[] => ids.map((id, i) => ({ id, version: 0, score: i }) as ScoredPoint);

/** An engine whose exact search answers `fanOut()` (one shard, one search). */
const engine = (fanOut: () => Promise<ScoredPoint[]>): PointEngine => ({ fanOut: async () => [[await fanOut()]] }) as unknown as PointEngine;

const sample = (e: PointEngine, id: number, filtered: boolean, sent: ScoredPoint[]): void =>
  sampleRecall(e, meta(id), { spec: spec(filtered), offset: 0, limit: 3, higherIsBetter: false }, sent);

const figures = (id: number, filtered: boolean) => liveRecall([id]).find((r) => r.collectionId === id && r.filtered === filtered);

async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('live recall sampling', () => {
  it('records recall@k of the answer sent against the exact answer, filtered apart', async () => {
    setLiveRecallFraction(1);
    const exact = engine(async () => hits(1, 2, 3));
    sample(exact, 1, false, hits(1, 2, 9));
    await until(() => figures(1, false)?.samples === 1);
    sample(exact, 1, true, hits(1, 2, 3));
    await until(() => figures(1, true)?.samples === 1);
    expect(figures(1, false)).toMatchObject({ samples: 1, skipped: 0, windowCount: 1 });
    expect(figures(1, false)!.windowSum).toBeCloseTo(2 / 3, 12);
    expect(figures(1, true)).toMatchObject({ samples: 1, skipped: 0, windowSum: 1 });
  });

  it('a check that fails is skipped and counted as such, not recorded', async () => {
    const failing = engine(async () => {
      throw new Error('collection dropped');
    });
    sample(failing, 2, false, hits(1));
    await until(() => figures(2, false)?.skipped === 1);
    expect(figures(2, false)).toMatchObject({ samples: 0, skipped: 1, windowCount: 0 });
  });

  it('a check with no exact answer (no point matched) is skipped, not recorded as a recall', async () => {
    sample(engine(async () => []), 5, true, []);
    await until(() => figures(5, true)?.skipped === 1);
    expect(figures(5, true)).toMatchObject({ samples: 0, skipped: 1, windowCount: 0 });
  });

  it('with the fraction at 0 nothing is picked', async () => {
    setLiveRecallFraction(0);
    sample(engine(async () => hits(1)), 3, false, hits(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(figures(3, false)).toBeUndefined();
    setLiveRecallFraction(1);
  });

  it('samples beyond the few waiting for a check are skipped and counted, per kind', async () => {
    // Checks that never end: the first runs, 8 wait, every later sample finds no room.
    const stuck = engine(() => new Promise<ScoredPoint[]>(() => undefined));
    sample(stuck, 4, false, hits(1));
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 8; i++) sample(stuck, 4, false, hits(1));
    expect(figures(4, false)?.skipped ?? 0).toBe(0);
    for (let i = 0; i < 5; i++) sample(stuck, 4, false, hits(1));
    for (let i = 0; i < 2; i++) sample(stuck, 4, true, hits(1));
    expect(figures(4, false)).toMatchObject({ samples: 0, skipped: 5 });
    expect(figures(4, true)).toMatchObject({ samples: 0, skipped: 2 });
    // A dropped collection's figures are forgotten, skipped ones too.
    expect(liveRecall([]).filter((r) => r.collectionId === 4)).toEqual([]);
  });
});
