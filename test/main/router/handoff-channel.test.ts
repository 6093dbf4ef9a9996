import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HandoffChannel } from '../../../src/main/router/handoff-channel.js';
import type { HandoffBatch, HandoffRequest } from '../../../src/shared/protocol.js';

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
