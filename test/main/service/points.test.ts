// The point services in process (InProcessDispatcher): upsert, retrieve, scroll, count and
// delete, over two workers and two shards, with the errors the service raises itself.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doCreateCollection } from '../../../src/main/service/collections.js';
import { doCount, doDeletePoints, doGetPoint, doRetrieve, doScroll, doUpsert } from '../../../src/workers/service/points.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

let q: InProcessQuiver;
const C = 'pts';

beforeAll(async () => {
  q = await startInProcess();
  await doCreateCollection(q.engine, C, { vectors: { size: 3, distance: 'Dot' }, shard_number: 2 });
  const points = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, vector: [i, 1, 0], payload: { n: i + 1, even: (i + 1) % 2 === 0 } }));
  expect(await doUpsert(q.engine, C, { points }, true)).toMatchObject({ status: 'completed' });
});
afterAll(async () => {
  await q.close();
});

describe('point services, in process', () => {
  it('upsert without wait is acknowledged, with a rising operation id', async () => {
    const a = await doUpsert(q.engine, C, { points: [{ id: 100, vector: [0, 0, 1] }] }, true);
    const b = await doUpsert(q.engine, C, { points: [{ id: 100, vector: [0, 0, 2] }] }, false);
    expect(b.status).toBe('acknowledged');
    expect(b.operation_id).toBeGreaterThan(a.operation_id!);
    await doDeletePoints(q.engine, C, { points: [100] }, true);
  });

  it('retrieve answers the ids found, with payload and vector as asked', async () => {
    const got = await doRetrieve(q.engine, C, { ids: [3, 1, 999], with_payload: true, with_vector: true });
    expect(got.map((p) => p.id).sort()).toEqual([1, 3]);
    const one = got.find((p) => p.id === 3)!;
    expect(one.payload).toEqual({ n: 3, even: false });
    // As the shards answer it: float32 (REST writes it at its shortest, gRPC sends the floats).
    expect(one.vector).toEqual(Float32Array.of(2, 1, 0));
    const bare = await doRetrieve(q.engine, C, { ids: [1], with_payload: false });
    expect(bare[0]!.payload).toBeUndefined();
  });

  it('get point: 404 for an absent id, with the worker error rebuilt as a QuiverError', async () => {
    expect((await doGetPoint(q.engine, C, '5')).id).toBe(5);
    const err = await doGetPoint(q.engine, C, '12345').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuiverError);
    expect((err as QuiverError).code).toBe('NotFound');
  });

  it('scroll pages in id order across shards, with a filter', async () => {
    const first = await doScroll(q.engine, C, { limit: 4, filter: { must: [{ key: 'even', match: { value: true } }] } });
    expect(first.points.map((p) => p.id)).toEqual([2, 4, 6, 8]);
    expect(first.next_page_offset).toBe(10);
    const second = await doScroll(q.engine, C, { limit: 100, offset: first.next_page_offset!, filter: { must: [{ key: 'even', match: { value: true } }] } });
    expect(second.points.map((p) => p.id)).toEqual([10, 12, 14, 16, 18, 20]);
    expect(second.next_page_offset).toBeNull();
  });

  it('count, exact and with a range filter', async () => {
    expect(await doCount(q.engine, C, { exact: true })).toEqual({ count: 20 });
    expect(await doCount(q.engine, C, { exact: true, filter: { must: [{ key: 'n', range: { gt: 15 } }] } })).toEqual({ count: 5 });
  });

  it('delete by filter removes the matching points on every shard', async () => {
    await doUpsert(q.engine, C, { points: [201, 202, 203].map((id) => ({ id, vector: [1, 1, 1], payload: { tmp: true } })) }, true);
    expect((await doCount(q.engine, C, { exact: true })).count).toBe(23);
    await doDeletePoints(q.engine, C, { filter: { must: [{ key: 'tmp', match: { value: true } }] } }, true);
    expect((await doCount(q.engine, C, { exact: true })).count).toBe(20);
  });

  it('an unknown collection is NotFound before any worker is asked', async () => {
    await expect(doCount(q.engine, 'nope', { exact: true })).rejects.toMatchObject({ code: 'NotFound' });
  });
});
