import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HandoffChannel } from '../../../src/main/router/handoff-channel.js';
import type { HandoffBatch, HandoffRequest } from '../../../src/shared/coordination.js';

const request = (i: number): HandoffRequest => ({
  route: 'POST /collections/:collection_name/points/search',
  params: { collection_name: 'c' },
  query: {},
  body: new TextEncoder().encode(`{"vector":[${i}],"limit":1}`),
  t0: Date.now(),
});

describe('HandoffChannel', () => {
  it("sends one turn's requests together, at most 16 per message, each body moved, and resolves each with its own answer", async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new HandoffChannel(0, port1);
    const batches: HandoffBatch[] = [];
    port2.on('message', (batch: HandoffBatch) => {
      batches.push(batch);
      port2.postMessage(batch.map(({ id }) => ({ id, reply: { status: 200, body: `"answer ${id}"` } })));
    });
    const reqs = Array.from({ length: 20 }, (_, i) => request(i));
    const answers = Promise.all(reqs.map((r) => channel.send(r)));
    // A full batch leaves at once, the rest at the end of the turn.
    expect(reqs.map((r) => r.body!.byteLength === 0)).toEqual(reqs.map((_, i) => i < 16));
    const got = await answers;
    // Moved, not copied: every body is detached on this side.
    expect(reqs.every((r) => r.body!.byteLength === 0)).toBe(true);
    expect(batches.map((b) => b.length)).toEqual([16, 4]);
    expect(got.map((r) => r.body)).toEqual(batches.flat().map(({ id }) => `"answer ${id}"`));
    expect(new TextDecoder().decode(batches[1]![3]!.req.body as Uint8Array)).toBe('{"vector":[19],"limit":1}');
    channel.close();
    port2.close();
  });
});

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HandoffChannel closed', () => {
  it("fails the requests waiting when the worker's thread ends, with the reason piscina gives just after, and takes no more", async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new HandoffChannel(3, port1);
    port2.on('message', () => undefined);
    const waiting = channel.send(request(1));
    await turn();
    expect(channel.load).toBe(1);
    // The thread's error event comes after its port closed: the channel waits a turn for it.
    port1.on('close', () => (channel.reason = 'out of memory'));
    port2.close();
    const lost = { code: 'ShardUnavailable', message: 'Worker 3 failed: out of memory' };
    await expect(waiting).rejects.toMatchObject(lost);
    expect(channel.open).toBe(false);
    expect(channel.load).toBe(0);
    await expect(channel.send(request(2))).rejects.toMatchObject(lost);
  });

  it('close() at shutdown fails what waits, worded without a reason', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new HandoffChannel(1, port1);
    port2.on('message', () => undefined);
    const waiting = channel.send(request(1));
    channel.close();
    await expect(waiting).rejects.toMatchObject({ code: 'ShardUnavailable', message: 'Worker 1 failed: its thread ended while serving this request' });
    port2.close();
  });

  it('copies a body that is a view into a larger buffer out before moving it', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new HandoffChannel(0, port1);
    port2.on('message', (batch: HandoffBatch) => port2.postMessage(batch.map(({ id, req }) => ({ id, reply: { status: 200, body: new TextDecoder().decode(req.body as Uint8Array) } }))));
    const pooled = new TextEncoder().encode('xx{"limit":1}yy');
    const req = { ...request(0), body: pooled.subarray(2, 13) };
    const reply = await channel.send(req);
    expect(reply.body).toBe('{"limit":1}');
    expect(pooled.byteLength).toBe(15);
    channel.close();
    port2.close();
  });
});
