// gRPC status codes and messages: each QuiverError code maps to its status through GRPC_STATUS,
// with the message REST gives for the same request; features REST answers 501 for answer
// UNIMPLEMENTED; oversized messages answer RESOURCE_EXHAUSTED.

import { ConnectErrorCode as Code, Distance, type QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, id, payload, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const restError = async (method: string, path: string, body?: unknown): Promise<string> => {
  const r = await call(server.url, method, path, body);
  expect(r.status).toBeGreaterThanOrEqual(400);
  return (r.body as { status: { error: string } }).status.error;
};

beforeAll(async () => {
  server = await startServer();
  client = grpcClient(server);
  await client.api('collections').create({ collectionName: 'e', vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } } });
  await client.api('points').upsert({ collectionName: 'e', wait: true, points: [{ id: id(1), vectors: vectors([1, 2, 3, 4]) }] });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('NOT_FOUND', () => {
  it('for an unknown collection, with the REST message', async () => {
    const f = await failure(client.api('collections').get({ collectionName: 'nope' }));
    expect(f).toEqual({ code: Code.NotFound, message: await restError('GET', '/collections/nope') });
    expect(f.message).toBe('Collection not found: nope');
    expect((await failure(client.api('points').search({ collectionName: 'nope', vector: [1], limit: 1n }))).code).toBe(Code.NotFound);
  });

  it('for vectors of a missing point', async () => {
    const f = await failure(client.api('points').updateVectors({ collectionName: 'e', wait: true, points: [{ id: id(404), vectors: vectors([1, 1, 1, 1]) }] }));
    expect(f).toEqual({ code: Code.NotFound, message: 'Not found: No point with id 404 found' });
  });
});

describe('INVALID_ARGUMENT', () => {
  it('for a vector of the wrong size, with the REST message', async () => {
    const f = await failure(client.api('points').upsert({ collectionName: 'e', wait: true, points: [{ id: id(2), vectors: vectors([1, 2, 3]) }] }));
    expect(f).toEqual({ code: Code.InvalidArgument, message: "Dimension mismatch for vector '': expected 4, got 3" });
    expect(await restError('PUT', '/collections/e/points?wait=true', { points: [{ id: 2, vector: [1, 2, 3] }] })).toBe(f.message);
    const q = await failure(client.api('points').search({ collectionName: 'e', vector: [1, 2], limit: 1n }));
    expect(q).toEqual({ code: Code.InvalidArgument, message: "Dimension mismatch for vector '': expected 4, got 2" });
  });

  it('for a request the REST schema refuses, with the REST message', async () => {
    const f = await failure(client.api('collections').create({ collectionName: 'bad', vectorsConfig: { config: { case: 'params', value: { size: 100_000n, distance: Distance.Dot } } } }));
    expect(f.code).toBe(Code.InvalidArgument);
    // The same rule and field as REST; Qdrant's gRPC says "in body" where REST says "in JSON body".
    const rest = await restError('PUT', '/collections/bad', { vectors: { size: 100_000, distance: 'Dot' } });
    expect(rest).toBe('Validation error in JSON body: [vectors.size: value 100000 invalid, must be from 1 to 65536]');
    expect(f.message).toBe(rest.replace('in JSON body', 'in body'));
  });

  it('for a bad point id, a bad filter, and unsupported inputs', async () => {
    const badId = await failure(client.api('points').get({ collectionName: 'e', ids: [id('not-a-uuid')] }));
    expect(badId.code).toBe(Code.InvalidArgument);
    expect(badId.message).toBe(await restError('POST', '/collections/e/points', { ids: ['not-a-uuid'] }));
    const badFilter = await failure(
      client.api('points').count({ collectionName: 'e', filter: { must: [{ conditionOneOf: { case: 'field', value: { key: 'a' } } }] } }),
    );
    expect(badFilter.code).toBe(Code.InvalidArgument);
    expect(badFilter.message).toBe(await restError('POST', '/collections/e/points/count', { filter: { must: [{ key: 'a' }] } }));
    const sparse = await failure(
      client.api('points').upsert({
        collectionName: 'e',
        points: [{ id: id(3), vectors: { vectorsOptions: { case: 'vector', value: { vector: { case: 'sparse', value: { values: [1], indices: [0] } } } } } }],
      }),
    );
    expect(sparse.code).toBe(Code.InvalidArgument);
    const shardKey = await failure(client.api('points').count({ collectionName: 'e', shardKeySelector: { shardKeys: [{ key: { case: 'keyword', value: 'k' } }] } }));
    expect(shardKey).toEqual({ code: Code.InvalidArgument, message: 'shard_key is not supported by Quiver yet' });
  });
});

describe('ALREADY_EXISTS', () => {
  it('for a collection created twice, with the REST message', async () => {
    const f = await failure(client.api('collections').create({ collectionName: 'e', vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } } }));
    expect(f).toEqual({ code: Code.AlreadyExists, message: await restError('PUT', '/collections/e', { vectors: { size: 4, distance: 'Dot' } }) });
  });
});

describe('UNIMPLEMENTED', () => {
  it('for the features REST answers 501 for, with the REST wording', async () => {
    expect(await failure(client.api('points').recommend({ collectionName: 'e' }))).toEqual({
      code: Code.Unimplemented,
      message: 'Recommendations are not implemented in Quiver',
    });
    expect(await failure(client.api('points').discover({ collectionName: 'e' }))).toEqual({ code: Code.Unimplemented, message: 'Discovery is not implemented in Quiver' });
    expect(await failure(client.api('collections').listAliases({}))).toEqual({ code: Code.Unimplemented, message: 'Aliases are not implemented in Quiver' });
    for (const p of [
      client.api('collections').updateAliases({}),
      client.api('points').searchGroups({ collectionName: 'e' }),
      client.api('points').queryGroups({ collectionName: 'e' }),
      client.api('points').recommendBatch({ collectionName: 'e' }),
    ]) {
      expect((await failure(p)).code).toBe(Code.Unimplemented);
    }
  });

  it('for a service Quiver does not serve', async () => {
    expect((await failure(client.api('snapshots').listFull({}))).code).toBe(Code.Unimplemented);
  });
});

describe('message size', () => {
  // 128 points per MiB: mostly payload, so the time goes to the message rather than to indexing.
  const blob = 'x'.repeat(8 * 1024);
  const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: id(from + i), vectors: vectors([1, 0, 0, i]), payload: payload({ blob, i }) }));

  it('accepts a request just under the default limit of 64 MiB', async () => {
    // 1,018 points of a 64 KiB string and a little framing (under 200 bytes each): between 63.6
    // and 63.9 MiB on the wire, sent uncompressed.
    const big = 'y'.repeat(64 * 1024);
    const points = Array.from({ length: 1018 }, (_, i) => ({ id: id(10_000 + i), vectors: vectors([1, 0, 0, i]), payload: payload({ big, i }) }));
    expect(1018 * big.length).toBeGreaterThan(63.5 * 1024 * 1024);
    expect(1018 * (big.length + 200)).toBeLessThan(64 * 1024 * 1024);
    const c = grpcClient(server, { compression: false });
    const r = await c.api('points').upsert({ collectionName: 'e', wait: true, points });
    expect(r.result?.operationId).toBeGreaterThan(0n);
    expect((await c.api('points').count({ collectionName: 'e' })).result?.count).toBe(1n + 1018n);
  });

  it('accepts batches up to the limit and refuses larger ones with RESOURCE_EXHAUSTED, compressed or not', async () => {
    const small = await startServer({ env: { SERVICE_GRPC_MAX_MESSAGE_MB: '8' } });
    try {
      for (const compression of [false, true]) {
        const c = grpcClient(small, { compression });
        const name = `big_${String(compression)}`;
        await c.api('collections').create({ collectionName: name, vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } } });
        const ok = await c.api('points').upsert({ collectionName: name, wait: true, points: batch(0, 6 * 128) });
        expect(ok.result?.operationId).toBeGreaterThan(0n);
        // Over 10 MB uncompressed: more than the client's own HTTP/2 session memory holds, which
        // is the case early-status.ts exists for. Compressed, the limit applies after inflating.
        const f = await failure(c.api('points').upsert({ collectionName: name, wait: true, points: batch(1000, 12 * 128) }));
        expect(f.code).toBe(Code.ResourceExhausted);
        expect(f.message).toMatch(compression ? /^Received message that decompresses to a size larger than 8388608$/ : /^Received message larger than max \(\d+ vs 8388608\)$/);
        // Nothing of it was written, and the same connection still serves calls.
        expect((await c.api('points').count({ collectionName: name, exact: true })).result?.count).toBe(6n * 128n);
        const again = await c.api('points').upsert({ collectionName: name, wait: true, points: batch(5000, 2 * 128) });
        expect(again.result?.operationId).toBeGreaterThan(ok.result?.operationId ?? 0n);
      }
    } finally {
      await small.stop();
      removeDir(small.dataDir);
    }
  });
});
