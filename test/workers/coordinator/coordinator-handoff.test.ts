// The coordinator's end of the main thread's hand-off channel (src/workers/coordinator/
// coordinator.ts with src/main/router/handoff-channel.ts): handed-off requests arrive batched,
// each is served, and the answers go back batched, at most MAX_BATCH per message, each matched to
// its request.

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HandoffChannel } from '../../../src/main/router/handoff-channel.js';
import { OpIdCounter } from '../../../src/shared/op-ids.js';
import { type WorkerReply } from '../../../src/shared/protocol.js';
import { MAX_BATCH, type HandoffReplyBatch, type HandoffRequest } from '../../../src/shared/coordination.js';
import { Coordinator } from '../../../src/workers/coordinator/coordinator.js';

const search = (collection: string): HandoffRequest => ({
  route: 'POST /collections/:collection_name/points/search',
  params: { collection_name: collection },
  query: {},
  body: new TextEncoder().encode('{"vector":[1],"limit":1}'),
  t0: Date.now(),
});

/** The sizes of the batches `port` posts (postMessage wrapped). */
function postedSizes(port: MessagePort): number[] {
  const sizes: number[] = [];
  const post = port.postMessage.bind(port);
  port.postMessage = (value: unknown, transfer?: readonly ArrayBuffer[]): void => {
    sizes.push((value as HandoffReplyBatch).length);
    post(value, transfer as ArrayBuffer[]);
  };
  return sizes;
}

describe('Coordinator hand-off channel', () => {
  it('answers each handed-off request with its own reply, batched at most MAX_BATCH per message', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new HandoffChannel(0, port1);
    const answered = postedSizes(port2);
    const coordinator = new Coordinator(0, 1, new OpIdCounter(), async () => ({ ok: false, error: { code: 'Internal', message: 'no shards here' } }) as WorkerReply);
    coordinator.attach([], port2, { version: 1, ready: true, collections: {} });
    const names = Array.from({ length: MAX_BATCH + 4 }, (_, i) => `c${i}`);
    const replies = await Promise.all(names.map((name) => channel.send(search(name))));
    // No catalog: each is the 404 of its own collection.
    expect(replies.map((r) => r.status)).toEqual(names.map(() => 404));
    replies.forEach((r, i) => expect(String(r.body)).toContain(`Collection not found: ${names[i]}`));
    expect(answered.reduce((a, b) => a + b, 0)).toBe(names.length);
    expect(Math.max(...answered)).toBeLessThanOrEqual(MAX_BATCH);
    channel.close();
    port2.close();
  });
});
