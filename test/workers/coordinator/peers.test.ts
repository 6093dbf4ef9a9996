// PeerDispatcher (src/workers/coordinator/peers.ts) over real MessageChannels: a coordinating
// worker's calls to a sibling's shards, answered over the direct channel, and the 503s its
// callers get when that sibling's thread ends, is replaced, or the server closes.

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { PeerDispatcher, type ServeShard } from '../../../src/workers/coordinator/peers.js';
import type { ShardRequest, WorkerReply } from '../../../src/shared/protocol.js';

const open: MessagePort[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
});

/** A shard owner that answers every request with where it was served and what it held. */
const owner =
  (worker: number): ServeShard =>
  async (req: ShardRequest) =>
    ({ ok: true, result: { worker, req } }) as unknown as WorkerReply;

/** Workers 0 and 1 of 2, joined by one channel (as the main thread joins them). */
function pair(serve1: ServeShard = owner(1)): { d0: PeerDispatcher; d1: PeerDispatcher; port0: MessagePort; port1: MessagePort } {
  const { port1: port0, port2: port1 } = new MessageChannel();
  open.push(port0, port1);
  const d0 = new PeerDispatcher(0, 2, owner(0));
  const d1 = new PeerDispatcher(1, 2, serve1);
  d0.attach([{ worker: 1, port: port0 }]);
  d1.attach([{ worker: 0, port: port1 }]);
  return { d0, d1, port0, port1 };
}

const never: ServeShard = () => new Promise<WorkerReply>(() => undefined);

describe('PeerDispatcher', () => {
  it("calls a sibling's shards over the channel, its own in-process, and both siblings' at once", async () => {
    const { d0, d1 } = pair();
    expect(await d0.call(1, { op: 'ping' })).toEqual({ worker: 1, req: { op: 'ping' } });
    expect(await d0.call(0, { op: 'ping' })).toEqual({ worker: 0, req: { op: 'ping' } });
    const both = await Promise.all([d0.call(1, { op: 'memory' }), d1.call(0, { op: 'ping' }), d1.call(0, { op: 'memory' })]);
    expect(both).toEqual([
      { worker: 1, req: { op: 'memory' } },
      { worker: 0, req: { op: 'ping' } },
      { worker: 0, req: { op: 'memory' } },
    ]);
  });

  it("rethrows a sibling's error reply as its QuiverError", async () => {
    const { d0 } = pair(async () => ({ ok: false, error: { code: 'NotFound', message: 'Collection not found: c' } }));
    await expect(d0.call(1, { op: 'ping' })).rejects.toMatchObject({ code: 'NotFound', message: 'Collection not found: c' });
  });

  it("fails the calls waiting on a sibling whose thread ended, then the next ones until it is replaced", async () => {
    const { d0, port1 } = pair(never);
    const waiting = d0.call(1, { op: 'ping' });
    await new Promise((resolve) => setImmediate(resolve));
    port1.close();
    await expect(waiting).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Worker 1 failed: its thread ended while serving this request; its shards are being reloaded' });
    await expect(d0.call(1, { op: 'ping' })).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Worker 1 failed: its thread is being replaced and its shards reloaded' });
  });

  it("a replaced sibling's new channel takes over; what waited on the old one fails", async () => {
    const { d0 } = pair(never);
    const waiting = d0.call(1, { op: 'ping' });
    const { port1: port0, port2: port1 } = new MessageChannel();
    open.push(port0, port1);
    new PeerDispatcher(1, 2, owner(1)).attach([{ worker: 0, port: port1 }]);
    d0.attach([{ worker: 1, port: port0 }]);
    await expect(waiting).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Worker 1 failed: its thread was replaced while serving this request; its shards are being reloaded' });
    expect(await d0.call(1, { op: 'ping' })).toEqual({ worker: 1, req: { op: 'ping' } });
  });

  it('close fails the calls waiting', async () => {
    const { d0 } = pair(never);
    const waiting = d0.call(1, { op: 'ping' });
    await d0.close();
    await expect(waiting).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Worker 1 failed: the server is closing; its shards are being reloaded' });
  });
});
