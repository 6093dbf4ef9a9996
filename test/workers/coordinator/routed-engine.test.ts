// RoutedEngine (src/workers/coordinator/worker-engine.ts) over a real MessageChannel: the engine
// of a write to a collection that keeps copies sends every shard call, reads and writes alike and
// in the order made, to the main thread's router, names the collection by name and id, rebuilds
// the router's errors, and answers 503 once the channel is gone; a WorkerEngine whose catalog
// already shows copies sends its writes there too.

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedPort } from '../../../src/shared/batched-port.js';
import type { RoutedCall } from '../../../src/shared/coordination.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { OpIdCounter } from '../../../src/shared/op-ids.js';
import type { WorkerReply } from '../../../src/shared/protocol.js';
import { ROUTED_CALL_WIRE } from '../../../src/shared/routed-calls.js';
import type { CollectionMeta } from '../../../src/shared/types.js';
import { CatalogMirror } from '../../../src/workers/coordinator/catalog-mirror.js';
import { PeerDispatcher } from '../../../src/workers/coordinator/peers.js';
import { RoutedEngine, WorkerEngine } from '../../../src/workers/coordinator/worker-engine.js';

const open: MessagePort[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
});

const META = { id: 7, name: 'copies', config: { shard_number: 2 } } as unknown as CollectionMeta;

/** A RoutedEngine whose router (the main thread's side) records each call and answers with `answer`. */
/** The calls port of `routed()`, for a WorkerEngine of its own. */
function routerPort(seen: RoutedCall[]): BatchedPort<RoutedCall, WorkerReply> {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  new BatchedPort<RoutedCall, WorkerReply>(port1, {
    wire: ROUTED_CALL_WIRE,
    serve: async (c) => {
      seen.push(c);
      return { ok: true, result: { routed: c.req.op } } as unknown as WorkerReply;
    },
  });
  return new BatchedPort<RoutedCall, WorkerReply>(port2, { wire: ROUTED_CALL_WIRE });
}

function routed(answer: (c: RoutedCall) => WorkerReply = (c) => ({ ok: true, result: { shard: c.shard, op: c.req.op } }) as unknown as WorkerReply) {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const seen: RoutedCall[] = [];
  new BatchedPort<RoutedCall, WorkerReply>(port1, {
    wire: ROUTED_CALL_WIRE,
    serve: async (c) => {
      seen.push(c);
      return answer(c);
    },
  });
  const calls = new BatchedPort<RoutedCall, WorkerReply>(port2, { wire: ROUTED_CALL_WIRE });
  const base = new WorkerEngine(0, new CatalogMirror(), new PeerDispatcher(0, 1, () => Promise.reject(new Error('no shard is asked directly'))), new OpIdCounter());
  let port: BatchedPort<RoutedCall, WorkerReply> | null = calls;
  return { engine: new RoutedEngine(base, () => port), seen, drop: () => (port = null) };
}

describe('RoutedEngine', () => {
  it('sends reads and writes to the router in the order they are made, named by collection and id', async () => {
    const { engine, seen } = routed();
    const answers = await Promise.all([
      engine.call(META, 1, { op: 'retrieve', ids: [1], withPayload: true, withVector: false } as never),
      engine.call(META, 0, { op: 'delete', ids: [2], opId: 1, wait: true } as never),
    ]);
    expect(answers).toEqual([
      { shard: 1, op: 'retrieve' },
      { shard: 0, op: 'delete' },
    ]);
    expect(seen.map((c) => [c.collection, c.collectionId, c.shard, c.req.op])).toEqual([
      ['copies', 7, 1, 'retrieve'],
      ['copies', 7, 0, 'delete'],
    ]);
  });

  it('fans out through the router too, one call per shard, in shard order', async () => {
    const { engine, seen } = routed();
    const parts = await engine.fanOut(META, { op: 'count', filter: null, exact: true } as never);
    expect(parts).toEqual([
      { shard: 0, op: 'count' },
      { shard: 1, op: 'count' },
    ]);
    expect(seen.map((c) => c.shard)).toEqual([0, 1]);
  });

  it("rebuilds the router's error, and answers 503 when the router cannot be reached", async () => {
    const { engine, drop } = routed(() => ({ ok: false, error: QuiverError.collectionNotFound('copies').toWire() }));
    await expect(engine.call(META, 0, { op: 'delete', ids: [1], opId: 1, wait: true } as never)).rejects.toMatchObject({ code: 'NotFound' });
    drop();
    await expect(engine.call(META, 0, { op: 'delete', ids: [1], opId: 1, wait: true } as never)).rejects.toMatchObject({ code: 'ShardUnavailable' });
  });

  it("a WorkerEngine whose catalog shows copies sends writes (not reads) to the router, even unmarked", async () => {
    const seen: RoutedCall[] = [];
    const port = routerPort(seen);
    const catalog = new CatalogMirror();
    catalog.apply({
      version: 1,
      ready: true,
      collections: { copies: { entry: { ...META, created_at: '' } as never, replicas: { collection: 7, shards: [[{ worker: 0, state: 'Active' }, { worker: 1, state: 'Active' }]] } } },
    });
    const served: string[] = [];
    const peers = new PeerDispatcher(0, 1, async (req) => {
      served.push(req.op);
      return { ok: true, result: { here: req.op } } as unknown as WorkerReply;
    });
    const engine = new WorkerEngine(0, catalog, peers, new OpIdCounter(), () => port);
    const meta = { ...META, config: { shard_number: 1 } } as unknown as CollectionMeta;
    expect(await engine.call(meta, 0, { op: 'delete', ids: [1], opId: 1, wait: true } as never)).toEqual({ routed: 'delete' });
    expect(await engine.call(meta, 0, { op: 'count', filter: null, exact: true } as never)).toEqual({ here: 'count' });
    expect(seen.map((c) => c.req.op)).toEqual(['delete']);
    expect(served).toEqual(['count']);
  });
});
