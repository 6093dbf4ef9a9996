// Issue 13: the hot qdrant.Points calls are handed off to the coordinating workers as raw message
// bytes, as REST point requests are. These tests show the hand-off serves them (the per-worker
// coordinated-request counter grows once per call), that they answer as REST
// does, that a message which cannot be decoded answers INVALID_ARGUMENT naming the method, that
// over-size and invalid messages keep their statuses, that a collection with read copies is
// served too, and that the access log still names the collection read from the raw message.
// The hand-off calls are served by the admission interceptor rather than grpc-js's unary
// handling (HandoffCall): a call with no message or with two is refused as grpc-js refuses it, a
// reply's message, headers and status trailers all arrive, and each call is counted once.

import { ConnectErrorCode as Code, Distance, type QdrantClient } from '@qdrant/js-client-grpc';
import { connect } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, id, idOf, payload, vectors } from '../helpers/grpc.js';
import { sample, scrape } from '../helpers/metrics.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const coordinated = (text: string, worker: number): number => sample(text, 'quiver_coordinated_requests_total', { worker: String(worker) }) ?? 0;
const vector = (i: number): number[] => [1, (i % 7) / 7, (i % 3) / 3, i / 100];

/** One call with raw bytes both ways (grpc-js client, identity serializers): status code and details, or the reply bytes. */
function rawCall(server: TestServer, path: string, bytes: Buffer): Promise<{ code: number; details: string; reply?: Buffer }> {
  const client = new grpc.Client(`127.0.0.1:${server.grpcPort}`, grpc.credentials.createInsecure());
  const identity = (b: Buffer): Buffer => b;
  return new Promise((resolve) => {
    client.makeUnaryRequest(path, identity, identity, bytes, (err: grpc.ServiceError | null, reply?: Buffer) => {
      client.close();
      resolve(err === null ? { code: grpc.status.OK, details: '', ...(reply === undefined ? {} : { reply }) } : { code: err.code, details: err.details });
    });
  });
}

/** One gRPC frame: the uncompressed flag, the length, the message. */
const frame = (message: Buffer): Buffer => {
  const b = Buffer.alloc(5 + message.length);
  b.writeUInt32BE(message.length, 1);
  message.copy(b, 5);
  return b;
};

/** One call over node:http2 with exactly `body` as the request body: what came back, headers, data and trailers. */
function h2Call(server: TestServer, path: string, body: Buffer): Promise<{ status: string | undefined; message: string | undefined; data: Buffer; trailersSeen: boolean }> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${server.grpcPort}`);
    session.on('error', reject);
    const req = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' });
    let status: string | undefined;
    let message: string | undefined;
    let trailersSeen = false;
    const chunks: Buffer[] = [];
    const take = (h: Record<string, unknown>): void => {
      if (h['grpc-status'] !== undefined) status = String(h['grpc-status']);
      if (h['grpc-message'] !== undefined) message = decodeURIComponent(String(h['grpc-message']));
    };
    req.on('response', take);
    req.on('trailers', (h) => {
      trailersSeen = true;
      take(h);
    });
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('error', reject);
    req.on('end', () => {
      session.close();
      resolve({ status, message, data: Buffer.concat(chunks), trailersSeen });
    });
    req.end(body);
  });
}

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = grpcClient(server);
  await client.api('collections').create({
    collectionName: 'g',
    shardNumber: 3,
    vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Cosine } } },
  });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('gRPC hand-off to coordinating workers', () => {
  it('serves Upsert, Search, SearchBatch, Query, QueryBatch, Get, Count and Scroll through the workers, one hand-off per call', async () => {
    const before = await scrape(server.url);
    const points = Array.from({ length: 50 }, (_, i) => ({ id: id(i), vectors: vectors(vector(i)), payload: payload({ i }) }));
    const up = await client.api('points').upsert({ collectionName: 'g', wait: true, points });
    expect(up.result?.status).toBeDefined();
    const p = client.api('points');
    const calls = Array.from({ length: 10 }, (_, i) => [
      p.search({ collectionName: 'g', vector: vector(i), limit: 3n }),
      p.searchBatch({ collectionName: 'g', searchPoints: [{ collectionName: 'g', vector: vector(i), limit: 2n }] }),
      p.query({ collectionName: 'g', query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: vector(i) } } } } }, limit: 2n }),
      p.queryBatch({ collectionName: 'g', queryPoints: [{ collectionName: 'g', query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: vector(i) } } } } }, limit: 2n }] }),
      p.get({ collectionName: 'g', ids: [id(i), id(100 + i)] }),
      p.count({ collectionName: 'g', exact: true }),
      p.scroll({ collectionName: 'g', limit: 5 }),
    ]).flat();
    const res = await Promise.all(calls);
    const search = res[0] as Awaited<ReturnType<typeof p.search>>;
    expect(search.result.map(idOf)[0]).toBe(0);
    expect(search.time).toBeGreaterThan(0);
    const get = res[4] as Awaited<ReturnType<typeof p.get>>;
    expect(get.result.map(idOf)).toEqual([0]);
    expect((res[5] as Awaited<ReturnType<typeof p.count>>).result?.count).toBe(50n);
    expect((res[6] as Awaited<ReturnType<typeof p.scroll>>).result.map(idOf)).toEqual([0, 1, 2, 3, 4]);

    // The same answer as REST's for the same search.
    const rest = await call(server.url, 'POST', '/collections/g/points/search', { vector: vector(3), limit: 5 });
    const viaGrpc = await p.search({ collectionName: 'g', vector: vector(3), limit: 5n });
    expect(viaGrpc.result.map((h) => [idOf(h), h.score])).toEqual(
      (rest.body.result as { id: number; score: number }[]).map((h) => [h.id, Math.fround(h.score)]),
    );

    const after = await scrape(server.url);
    const handed = coordinated(after, 0) - coordinated(before, 0) + coordinated(after, 1) - coordinated(before, 1);
    // Every gRPC call above and the one REST search.
    // (Which worker coordinates is the choice's business: test/main/router/coordinator-choice.test.ts.)
    expect(handed).toBe(1 + calls.length + 2);
  });

  it('answers a message that cannot be decoded with INVALID_ARGUMENT naming the method', async () => {
    // An unknown field 15 announces 10 bytes and the message ends after 2.
    const truncated = Buffer.from([0x7a, 0x0a, 0x67, 0x67]);
    for (const method of ['Search', 'Upsert', 'Scroll']) {
      const r = await rawCall(server, `/qdrant.Points/${method}`, truncated);
      expect(r.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(r.details).toMatch(new RegExp(`^Malformed request message for /qdrant\\.Points/${method}: index out of range`));
    }
    // Wire type 7 does not exist.
    const wire7 = await rawCall(server, '/qdrant.Points/Count', Buffer.from([0x0a, 0x01, 0x67, 0x7f]));
    expect(wire7).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: 'Malformed request message for /qdrant.Points/Count: invalid wire type 7 at offset 4' });
    // The server goes on serving.
    expect((await client.api('points').count({ collectionName: 'g', exact: true })).result?.count).toBeTypeOf('bigint');
  });

  it('answers an empty message as the handler did: the collection name is checked first', async () => {
    const r = await rawCall(server, '/qdrant.Points/Search', Buffer.alloc(0));
    expect(r.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(r.details).toMatch(/collection_name/);
  });

  it('keeps the REST messages and statuses for invalid values and unknown collections', async () => {
    expect(await failure(client.api('points').search({ collectionName: 'g', vector: [1, 2], limit: 1n }))).toEqual({
      code: Code.InvalidArgument,
      message: "Dimension mismatch for vector '': expected 4, got 2",
    });
    const f = await failure(client.api('points').scroll({ collectionName: 'g', limit: 0 }));
    expect(f.code).toBe(Code.InvalidArgument);
    const rest = await call(server.url, 'POST', '/collections/g/points/scroll', { limit: 0 });
    expect(f.message).toBe((rest.body.status as { error: string }).error.replace('in JSON body', 'in body'));
    expect(await failure(client.api('points').count({ collectionName: 'nope' }))).toEqual({ code: Code.NotFound, message: 'Collection not found: nope' });
  });

  it('refuses an over-size Search with RESOURCE_EXHAUSTED before any hand-off', async () => {
    const small = await startServer({ shards: 1, env: { SERVICE_GRPC_MAX_MESSAGE_MB: '1' } });
    try {
      const c = grpcClient(small, { compression: false });
      await c.api('collections').create({ collectionName: 's', vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } } });
      const before = coordinated(await scrape(small.url), 0);
      const f = await failure(c.api('points').search({ collectionName: 's', vector: new Array<number>(300_000).fill(1), limit: 1n }));
      expect(f.code).toBe(Code.ResourceExhausted);
      expect(f.message).toMatch(/^Received message larger than max \(\d+ vs 1048576\)$/);
      expect(coordinated(await scrape(small.url), 0)).toBe(before);
    } finally {
      await small.stop();
      removeDir(small.dataDir);
    }
  });

  it('serves a collection with read copies the same way', async () => {
    const r = await call(server.url, 'PUT', '/collections/copies', { vectors: { size: 4, distance: 'Cosine' }, shard_number: 1, replication_factor: 2 });
    expect(r.status).toBe(200);
    const points = Array.from({ length: 20 }, (_, i) => ({ id: id(i), vectors: vectors(vector(i)) }));
    await client.api('points').upsert({ collectionName: 'copies', wait: true, points });
    const hits = await client.api('points').search({ collectionName: 'copies', vector: vector(7), limit: 1n });
    expect(hits.result.map(idOf)).toEqual([7]);
    expect((await client.api('points').count({ collectionName: 'copies', exact: true })).result?.count).toBe(20n);
  });

  it('logs the collection of a handed-off call, read from its raw message', async () => {
    await client.api('points').count({ collectionName: 'g', exact: true });
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && line === undefined; i++) {
      line = server.logs
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        })
        .find((l) => l.msg === 'access' && l.route === '/qdrant.Points/Count' && l.status === 'OK');
      if (line === undefined) await new Promise((res) => setTimeout(res, 20));
    }
    expect(line).toMatchObject({ method: 'gRPC', collection: 'g' });
  });
});

describe('hand-off calls served by the admission interceptor', () => {
  // Count {collection_name: 'g', exact: true}
  const countG = Buffer.from([0x0a, 0x01, 0x67, 0x18, 0x01]);

  it('answers a reply with its message, then grpc-status 0 in the trailers, counted once', async () => {
    const before = await scrape(server.url);
    const r = await h2Call(server, '/qdrant.Points/Count', frame(countG));
    expect(r).toMatchObject({ status: '0', trailersSeen: true });
    // one framed CountResponse
    expect(r.data.readUInt8(0)).toBe(0);
    expect(r.data.readUInt32BE(1)).toBe(r.data.length - 5);
    const after = await scrape(server.url);
    const ok = { method: '/qdrant.Points/Count', code: 'OK' };
    expect((sample(after, 'quiver_grpc_responses_total', ok) ?? 0) - (sample(before, 'quiver_grpc_responses_total', ok) ?? 0)).toBe(1);
  });

  it('refuses a call without a message, and one with two, as grpc-js refuses them for a unary method', async () => {
    const before = await scrape(server.url);
    const none = await h2Call(server, '/qdrant.Points/Count', Buffer.alloc(0));
    expect(none).toMatchObject({ status: String(grpc.status.UNIMPLEMENTED), message: 'Received no request message for server streaming method /qdrant.Points/Count' });
    const two = await h2Call(server, '/qdrant.Points/Count', Buffer.concat([frame(countG), frame(countG)]));
    expect(two).toMatchObject({ status: String(grpc.status.UNIMPLEMENTED), message: 'Received a second request message for server streaming method /qdrant.Points/Count' });
    const after = await scrape(server.url);
    const refused = { method: '/qdrant.Points/Count', code: 'UNIMPLEMENTED' };
    expect((sample(after, 'quiver_grpc_responses_total', refused) ?? 0) - (sample(before, 'quiver_grpc_responses_total', refused) ?? 0)).toBe(2);
    // neither reached a worker
    expect(coordinated(after, 0) + coordinated(after, 1)).toBe(coordinated(before, 0) + coordinated(before, 1));
  });

  it('answers a failure from the worker as a trailers-only status, counted under its code', async () => {
    const before = await scrape(server.url);
    // Count {collection_name: 'nope'}
    const r = await h2Call(server, '/qdrant.Points/Count', frame(Buffer.from([0x0a, 0x04, ...Buffer.from('nope')])));
    expect(r).toMatchObject({ status: String(grpc.status.NOT_FOUND), message: 'Collection not found: nope', trailersSeen: false });
    expect(r.data.length).toBe(0);
    const after = await scrape(server.url);
    const nf = { method: '/qdrant.Points/Count', code: 'NOT_FOUND' };
    expect((sample(after, 'quiver_grpc_responses_total', nf) ?? 0) - (sample(before, 'quiver_grpc_responses_total', nf) ?? 0)).toBe(1);
  });
});
