// The ids-or-filter selection of writes and the by-ids read, over a real ShardRouter whose
// dispatcher is a stub: placement is the product's, no worker is started.

import { describe, expect, it } from 'vitest';
import { ShardRouter } from '../../../src/shared/shard-router.js';
import type { ShardDispatcher } from '../../../src/main/router/dispatcher.js';
import { retrieveByIds } from '../../../src/workers/service/retrieve.js';
import { perSelectedShard, pointSelection, type PointSelection } from '../../../src/workers/service/selection.js';
import type { Op, RequestOf, ResultOf } from '../../../src/shared/protocol.js';
import { shardOf } from '../../../src/shared/placement.js';
import { DEFAULT_HNSW, type CollectionMeta, type PointId, type PointRecord } from '../../../src/shared/types.js';

const SHARDS = 3;
const meta: CollectionMeta = {
  id: 7,
  name: 'c',
  created_at: '2026-01-01T00:00:00Z',
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: SHARDS, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};

/** Answers `retrieve` from a fixed set of points, each only from the shard it lives in. */
function storeDispatcher(points: PointId[]): ShardDispatcher & { requests: RequestOf<Op>[] } {
  const requests: RequestOf<Op>[] = [];
  return {
    workerCount: 1,
    requests,
    async call<O extends Op>(_worker: number, req: RequestOf<O>): Promise<ResultOf<O>> {
      requests.push(req);
      if (req.op !== 'retrieve') throw new Error(`unexpected op ${req.op}`);
      const r = req as RequestOf<'retrieve'>;
      const found: PointRecord[] = r.ids.filter((id) => points.includes(id) && shardOf(id, SHARDS) === r.shard).map((id) => ({ id, payload: null }));
      return found as ResultOf<O>;
    },
    async close() {},
  };
}

describe('pointSelection', () => {
  it('takes ids or a filter, exactly one', () => {
    expect(pointSelection({ points: [1, 'a3c5d1e2-0000-4000-8000-000000000000'] })).toEqual({
      ids: [1, 'a3c5d1e2-0000-4000-8000-000000000000'],
      filter: null,
    });
    const byFilter = pointSelection({ filter: { must: [{ key: 'k', match: { value: 1 } }] } });
    expect(byFilter.ids).toBeNull();
    expect(byFilter.filter).not.toBeNull();
    expect(() => pointSelection({})).toThrow('Either `points` or `filter` is required, not both');
    expect(() => pointSelection({ points: [1], filter: { must: [{ has_id: [1] }] } })).toThrow('Either `points` or `filter` is required, not both');
  });

  it('refuses shard_key, which Quiver does not offer yet', () => {
    expect(() => pointSelection({ points: [1], shard_key: 'a' })).toThrow('shard_key is not supported by Quiver yet');
  });
});

describe('perSelectedShard', () => {
  const router = new ShardRouter(storeDispatcher([]));

  it('sends named ids only to the shards holding them, each its own ids in order', async () => {
    const ids: PointId[] = Array.from({ length: 20 }, (_, i) => i + 1);
    const seen: { shard: number; target: PointSelection }[] = [];
    await Promise.all(perSelectedShard(router, meta, { ids, filter: null }, async (shard, target) => void seen.push({ shard, target })));
    expect(seen.every(({ target }) => target.filter === null)).toBe(true);
    expect(seen.flatMap(({ target }) => target.ids!).sort((a, b) => Number(a) - Number(b))).toEqual(ids);
    for (const { shard, target } of seen) {
      expect(target.ids!.every((id) => shardOf(id, SHARDS) === shard)).toBe(true);
      expect(target.ids).toEqual(ids.filter((id) => shardOf(id, SHARDS) === shard));
    }
    expect(new Set(seen.map((s) => s.shard)).size).toBe(seen.length);
  });

  it('sends a filter to every shard, with no ids', async () => {
    const filter = { must: [{ key: 'k', match: { value: 'x' } }] };
    const calls = await Promise.all(perSelectedShard(router, meta, { ids: null, filter }, async (shard, target) => ({ shard, target })));
    expect(calls).toEqual(Array.from({ length: SHARDS }, (_, shard) => ({ shard, target: { ids: null, filter } })));
  });
});

describe('retrieveByIds', () => {
  it('answers in the order asked, each id once, unknown ids left out', async () => {
    const dispatcher = storeDispatcher([1, 2, 3, 5, 8, 13]);
    const router = new ShardRouter(dispatcher);
    const recs = await retrieveByIds(router, meta, [13, 4, 1, 13, 8, 2], { kind: 'none' }, { kind: 'none' });
    expect(recs.map((r) => r.id)).toEqual([13, 1, 8, 2]);
    // One request per shard holding some of the ids, none of them repeated.
    const asked = dispatcher.requests.flatMap((r) => (r as RequestOf<'retrieve'>).ids);
    expect(asked.sort((a, b) => Number(a) - Number(b))).toEqual([1, 2, 4, 8, 13]);
    expect(dispatcher.requests.every((r) => 'collection' in r && r.collection === meta.id)).toBe(true);
  });
});
