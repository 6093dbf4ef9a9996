// BatchedPort (src/shared/batched-port.ts) over a real MessageChannel: what the hand-off, answer
// and sibling channels rely on. One turn's messages leave as one postMessage, at most MAX_BATCH
// each, their buffers moved; answers find their requests by id in any order; a closed port fails
// what waits on it and sends nothing more.

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchedPort, type BatchedReply, type BatchedRequest, type BatchedWire } from '../../src/shared/batched-port.js';
import { MAX_BATCH } from '../../src/shared/coordination.js';

interface Req {
  n: number;
  body?: Uint8Array;
  bad?: () => void;
}
interface Rep {
  n: number;
  note?: string;
  bad?: () => void;
}

const PLAIN: BatchedWire<Req, Rep> = { request: (id, req) => ({ id, req }), reply: (id, reply) => ({ id, reply }) };
const TAGGED: BatchedWire<Req, Rep> = {
  request: (id, req) => ({ kind: 'req', id, req }),
  reply: (id, reply) => ({ kind: 'res', id, reply }),
};

type Msg = BatchedRequest<Req> | BatchedReply<Rep>;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const open: MessagePort[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.close();
});

function channel(): { port1: MessagePort; port2: MessagePort } {
  const c = new MessageChannel();
  open.push(c.port1, c.port2);
  return c;
}

/** The far end as a bare port: records each batch and answers its requests (all, or as `answer` picks). */
function farEnd(port: MessagePort, answer: (batch: BatchedRequest<Req>[]) => BatchedReply<Rep>[] = (b) => b.map(({ id, req }) => ({ id, reply: { n: req.n * 10 } }))): Msg[][] {
  const batches: Msg[][] = [];
  port.on('message', (batch: BatchedRequest<Req>[]) => {
    batches.push(batch);
    const replies = answer(batch);
    if (replies.length > 0) port.postMessage(replies);
  });
  return batches;
}

/** The sizes of the batches `port` posts, as it posts them (postMessage wrapped). */
function postedSizes(port: MessagePort): number[] {
  const sizes: number[] = [];
  const post = port.postMessage.bind(port);
  port.postMessage = (value: unknown, transfer?: readonly ArrayBuffer[]): void => {
    sizes.push((value as unknown[]).length);
    post(value, transfer as ArrayBuffer[]);
  };
  return sizes;
}

describe('BatchedPort', () => {
  it("sends one turn's requests as one message, their buffers moved, and resolves each with its answer", async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    const batches = farEnd(port2);
    const bodies = [1, 2, 3].map((n) => new Uint8Array([n, n]));
    const answers = Promise.all(bodies.map((body, n) => client.send({ n, body }, [body.buffer as ArrayBuffer])));
    expect(client.load).toBe(3);
    // Queued, not sent, until the end of the turn.
    expect(bodies.every((b) => b.byteLength === 2)).toBe(true);
    expect(await answers).toEqual([{ n: 0 }, { n: 10 }, { n: 20 }]);
    expect(bodies.every((b) => b.byteLength === 0)).toBe(true);
    expect(batches.map((b) => b.length)).toEqual([3]);
    expect((batches[0]![2] as BatchedRequest<Req>).req.body).toEqual(new Uint8Array([3, 3]));
    expect(client.load).toBe(0);
  });

  it('sends a full batch at once and the rest at the end of the turn, at most MAX_BATCH per message', async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    const batches = farEnd(port2);
    const total = 2 * MAX_BATCH + 3;
    const bodies = Array.from({ length: total }, () => new Uint8Array(4));
    const answers = Promise.all(bodies.map((body, n) => client.send({ n, body }, [body.buffer as ArrayBuffer])));
    expect(bodies.map((b) => b.byteLength === 0)).toEqual(bodies.map((_, i) => i < 2 * MAX_BATCH));
    const got = await answers;
    expect(got.map((r) => r.n)).toEqual(bodies.map((_, n) => n * 10));
    expect(batches.map((b) => b.length)).toEqual([MAX_BATCH, MAX_BATCH, 3]);
  });

  it('a buffer shared by requests of one batch is moved once', async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    farEnd(port2);
    const shared = new Uint8Array(8);
    const buffer = shared.buffer as ArrayBuffer;
    const got = await Promise.all([client.send({ n: 1, body: shared }, [buffer]), client.send({ n: 2, body: shared }, [buffer])]);
    expect(got).toEqual([{ n: 10 }, { n: 20 }]);
    expect(shared.byteLength).toBe(0);
  });

  it('matches answers that come back out of order, in several batches', async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    let held: BatchedRequest<Req>[] = [];
    farEnd(port2, (batch) => {
      held = batch;
      return [];
    });
    const answers = Promise.all([0, 1, 2, 3].map((n) => client.send({ n })));
    while (held.length === 0) await turn();
    expect(held).toHaveLength(4);
    const [a, b, c, d] = held as [BatchedRequest<Req>, BatchedRequest<Req>, BatchedRequest<Req>, BatchedRequest<Req>];
    port2.postMessage([d, b].map(({ id, req }) => ({ id, reply: { n: req.n } })));
    port2.postMessage([c, a].map(({ id, req }) => ({ id, reply: { n: req.n } })));
    expect(await answers).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('serves requests and answers them batched per turn, at most MAX_BATCH per message, in the order they finish', async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    const finish = new Map<number, (reply: Rep) => void>();
    new BatchedPort<Req, Rep>(port2, { wire: PLAIN, serve: (req) => new Promise<Rep>((resolve) => finish.set(req.n, resolve)) });
    const answered = postedSizes(port2);
    const order: number[] = [];
    port1.on('message', (batch: BatchedReply<Rep>[]) => order.push(...batch.map(({ reply }) => reply.n)));
    const total = MAX_BATCH + 4;
    const answers = Promise.all(Array.from({ length: total }, (_, n) => client.send({ n })));
    while (finish.size < total) await turn();
    // All of them finish in one turn, the last first; then one more, in a turn of its own.
    for (const n of [...finish.keys()].reverse()) if (n !== 0) finish.get(n)!({ n: -n });
    // (Two turns: the first was scheduled before the answers' flush.)
    await turn();
    await turn();
    finish.get(0)!({ n: 0 });
    expect((await answers).map((r) => r.n)).toEqual(Array.from({ length: total }, (_, n) => -n || 0));
    expect(answered).toEqual([MAX_BATCH, total - 1 - MAX_BATCH, 1]);
    expect(order).toEqual([...Array.from({ length: total - 1 }, (_, i) => i + 1 - total), 0]);
  });

  it('carries both ways on one port, requests and answers in one batch per turn (the sibling format)', async () => {
    const { port1, port2 } = channel();
    const postedBy1 = postedSizes(port1);
    const messages: Msg[] = [];
    port2.on('message', (batch: Msg[]) => messages.push(...batch));
    const gate: { release?: () => void } = {};
    const a = new BatchedPort<Req, Rep>(port1, { wire: TAGGED, serve: (req) => new Promise<Rep>((resolve) => (gate.release = () => resolve({ n: req.n + 1 }))) });
    const b = new BatchedPort<Req, Rep>(port2, { wire: TAGGED, serve: async (req) => ({ n: req.n + 100 }) });
    const fromB = b.send({ n: 1 });
    while (gate.release === undefined) await turn();
    // a sends a request and answers b's in the same turn: one message, in that order.
    const fromA = a.send({ n: 2 });
    gate.release();
    expect(await Promise.all([fromA, fromB])).toEqual([{ n: 102 }, { n: 2 }]);
    expect(postedBy1).toEqual([2]);
    expect(messages).toEqual([expect.objectContaining({ kind: 'req', req: { n: 2 } }), expect.objectContaining({ kind: 'res', reply: { n: 2 } })]);
  });

  it('close rejects every request waiting with the error given, and takes no new one', async () => {
    const { port1, port2 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    const batches = farEnd(port2, () => []);
    const posted = postedSizes(port1);
    const waiting = [client.send({ n: 1 }), client.send({ n: 2 })];
    await turn();
    const queued = client.send({ n: 3 });
    const gone = new Error('its thread ended');
    client.close(gone);
    client.close(new Error('twice'));
    expect(client.open).toBe(false);
    expect(client.load).toBe(0);
    for (const p of [...waiting, queued]) await expect(p).rejects.toBe(gone);
    await expect(client.send({ n: 4 })).rejects.toBe(gone);
    await turn();
    await turn();
    // The request queued before the close never left, nor any after it.
    expect(posted).toEqual([2]);
    expect(batches.map((b) => b.length)).toEqual([2]);
  });

  it("each batch schedules its own end-of-turn flush, or ('one-pending') rides the one scheduled", async () => {
    const timing = async (endOfTurn: 'each-batch' | 'one-pending'): Promise<number[]> => {
      const { port1, port2 } = channel();
      farEnd(port2, () => []);
      const posted = postedSizes(port1);
      const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN, endOfTurn });
      const seen: number[][] = [];
      const ignore = (): undefined => undefined;
      for (let n = 0; n < MAX_BATCH; n++) client.send({ n }).catch(ignore);
      // Runs between the first end-of-turn flush and a second one, if there is a second.
      setImmediate(() => client.send({ n: -1 }).catch(ignore));
      client.send({ n: MAX_BATCH }).catch(ignore);
      setImmediate(() => seen.push([...posted]));
      await turn();
      await turn();
      client.close(new Error('done'));
      return seen[0]!;
    };
    // What had left when the check phase of that turn ended.
    expect(await timing('each-batch')).toEqual([MAX_BATCH, 1, 1]);
    expect(await timing('one-pending')).toEqual([MAX_BATCH, 1]);
  });

  it('fails only the messages that cannot be cloned, when told how (unsendable)', async () => {
    const { port1, port2 } = channel();
    const unsendable = { request: (why: string) => new Error(`not sent: ${why}`), reply: (why: string): Rep => ({ n: -1, note: why }) };
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN, unsendable });
    new BatchedPort<Req, Rep>(port2, { wire: PLAIN, unsendable, serve: async (req) => (req.n === 2 ? { n: 2, bad: () => undefined } : { n: req.n }) });
    const [one, bad, two] = await Promise.allSettled([client.send({ n: 1 }), client.send({ n: 0, bad: () => undefined }), client.send({ n: 2 })]);
    expect(one).toEqual({ status: 'fulfilled', value: { n: 1 } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/^not sent: .*could not be cloned/) } });
    expect(two).toMatchObject({ status: 'fulfilled', value: { n: -1, note: expect.stringMatching(/could not be cloned/) } });
  });

  it('without unsendable, a postMessage error reaches the sender', async () => {
    const { port1 } = channel();
    const client = new BatchedPort<Req, Rep>(port1, { wire: PLAIN });
    for (let n = 1; n < MAX_BATCH; n++) void client.send({ n }).catch(() => undefined);
    // The request that fills the batch sends it at once, and sees the error.
    await expect(client.send({ n: 0, bad: () => undefined })).rejects.toThrow(/could not be cloned/);
    expect(client.load).toBe(MAX_BATCH - 1);
  });
});
