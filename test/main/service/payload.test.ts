// The payload services in process (InProcessDispatcher): set (merged, at a nested key),
// overwrite, delete keys and clear, by ids and by filter, and the selection rules.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../../../src/workers/service/payload.js';
import { doCreateCollection } from '../../../src/main/service/collections.js';
import { doRetrieve, doUpsert } from '../../../src/workers/service/points.js';
import { startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

let q: InProcessQuiver;
const C = 'pay';

async function payloadOf(id: number): Promise<unknown> {
  const [p] = await doRetrieve(q.engine, C, { ids: [id], with_payload: true });
  return p?.payload;
}

beforeAll(async () => {
  q = await startInProcess();
  await doCreateCollection(q.engine, C, { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 });
  const points = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, vector: [1, i], payload: { n: i + 1, group: i < 5 ? 'a' : 'b' } }));
  await doUpsert(q.engine, C, { points }, true);
});
afterAll(async () => {
  await q.close();
});

describe('payload services, in process', () => {
  it('set merges into the payload of the points named, and only theirs', async () => {
    const res = await doSetPayload(q.engine, C, { payload: { color: 'red' }, points: [1, 6] }, true);
    expect(res.status).toBe('completed');
    expect(await payloadOf(1)).toEqual({ n: 1, group: 'a', color: 'red' });
    expect(await payloadOf(6)).toEqual({ n: 6, group: 'b', color: 'red' });
    expect(await payloadOf(2)).toEqual({ n: 2, group: 'a' });
  });

  it('set at a key writes into the nested object', async () => {
    await doSetPayload(q.engine, C, { payload: { x: 1 }, points: [2], key: 'meta.inner' }, true);
    expect(await payloadOf(2)).toEqual({ n: 2, group: 'a', meta: { inner: { x: 1 } } });
  });

  it('set by filter reaches every shard', async () => {
    await doSetPayload(q.engine, C, { payload: { seen: true }, filter: { must: [{ key: 'group', match: { value: 'b' } }] } }, true);
    const got = await doRetrieve(q.engine, C, { ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], with_payload: true });
    const seen = got.filter((p) => (p.payload as Record<string, unknown>).seen === true).map((p) => p.id);
    expect(seen.sort((a, b) => Number(a) - Number(b))).toEqual([6, 7, 8, 9, 10]);
  });

  it('overwrite replaces the whole payload; a key is refused', async () => {
    await doOverwritePayload(q.engine, C, { payload: { only: 1 }, points: [3] }, true);
    expect(await payloadOf(3)).toEqual({ only: 1 });
    await expect(doOverwritePayload(q.engine, C, { payload: { a: 1 }, points: [3], key: 'x' }, true)).rejects.toMatchObject({ code: 'BadInput' });
  });

  it('delete removes the keys named, clear removes everything', async () => {
    await doDeletePayload(q.engine, C, { keys: ['group', 'missing'], points: [4] }, true);
    expect(await payloadOf(4)).toEqual({ n: 4 });
    await doClearPayload(q.engine, C, { points: [5] }, true);
    expect(await payloadOf(5)).toEqual({});
  });

  it('points and filter: exactly one; a named point must exist', async () => {
    await expect(doClearPayload(q.engine, C, {}, true)).rejects.toMatchObject({ code: 'BadInput' });
    await expect(doClearPayload(q.engine, C, { points: [1], filter: { must: [] } }, true)).rejects.toMatchObject({ code: 'BadInput' });
    await expect(doSetPayload(q.engine, C, { payload: { a: 1 }, points: [424242] }, true)).rejects.toMatchObject({ code: 'NotFound' });
    expect(await payloadOf(1)).toEqual({ n: 1, group: 'a', color: 'red' });
  });

  it('a bad key path is refused before anything is written', async () => {
    await expect(doDeletePayload(q.engine, C, { keys: ['a..b'], points: [1] }, true)).rejects.toMatchObject({ code: 'BadInput' });
  });
});
