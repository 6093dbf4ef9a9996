// The in-process dispatcher keeps what the thread boundary guarantees: errors arrive rebuilt from
// their wire form, results are copies, and a restart over the same data dir loads the shards
// from LMDB as a worker does at start.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessDispatcher } from '../../../src/main/router/in-process-dispatcher.js';
import { doCreateCollection } from '../../../src/main/service/collections.js';
import { doCount, doRetrieve, doUpsert } from '../../../src/workers/service/points.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { startInProcess } from '../../helpers/in-process.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'quiver-inproc-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('InProcessDispatcher', () => {
  it('answers ping per worker, and refuses a worker it does not have', async () => {
    const d = new InProcessDispatcher(3, tempDir());
    try {
      const pings = await Promise.all([0, 1, 2].map((w) => d.call<'ping'>(w, { op: 'ping' })));
      expect(pings.map((p) => p.workerIndex)).toEqual([0, 1, 2]);
      await expect(d.call<'ping'>(3, { op: 'ping' })).rejects.toMatchObject({ code: 'Internal' });
    } finally {
      await d.close();
    }
  });

  it("a handler's QuiverError reaches the caller as a QuiverError with its code and message", async () => {
    const d = new InProcessDispatcher(1, tempDir());
    try {
      const err = await d
        .call<'count'>(0, { op: 'count', collection: 999, shard: 0, filter: null, exact: true })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QuiverError);
      expect(err).toMatchObject({ code: 'NotFound', message: expect.stringContaining('Collection not found') });
    } finally {
      await d.close();
    }
  });

  it('results are copies: changing one does not change the shard', async () => {
    const q = await startInProcess({ workers: 1 });
    try {
      await doCreateCollection(q.engine, 'c', { vectors: { size: 2, distance: 'Dot' }, shard_number: 1 });
      await doUpsert(q.engine, 'c', { points: [{ id: 1, vector: [1, 0], payload: { a: 1 } }] }, true);
      const [first] = await doRetrieve(q.engine, 'c', { ids: [1], with_payload: true });
      (first!.payload as Record<string, unknown>).a = 2;
      const [again] = await doRetrieve(q.engine, 'c', { ids: [1], with_payload: true });
      expect(again!.payload).toEqual({ a: 1 });
    } finally {
      await q.close();
    }
  });

  it('a new engine over the same data dir loads the shards written before', async () => {
    const dataDir = tempDir();
    const first = await startInProcess({ dataDir });
    await doCreateCollection(first.engine, 'kept', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 });
    await doUpsert(first.engine, 'kept', { points: Array.from({ length: 10 }, (_, id) => ({ id, vector: [id, 1] })) }, true);
    await first.close();
    const second = await startInProcess({ dataDir });
    try {
      expect(await doCount(second.engine, 'kept', { exact: true })).toEqual({ count: 10 });
    } finally {
      await second.close();
    }
  });
});
