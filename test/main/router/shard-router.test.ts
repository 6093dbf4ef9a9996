// ShardRouter over copies, against a scripted dispatcher (no workers): where writes and reads go,
// what a write answers, when a copy is reported as diverged, and the barrier a copy being built
// waits on. The real-worker behaviour is in test/main/replicas.workers.test.ts.

import { describe, expect, it } from 'vitest';
import type { ShardDispatcher } from '../../../src/main/router/dispatcher.js';
import { ShardRouter, type DivergedHandler } from '../../../src/shared/shard-router.js';
import { QuiverError } from '../../../src/shared/errors.js';
import type { ReplicaTable } from '../../../src/shared/placement.js';
import type { Op, RequestOf, ResultOf } from '../../../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';

interface Sent {
  worker: number;
  op: Op;
  settle: (outcome: { ok: unknown } | { err: unknown }) => void;
}

/** Records every call; each answers when the test settles it. */
class ScriptedDispatcher implements ShardDispatcher {
  readonly workerCount = 2;
  readonly sent: Sent[] = [];
  call<O extends Op>(worker: number, req: RequestOf<O>): Promise<ResultOf<O>> {
    return new Promise<ResultOf<O>>((res, rej) => {
      this.sent.push({ worker, op: req.op, settle: (o) => ('ok' in o ? res(o.ok as ResultOf<O>) : rej(o.err)) });
    });
  }
  async close(): Promise<void> {}
}

const meta: CollectionMeta = {
  id: 1,
  name: 'c',
  created_at: '',
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: 1, replication_factor: 2, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};

/** `onDiverged`: the router's handler; by default it records each report in `diverged`. */
function setup(states: ('Active' | 'Partial' | 'Dead')[] = ['Active', 'Active'], onDiverged?: DivergedHandler) {
  const d = new ScriptedDispatcher();
  // Collection 1, shard 0: primary on worker 1, copy on worker 0.
  const table: ReplicaTable = { collection: 1, shards: [states.map((state, r) => ({ worker: (1 + r) % 2, state }))] };
  const diverged: { worker: number; why: string }[] = [];
  const router = new ShardRouter(d, () => table, -1, onDiverged ?? ((_m, _s, worker, why) => void diverged.push({ worker, why })));
  return { d, router, table, diverged };
}

const upsert = { op: 'upsert' as const, opId: 1, wait: true, batch: { ids: [1], payloads: [null], vectors: {}, sparse: {} }, condition: { mode: 'upsert' as const, updateFilter: null } };
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('ShardRouter with copies', () => {
  it('sends a write to every copy and answers with the primary once both answered', async () => {
    const { d, router, diverged } = setup();
    let done = false;
    const w = router.call(meta, 0, upsert).then((r) => ((done = true), r));
    expect(d.sent.map((s) => [s.worker, s.op])).toEqual([[0, 'upsert'], [1, 'upsert']]);
    d.sent[1]!.settle({ ok: { applied: 1 } });
    await flush();
    expect(done).toBe(false); // the Active copy has not answered yet
    d.sent[0]!.settle({ ok: { applied: 1 } });
    expect(await w).toEqual({ applied: 1 });
    expect(diverged).toEqual([]);
  });

  it('reports a copy that fails a write the primary applied, and answers with the primary', async () => {
    const { d, router, diverged } = setup();
    const w = router.call(meta, 0, upsert);
    d.sent[0]!.settle({ err: new QuiverError('ShardUnavailable', 'Worker 0 failed') });
    d.sent[1]!.settle({ ok: { applied: 1 } });
    expect(await w).toEqual({ applied: 1 });
    expect(diverged).toHaveLength(1);
    expect(diverged[0]!.worker).toBe(0);
    expect(diverged[0]!.why).toContain('Worker 0 failed');
  });

  it('a write that finds a copy diverged answers only once that copy is out of reads (the promise onDiverged returns)', async () => {
    let outOfReads!: () => void;
    const { d, router } = setup(undefined, () => new Promise<void>((res) => (outOfReads = res)));
    let done = false;
    const w = router.call(meta, 0, upsert).then(() => (done = true));
    d.sent[0]!.settle({ err: new QuiverError('Internal', 'disk full') });
    d.sent[1]!.settle({ ok: { applied: 1 } });
    await flush();
    expect(done).toBe(false);
    outOfReads();
    await w;
    expect(done).toBe(true);
  });

  it('the same error on every copy is no divergence: the caller gets it', async () => {
    const { d, router, diverged } = setup();
    const w = router.call(meta, 0, upsert);
    for (const s of d.sent) s.settle({ err: QuiverError.notFound('No point with id 1 found') });
    await expect(w).rejects.toMatchObject({ code: 'NotFound' });
    expect(diverged).toEqual([]);
  });

  it('a Partial copy gets the write but is not waited for; a Dead one gets nothing', async () => {
    const partial = setup(['Active', 'Partial']);
    const w = partial.router.call(meta, 0, upsert);
    expect(partial.d.sent.map((s) => s.worker)).toEqual([0, 1]);
    partial.d.sent[1]!.settle({ ok: { applied: 1 } });
    expect(await w).toEqual({ applied: 1 });
    // Its answer, when it comes, is still checked: a replayed write it skips (already loaded in a
    // newer version) is fine, a failure is not.
    partial.d.sent[0]!.settle({ ok: { applied: 0 } });
    await flush();
    expect(partial.diverged).toEqual([]);
    const w2 = partial.router.call(meta, 0, upsert);
    partial.d.sent[3]!.settle({ ok: { applied: 1 } });
    await w2;
    partial.d.sent[2]!.settle({ err: new Error('held write failed') });
    await flush();
    expect(partial.diverged.map((x) => x.worker)).toEqual([0]);

    const dead = setup(['Active', 'Dead']);
    void dead.router.call(meta, 0, upsert);
    expect(dead.d.sent.map((s) => s.worker)).toEqual([1]);
  });

  it('reads go to one Active copy: the least loaded, ties in turn; never a Partial one', async () => {
    const { d, router } = setup();
    const count = { op: 'count' as const, filter: null, exact: true };
    void router.call(meta, 0, count);
    void router.call(meta, 0, count);
    // Both idle at first: taken in turn; then one each in flight, a tie again.
    expect(d.sent.map((s) => s.worker).sort()).toEqual([0, 1]);
    d.sent[0]!.settle({ ok: 5 });
    await flush();
    void router.call(meta, 0, count);
    // The worker whose read answered is the less loaded one.
    expect(d.sent[2]!.worker).toBe(d.sent[0]!.worker);

    const building = setup(['Active', 'Partial']);
    for (let i = 0; i < 4; i++) void building.router.call(meta, 0, count);
    expect(building.d.sent.map((s) => s.worker)).toEqual([1, 1, 1, 1]);
  });

  it('a read that meets a dead worker is retried once on another Active copy', async () => {
    const { d, router } = setup();
    const r = router.call(meta, 0, { op: 'count', filter: null, exact: true });
    const first = d.sent[0]!;
    first.settle({ err: new QuiverError('ShardUnavailable', `Worker ${first.worker} failed`) });
    await flush();
    expect(d.sent).toHaveLength(2);
    expect(d.sent[1]!.worker).toBe(1 - first.worker);
    d.sent[1]!.settle({ ok: 7 });
    expect(await r).toBe(7);
  });

  it('writesSettled waits for the writes in flight on the primary, not for later ones', async () => {
    const { d, router } = setup(['Active']);
    void router.call(meta, 0, upsert);
    let settled = false;
    const barrier = router.writesSettled(meta, 0).then(() => (settled = true));
    void router.call(meta, 0, upsert);
    d.sent[0]!.settle({ ok: { applied: 1 } });
    await barrier;
    expect(settled).toBe(true);
    expect(d.sent).toHaveLength(2);
  });

  it('writesApplied also waits for the answer of a copy being built, which the write itself did not wait for', async () => {
    const { d, router } = setup(['Active', 'Partial']);
    // Sent to the copy (worker 0) first, then the primary (worker 1).
    const w = router.call(meta, 0, upsert);
    let applied = false;
    const barrier = router.writesApplied(meta, 0).then(() => (applied = true));
    d.sent[1]!.settle({ ok: { applied: 1 } });
    expect(await w).toEqual({ applied: 1 });
    await flush();
    expect(applied).toBe(false);
    d.sent[0]!.settle({ ok: { applied: 1 } });
    await barrier;
    expect(applied).toBe(true);
  });

  it('a router that prefers a worker reads its Active copy there, else the least loaded one', async () => {
    const d = new ScriptedDispatcher();
    const table: ReplicaTable = { collection: 1, shards: [[{ worker: 1, state: 'Active' }, { worker: 0, state: 'Active' }]] };
    const router = new ShardRouter(d, () => table, 0);
    const count = { op: 'count' as const, filter: null, exact: true };
    for (let i = 0; i < 3; i++) void router.call(meta, 0, count);
    expect(d.sent.map((s) => s.worker)).toEqual([0, 0, 0]);
    table.shards[0]![1]!.state = 'Partial';
    for (let i = 0; i < 2; i++) void router.call(meta, 0, count);
    expect(d.sent.slice(3).map((s) => s.worker)).toEqual([1, 1]);
    // Its own copy failing a read: the read is retried on the other copy.
    table.shards[0]![1]!.state = 'Active';
    const r = router.call(meta, 0, count);
    d.sent[5]!.settle({ err: new QuiverError('ShardUnavailable', 'Shard 1/0: its read copy on worker 0 was dropped') });
    await flush();
    expect(d.sent[6]!.worker).toBe(1);
    d.sent[6]!.settle({ ok: 3 });
    expect(await r).toBe(3);
  });

  it('counts requests per worker and op', async () => {
    const { router } = setup();
    void router.call(meta, 0, upsert);
    void router.call(meta, 0, { op: 'count', filter: null, exact: true });
    const counts = router.sentCounts();
    expect(counts.filter((c) => c.op === 'upsert').map((c) => [c.worker, c.count]).sort()).toEqual([[0, 1], [1, 1]]);
    expect(counts.filter((c) => c.op === 'count').reduce((n, c) => n + c.count, 0)).toBe(1);
  });

  it('without a table of its own, a collection gets every configured copy, Active', () => {
    const router = new ShardRouter(new ScriptedDispatcher());
    expect(router.table(meta)).toEqual({ collection: 1, shards: [[{ worker: 1, state: 'Active' }, { worker: 0, state: 'Active' }]] });
  });
});
