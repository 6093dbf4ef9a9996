// The internal port's wire between nodes (src/shared/cluster/internal-wire.ts), its server
// (src/workers/cluster/internal-server.ts) and client (src/shared/cluster/internal-client.ts), on
// loopback: frames cut however the stream splits them; what a stranger, an oversized frame, an
// oversized request or reply, a dead peer and a dropped connection each get; a peer that comes
// back is reached again; close() lets calls in flight answer.

import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalShards } from '../../../src/shared/cluster/cluster-shards.js';
import { InternalPeers, parseAdvertise, PeerUnreachable } from '../../../src/shared/cluster/internal-client.js';
import { encode, frameHeader, FrameReader, HEADER_BYTES, KIND, PREAMBLE } from '../../../src/shared/cluster/internal-wire.js';
import type { PeerInfo } from '../../../src/shared/cluster/state.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { startInternalServer, type InternalServer } from '../../../src/workers/cluster/internal-server.js';

function frame(id: number, kind: number, payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(id, kind, payload.length), payload]);
}

describe('FrameReader', () => {
  it('gives back frames cut at every byte, and several frames from one chunk, in order', () => {
    const a = frame(1, KIND.shardCall, encode({ n: 1 }));
    const b = frame(2, KIND.reply, Buffer.alloc(0));
    const c = frame(0xfffffffe, KIND.awaitApplied, Buffer.from('x'.repeat(300)));
    const all = Buffer.concat([a, b, c]);
    const byte = new FrameReader(1024);
    const got = [];
    for (let i = 0; i < all.length; i++) got.push(...byte.push(all.subarray(i, i + 1)));
    const whole = new FrameReader(1024).push(all);
    for (const frames of [got, whole]) {
      expect(frames.map((f) => [f.id, f.kind, f.payload.length])).toEqual([
        [1, KIND.shardCall, a.length - HEADER_BYTES],
        [2, KIND.reply, 0],
        [0xfffffffe, KIND.awaitApplied, 300],
      ]);
    }
  });

  it('refuses a frame announcing more than its limit, and a length too short for a header', () => {
    expect(() => new FrameReader(100).push(frame(1, KIND.reply, Buffer.alloc(101)))).toThrow('frame of 106 bytes: over the limit of 105');
    const short = Buffer.alloc(HEADER_BYTES);
    short.writeUInt32LE(4, 0);
    expect(() => new FrameReader(100).push(short)).toThrow('frame of 4 bytes');
  });
});

describe('parseAdvertise', () => {
  it('reads host:port and [v6]:port', () => {
    expect(parseAdvertise('10.0.0.7:6575')).toEqual({ host: '10.0.0.7', port: 6575 });
    expect(parseAdvertise('[::1]:6575')).toEqual({ host: '::1', port: 6575 });
    expect(parseAdvertise('node-a.local:1')).toEqual({ host: 'node-a.local', port: 1 });
  });
});

describe('internal port over loopback', () => {
  const servers: InternalServer[] = [];
  const clients: InternalPeers[] = [];
  const raw: (Server | Socket)[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const r of raw.splice(0)) (r as Socket).destroy?.() ?? (r as Server).close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  const echo: LocalShards = {
    call: async (collectionId, shard, req) => ({ collectionId, shard, req }),
    awaitApplied: async (_c, _s, seq) => ({ result: seq }),
  };

  async function serve(local: LocalShards = echo, maxMessageBytes = 64 * 1024, port = 0): Promise<InternalServer> {
    const s = await startInternalServer({ host: '127.0.0.1', port, maxMessageBytes, local, state: () => null, serving: () => true, notServingReason: () => 'no lease' });
    servers.push(s);
    return s;
  }
  const peerAt = (port: number): PeerInfo => ({ id: 7, advertise: `127.0.0.1:${port}`, rest_port: 0, grpc_port: 0 });
  const client = (max = 64 * 1024): InternalPeers => {
    const c = new InternalPeers(max);
    clients.push(c);
    return c;
  };
  const count = (collectionId = 1) => ({ collectionId, shard: 2, req: { op: 'count', filter: null, exact: true } as never, timeoutMs: 500 });

  it('answers many calls in flight on one connection, each with its own result; a request\'s error crosses with its code', async () => {
    const server = await serve({ ...echo, call: async (c, s, req) => (c === 13 ? Promise.reject(new QuiverError('BadInput', 'thirteen')) : { c, s, op: req.op }) });
    const peers = client();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => peers.shardCall(peerAt(server.port), count(i), 2000).catch((e: unknown) => e)));
    for (let i = 0; i < 50; i++) {
      if (i === 13) expect(answers[i]).toMatchObject({ code: 'BadInput', message: 'thirteen' });
      else expect(answers[i]).toEqual({ c: i, s: 2, op: 'count' });
    }
    expect(await peers.awaitApplied(peerAt(server.port), { collectionId: 1, shard: 0, seq: 42, timeoutMs: 500 })).toEqual({ result: 42 });
  });

  it('drops a connection that does not open with the preamble (a stranger gets no answer)', async () => {
    const server = await serve();
    const socket = connect(server.port, '127.0.0.1');
    raw.push(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    await new Promise<void>((res) => socket.once('close', () => res()));
    expect(Buffer.concat(got).length).toBe(0);
  });

  it('drops a connection that announces a frame over the limit', async () => {
    const server = await serve(echo, 1024);
    const socket = connect(server.port, '127.0.0.1');
    raw.push(socket);
    socket.write(Buffer.concat([PREAMBLE, frameHeader(1, KIND.shardCall, 4096)]));
    await new Promise<void>((res) => socket.once('close', () => res()));
  });

  it('refuses a malformed request and an unknown call kind, and the connection stays usable', async () => {
    const server = await serve();
    const socket = connect(server.port, '127.0.0.1');
    raw.push(socket);
    const reader = new FrameReader(1 << 20);
    const frames: { id: number; kind: number; text: string }[] = [];
    socket.on('data', (d: Buffer) => frames.push(...reader.push(d).map((f) => ({ id: f.id, kind: f.kind, text: f.payload.toString('utf8') }))));
    socket.write(Buffer.concat([PREAMBLE, frame(5, KIND.shardCall, Buffer.from([0xff, 0x0f, 0x99])), frame(6, 99, encode({}))]));
    await expect.poll(() => frames.length).toBe(2);
    expect(frames.find((f) => f.id === 5)).toMatchObject({ kind: KIND.refused, text: expect.stringContaining('malformed internal message') });
    expect(frames.find((f) => f.id === 6)).toMatchObject({ kind: KIND.refused, text: 'malformed internal message: unknown call kind 99' });
  });

  it('a node without its lease refuses: the caller sees the peer unreachable, with the reason', async () => {
    const s = await startInternalServer({ host: '127.0.0.1', port: 0, maxMessageBytes: 1 << 16, local: echo, state: () => null, serving: () => false, notServingReason: () => 'This node is not serving: its cluster lease has lapsed' });
    servers.push(s);
    const err = await client().shardCall(peerAt(s.port), count(), 2000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PeerUnreachable);
    expect((err as Error).message).toBe('node 7 unreachable: This node is not serving: its cluster lease has lapsed');
  });

  it('a request over the message limit is refused before it leaves; a reply over it is refused by the server', async () => {
    const server = await serve({ ...echo, call: async () => 'y'.repeat(5000) }, 2048);
    const peers = client(2048);
    const big = { ...count(), req: { op: 'count', filter: { must: [{ key: 'x'.repeat(4000), match: { value: 1 } }] }, exact: true } as never };
    await expect(peers.shardCall(peerAt(server.port), big, 2000)).rejects.toThrow(/^node 7 unreachable: request of \d+ bytes is over the internal message limit of 2048$/);
    await expect(peers.shardCall(peerAt(server.port), count(), 2000)).rejects.toThrow(/^node 7 unreachable: reply of \d+ bytes is over the internal message limit of 2048$/);
  });

  it('a peer that is not listening fails at once; one that comes back on the same port is reached again', async () => {
    const first = await serve();
    const port = first.port;
    const peers = client();
    expect(await peers.shardCall(peerAt(port), count(), 2000)).toMatchObject({ collectionId: 1 });
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const t0 = performance.now();
    await expect(peers.shardCall(peerAt(port), count(), 60_000)).rejects.toThrow(/^node 7 unreachable: /);
    expect(performance.now() - t0).toBeLessThan(5000);
    await serve(echo, 64 * 1024, port);
    expect(await peers.shardCall(peerAt(port), count(3), 2000)).toMatchObject({ collectionId: 3 });
  });

  it('a connection lost with calls in flight fails them as unreachable', async () => {
    // A listener that takes the connection and the request, then drops it without answering.
    const dropper = createServer((s) => s.once('data', () => s.destroy()));
    raw.push(dropper);
    await new Promise<void>((res) => dropper.listen(0, '127.0.0.1', () => res()));
    const port = (dropper.address() as { port: number }).port;
    const err = await client().shardCall(peerAt(port), count(), 60_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PeerUnreachable);
    expect((err as Error).message).toBe('node 7 unreachable: connection closed');
  });

  it('a call not answered within its deadline fails as unreachable; the late answer is dropped', async () => {
    let release: (() => void) | null = null;
    const server = await serve({ ...echo, call: () => new Promise((res) => (release = () => res('late'))) });
    const peers = client();
    // waitMs 0: the client's deadline is its margin alone (1 s).
    await expect(peers.shardCall(peerAt(server.port), count(), 0)).rejects.toThrow('node 7 unreachable: no answer within 1000 ms');
    release!();
    expect(await peers.awaitApplied(peerAt(server.port), { collectionId: 1, shard: 0, seq: 9, timeoutMs: 500 })).toEqual({ result: 9 });
  });

  it('close() lets a call in flight answer, then refuses new connections', async () => {
    let release: (() => void) | null = null;
    const server = await serve({ ...echo, call: () => new Promise((res) => (release = () => res('answered'))) });
    const peers = client();
    const pending = peers.shardCall(peerAt(server.port), count(), 5000);
    await expect.poll(() => release !== null).toBe(true);
    const closed = server.close();
    servers.splice(servers.indexOf(server), 1);
    release!();
    expect(await pending).toBe('answered');
    await closed;
    await expect(client().shardCall(peerAt(server.port), count(), 2000)).rejects.toThrow(/^node 7 unreachable: .*ECONNREFUSED/);
  });
});
