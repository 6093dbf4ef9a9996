// The main thread's point engines, one per mode, each over a recording dispatcher and fakes of
// the write log and of ClusterShards (no workers, no NATS, no peers): where call and fanOut go in
// each mode, what operationId answers, and the log-end view only the cluster mode has.

import { describe, expect, it } from 'vitest';
import type { ShardDispatcher } from '../../../src/main/router/dispatcher.js';
import type { ClusterShards, LocalShards } from '../../../src/shared/cluster/cluster-shards.js';
import type { WriteLog } from '../../../src/shared/cluster/logged-writes.js';
import type { LiveCollections } from '../../../src/main/engine/catalog.js';
import { ClusterPointEngine, localShardsOf } from '../../../src/main/engine/cluster-point-engine.js';
import { LocalPointEngine, LoggedPointEngine, type MainPointEngine, type PointEngineParts } from '../../../src/main/engine/point-engines.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { OpIdCounter } from '../../../src/shared/op-ids.js';
import { workerOf } from '../../../src/shared/placement.js';
import type { Op, RequestOf, ResultOf } from '../../../src/shared/protocol.js';
import { ShardRouter, type ShardCall, type ShardOp } from '../../../src/shared/shard-router.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';

/** Records each request; answers `<op>@<worker>` (what the answer holds does not matter here). */
class RecordingDispatcher implements ShardDispatcher {
  readonly workerCount = 2;
  readonly sent: { worker: number; req: RequestOf<Op> }[] = [];
  call<O extends Op>(worker: number, req: RequestOf<O>): Promise<ResultOf<O>> {
    this.sent.push({ worker, req });
    return Promise.resolve(`${req.op}@${worker}` as unknown as ResultOf<O>);
  }
  async close(): Promise<void> {}
}

const meta: CollectionMeta = {
  id: 7,
  name: 'c',
  created_at: '',
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: 2, replication_factor: 1, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};

/** Collection `c` (id 7), live once `ready`. */
class FakeCollections implements LiveCollections {
  ready = true;
  requireReady(): void {
    if (!this.ready) throw QuiverError.precondition('not ready');
  }
  collection(name: string): CollectionMeta {
    if (name !== meta.name) throw QuiverError.collectionNotFound(name);
    return meta;
  }
  byId(id: number) {
    return id === meta.id ? { ...meta } : undefined;
  }
}

function setup() {
  const d = new RecordingDispatcher();
  const collections = new FakeCollections();
  const router = new ShardRouter(d);
  const local = localShardsOf(collections, router);
  const parts: PointEngineParts = { collections, router, opIds: new OpIdCounter(), local };
  return { d, collections, router, local, parts };
}

const count: ShardCall<'count'> = { op: 'count', filter: null, exact: false };
const upsert: ShardCall<'upsert'> = { op: 'upsert', opId: 1, wait: true, batch: { ids: [1], payloads: [null], vectors: {}, sparse: {} }, condition: { mode: 'upsert', updateFilter: null } };
const primary = (shard: number) => workerOf(meta.id, shard, 2);

describe('LocalPointEngine', () => {
  it('sends call and fanOut, writes too, through the router to the shards\' workers', async () => {
    const { d, parts } = setup();
    const e = new LocalPointEngine(parts);
    expect(await e.call(meta, 1, count)).toBe(`count@${primary(1)}`);
    expect(await e.call(meta, 0, upsert)).toBe(`upsert@${primary(0)}`);
    expect(await e.fanOut(meta, count)).toEqual([`count@${primary(0)}`, `count@${primary(1)}`]);
    expect(d.sent.map((s) => [s.worker, s.req.op, 'shard' in s.req ? s.req.shard : null, 'collection' in s.req ? s.req.collection : null])).toEqual([
      [primary(1), 'count', 1, 7],
      [primary(0), 'upsert', 0, 7],
      [primary(0), 'count', 0, 7],
      [primary(1), 'count', 1, 7],
    ]);
  });

  it('answers the operation id it was given, takes ids from the shared counter, and has no log-end view', () => {
    const { parts, router } = setup();
    const e: MainPointEngine = new LocalPointEngine(parts);
    expect(e.operationId(41)).toBe(41);
    const a = e.nextOpId(meta.id);
    expect(e.nextOpId(meta.id)).toBeGreaterThan(a);
    expect(e.atLogEnd).toBeUndefined();
    expect(e.partition(meta, [1, 2, 3, 4])).toEqual(router.partition(meta, [1, 2, 3, 4]));
  });

  it('asks the catalog for readiness and collections', () => {
    const { parts, collections } = setup();
    const e = new LocalPointEngine(parts);
    expect(e.collection('c')).toBe(meta);
    expect(() => e.collection('other')).toThrow(QuiverError);
    collections.ready = false;
    expect(() => e.requireReady()).toThrow(QuiverError);
  });
});

/** A write log that takes upserts only: each waits for seq 42 to be applied, then answers what that gave. */
class FakeLog implements Pick<WriteLog, 'write' | 'operationId'> {
  readonly written: { shard: number; op: string }[] = [];
  write(m: CollectionMeta, shard: number, req: ShardCall<ShardOp>, awaitApplied: (seq: number, timeoutMs: number) => Promise<{ result: unknown }>): Promise<unknown> | null {
    if (req.op !== 'upsert' || m.id !== meta.id) return null;
    this.written.push({ shard, op: req.op });
    return awaitApplied(42, 1000).then((applied) => ({ logged: applied }));
  }
  operationId(opId: number): number {
    return opId + 1000;
  }
}

describe('LoggedPointEngine', () => {
  it('sends a write op through the write log, which waits for the shard primary to apply it', async () => {
    const { d, parts } = setup();
    const log = new FakeLog();
    const e = new LoggedPointEngine(parts, log);
    expect(await e.call(meta, 1, upsert)).toEqual({ logged: `awaitApplied@${primary(1)}` });
    expect(log.written).toEqual([{ shard: 1, op: 'upsert' }]);
    // The worker never saw the upsert itself: only the wait for its log sequence.
    expect(d.sent.map((s) => s.req)).toEqual([{ op: 'awaitApplied', seq: 42, timeoutMs: 1000, collection: 7, shard: 1 }]);
  });

  it('sends what the log does not take, and fanOut, through the router', async () => {
    const { d, parts } = setup();
    const log = new FakeLog();
    const e = new LoggedPointEngine(parts, log);
    expect(await e.call(meta, 0, count)).toBe(`count@${primary(0)}`);
    expect(await e.fanOut(meta, count)).toEqual([`count@${primary(0)}`, `count@${primary(1)}`]);
    expect(log.written).toEqual([]);
    expect(d.sent.map((s) => s.req.op)).toEqual(['count', 'count', 'count']);
  });

  it("answers the log's operation id and has no log-end view", () => {
    const e: MainPointEngine = new LoggedPointEngine(setup().parts, new FakeLog());
    expect(e.operationId(5)).toBe(1005);
    expect(e.atLogEnd).toBeUndefined();
  });
});

/** ClusterShards' call and fanOut, recorded; each answers where it was asked to read. */
function fakeShards() {
  const calls: { kind: 'call' | 'fanOut'; shard: number | null; op: string; local: LocalShards; atLogEnd: boolean }[] = [];
  const shards: Pick<ClusterShards, 'call' | 'fanOut'> = {
    call: <O extends ShardOp>(_m: CollectionMeta, shard: number, req: ShardCall<O>, local: LocalShards, atLogEnd: boolean): Promise<ResultOf<O>> => {
      calls.push({ kind: 'call', shard, op: req.op, local, atLogEnd });
      return Promise.resolve(`cluster ${req.op} ${shard}${atLogEnd ? ' at log end' : ''}` as unknown as ResultOf<O>);
    },
    fanOut: <O extends ShardOp>(m: CollectionMeta, req: ShardCall<O>, local: LocalShards, atLogEnd: boolean): Promise<ResultOf<O>[]> => {
      calls.push({ kind: 'fanOut', shard: null, op: req.op, local, atLogEnd });
      return Promise.resolve(Array.from({ length: m.config.shard_number }, (_, s) => `cluster ${req.op} ${s}` as unknown as ResultOf<O>));
    },
  };
  return { shards, calls };
}

describe('ClusterPointEngine', () => {
  it("sends call and fanOut, writes too, to ClusterShards with this node's replicas, never to the router", async () => {
    const { d, parts, local } = setup();
    const { shards, calls } = fakeShards();
    const e = new ClusterPointEngine(parts, shards, new FakeLog());
    expect(await e.call(meta, 1, count)).toBe('cluster count 1');
    expect(await e.call(meta, 0, upsert)).toBe('cluster upsert 0');
    expect(await e.fanOut(meta, count)).toEqual(['cluster count 0', 'cluster count 1']);
    expect(calls.map((c) => [c.kind, c.shard, c.op, c.atLogEnd])).toEqual([
      ['call', 1, 'count', false],
      ['call', 0, 'upsert', false],
      ['fanOut', null, 'count', false],
    ]);
    expect(calls.every((c) => c.local === local)).toBe(true);
    expect(d.sent).toEqual([]);
  });

  it('gives a view reading at the log end, which has no further view, and answers the log operation id', async () => {
    const { parts } = setup();
    const { shards, calls } = fakeShards();
    const e = new ClusterPointEngine(parts, shards, new FakeLog());
    const view = e.atLogEnd?.();
    expect(view).toBeDefined();
    expect(await view!.call(meta, 1, count)).toBe('cluster count 1 at log end');
    await view!.fanOut(meta, count);
    expect(calls.map((c) => c.atLogEnd)).toEqual([true, true]);
    expect(view!.atLogEnd).toBeUndefined();
    expect(view!.collection('c')).toBe(meta);
    expect(e.operationId(5)).toBe(1005);
    expect(view!.operationId?.(6)).toBe(1006);
  });
});

describe("localShardsOf (this node's replicas, as the internal port serves them)", () => {
  it("runs a call by collection id on the shard's primary worker here", async () => {
    const { d, local } = setup();
    expect(await local.call(7, 1, count)).toBe(`count@${primary(1)}`);
    expect(await local.awaitApplied(7, 0, 9, 500)).toBe(`awaitApplied@${primary(0)}`);
    expect(d.sent.map((s) => [s.worker, s.req.op])).toEqual([
      [primary(1), 'count'],
      [primary(0), 'awaitApplied'],
    ]);
  });

  it('refuses with a retryable ShardUnavailable while loading, or for a collection it does not hold', async () => {
    const { d, local, collections } = setup();
    await expect(local.call(8, 0, count)).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Collection 8 is not open on this node' });
    collections.ready = false;
    await expect(local.call(7, 0, count)).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'This node is still loading its shards' });
    expect(d.sent).toEqual([]);
  });
});
