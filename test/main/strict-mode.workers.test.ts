// Strict mode through the real server, over REST (official client and fetch) and gRPC: the
// config kept, merged by PATCH and reported; each enforced limit hit with Qdrant's status and
// message, nothing written by a refused write; prefetches and batches held to it; `enabled:
// false` turning every check off; the collection size limits counted over every shard.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const STRICT = {
  enabled: true,
  max_query_limit: 10,
  search_max_hnsw_ef: 32,
  search_allow_exact: false,
  upsert_max_batchsize: 3,
  search_max_batchsize: 2,
  filter_max_conditions: 3,
  condition_max_size: 2,
  unindexed_filtering_retrieve: false,
  unindexed_filtering_update: false,
  multivector_config: { mv: { max_vectors: 2 } },
  sparse_config: { s: { max_length: 2 } },
  max_points_count: 5,
  max_payload_index_count: 1,
};

const post = (path: string, body: unknown) => call(server.url, 'POST', path, body);
const put = (path: string, body: unknown) => call(server.url, 'PUT', path, body);
const count = async () => (await client.count('sm', { exact: false })).count;

function refused(res: { status: number; body: { status: { error: string } } }, message: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.status.error).toBe(message);
}

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  const res = await put('/collections/sm', {
    vectors: { d: { size: 2, distance: 'Dot' }, mv: { size: 2, distance: 'Dot', multivector_config: { comparator: 'max_sim' } } },
    sparse_vectors: { s: {} },
    shard_number: 2,
    strict_mode_config: STRICT,
  });
  expect(res.status).toBe(200);
  await client.upsert('sm', { wait: true, points: [1, 2, 3].map((id) => ({ id, vector: { d: [1, id] }, payload: { color: id === 1 ? 'red' : 'blue' } })) });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('strict mode', () => {
  it('keeps the config as given and reports it', async () => {
    expect((await client.getCollection('sm')).config.strict_mode_config).toEqual(STRICT);
  });

  it('holds reads to max_query_limit, hnsw_ef, exact and the batch size, prefetches included', async () => {
    const limit = 'Bad request: Limit exceeded 11 > 10 for "limit". Help: Reduce the "limit" parameter to or below 10.';
    refused(await post('/collections/sm/points/query', { query: [1, 1], using: 'd', limit: 11 }), limit);
    refused(await post('/collections/sm/points/query', { prefetch: { query: [1, 1], using: 'd', limit: 11 }, query: { fusion: 'rrf' }, limit: 3 }), limit);
    refused(await post('/collections/sm/points/scroll', { limit: 11 }), limit);
    refused(await post('/collections/sm/points/search', { vector: { name: 'd', vector: [1, 1] }, limit: 11 }), limit);
    refused(
      await post('/collections/sm/points/query', { query: [1, 1], using: 'd', limit: 3, params: { hnsw_ef: 64 } }),
      'Bad request: Limit exceeded 64 > 32 for "hnsw_ef". Help: Reduce the "hnsw_ef" parameter to or below 32.',
    );
    refused(await post('/collections/sm/points/query', { query: [1, 1], using: 'd', limit: 3, params: { exact: true } }), 'Bad request: Exact search disabled!. Help: Set exact=false.');
    const one = { query: [1, 1], using: 'd', limit: 2 };
    refused(await post('/collections/sm/points/query/batch', { searches: [one, one, one] }), 'Bad request: Limit exceeded 3 > 2 for "search batch size". Help: Reduce the "search batch size" parameter to or below 2.');
    // Within the limits, answered.
    expect((await client.query('sm', { query: [1, 1], using: 'd', limit: 10 })).points).toHaveLength(3);
    expect(await client.queryBatch('sm', { searches: [one, one] })).toHaveLength(2);
  });

  it('requires an index for filtered reads and writes, counts conditions and sizes them', async () => {
    refused(
      await post('/collections/sm/points/query', { query: [1, 1], using: 'd', limit: 3, filter: { must: [{ key: 'color', match: { value: 'red' } }] } }),
      'Bad request: Index required but not found for "color" of one of the following types: [keyword]. Help: Create an index for this key or use a different filter.',
    );
    refused(
      await post('/collections/sm/points/delete?wait=true', { filter: { must: [{ key: 'color', match: { value: 'red' } }] } }),
      'Bad request: Index required but not found for "color" of one of the following types: [keyword]. Help: Create an index for this key or use a different filter.',
    );
    expect(await count()).toBe(3);
    await client.createPayloadIndex('sm', { field_name: 'color', field_schema: 'keyword', wait: true });
    const red = await client.query('sm', { query: [1, 1], using: 'd', limit: 3, filter: { must: [{ key: 'color', match: { value: 'red' } }] } });
    expect(red.points.map((p) => p.id)).toEqual([1]);
    // max_payload_index_count 1: a second index is refused.
    refused(
      await put('/collections/sm/index?wait=true', { field_name: 'size', field_schema: 'integer' }),
      'Bad request: Collection already has the maximum number of payload indices (1). Help: Please delete an existing index before creating a new one.',
    );
    const c = { key: 'color', match: { value: 'red' } };
    refused(await post('/collections/sm/points/count', { filter: { must: [c, c], should: [c, c] }, exact: false }), 'Bad request: Filter condition limit reached (4 > 3). Help: Reduce the amount of conditions of your filter.');
    refused(await post('/collections/sm/points/count', { filter: { must: [{ key: 'color', match: { any: ['a', 'b', 'c'] } }] }, exact: false }), 'Bad request: Condition size limit reached (3 > 2). Help: Reduce the size of your condition.');
    // A count is exact unless told otherwise: refused where exact search is.
    refused(await post('/collections/sm/points/count', {}), 'Bad request: Exact search disabled!. Help: Set exact=false.');
  });

  it('holds writes to the batch size, multivector and sparse lengths and the points count; nothing written when refused', async () => {
    const points = (ids: number[]) => ids.map((id) => ({ id, vector: { d: [1, id] } }));
    refused(await put('/collections/sm/points?wait=true', { points: points([10, 11, 12, 13]) }), 'Bad request: Limit exceeded 4 > 3 for "upsert limit". Help: Reduce the "upsert limit" parameter to or below 3.');
    refused(await put('/collections/sm/points?wait=true', { points: [{ id: 10, vector: { mv: [[1, 0], [0, 1], [1, 1]] } }] }), "Bad request: Multivector 'mv' has a limit of 2 vectors, but 3 were provided!");
    refused(await put('/collections/sm/points?wait=true', { points: [{ id: 10, vector: { s: { indices: [1, 2, 3], values: [1, 1, 1] } } }] }), "Bad request: Sparse vector 's' has a limit of 2 indices, but 3 were provided!");
    refused(
      await put('/collections/sm/points/vectors?wait=true', { points: [1, 2, 3, 1].map((id) => ({ id, vector: { d: [0, 1] } })) }),
      'Bad request: Limit exceeded 4 > 3 for "update limit". Help: Reduce the "update limit" parameter to or below 3.',
    );
    expect(await count()).toBe(3);
    // max_points_count 5: refused once the collection holds 5.
    expect((await put('/collections/sm/points?wait=true', { points: points([4, 5]) })).status).toBe(200);
    refused(await put('/collections/sm/points?wait=true', { points: points([6]) }), 'Bad request: Max points count limit of 5 reached!');
    // As in Qdrant, an update of vectors is held to it too (its size check counts points).
    refused(await put('/collections/sm/points/vectors?wait=true', { points: [{ id: 1, vector: { d: [0, 1] } }] }), 'Bad request: Max points count limit of 5 reached!');
    expect(await count()).toBe(5);
  });

  it('over gRPC: the same refusals, INVALID_ARGUMENT with the message', async () => {
    const g = grpcClient(server);
    const err = await failure(g.api('points').query({ collectionName: 'sm', using: 'd', limit: 11n, query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [1, 1] } } } } } }));
    expect(err.code).toBe(3);
    expect(err.message).toContain('Limit exceeded 11 > 10 for "limit"');
    const info = (await g.api('collections').get({ collectionName: 'sm' })).result!;
    expect(info.config!.strictModeConfig).toMatchObject({ enabled: true, maxQueryLimit: 10, upsertMaxBatchsize: 3n, multivectorConfig: { multivectorConfig: { mv: { maxVectors: 2n } } } });
  });

  it('PATCH merges field by field (null keeps a field); enabled false turns every check off', async () => {
    expect(await client.updateCollection('sm', { strict_mode_config: { max_query_limit: 20, search_max_hnsw_ef: null } })).toBe(true);
    let cfg = (await client.getCollection('sm')).config.strict_mode_config!;
    expect(cfg.max_query_limit).toBe(20);
    expect(cfg.search_max_hnsw_ef).toBe(32);
    await client.updateCollection('sm', { strict_mode_config: { enabled: false } });
    cfg = (await client.getCollection('sm')).config.strict_mode_config!;
    expect(cfg.enabled).toBe(false);
    expect(cfg.upsert_max_batchsize).toBe(3);
    expect((await post('/collections/sm/points/query', { query: [1, 1], using: 'd', limit: 50, params: { exact: true, hnsw_ef: 500 } })).status).toBe(200);
    expect((await put('/collections/sm/points?wait=true', { points: [20, 21, 22, 23].map((id) => ({ id, vector: { d: [1, 1] } })) })).status).toBe(200);
  });

  it('holds writes to the collection size limits: vectors on upserts and vector updates, payloads on those and payload writes', async () => {
    // 16 bytes a vector; `{"a":"0123456789"}` is 18 bytes of payload. Two shards: the limits count both.
    const res = await put('/collections/sb', { vectors: { size: 4, distance: 'Dot' }, shard_number: 2, strict_mode_config: { enabled: true, max_collection_vector_size_bytes: 48, max_collection_payload_size_bytes: 30 } });
    expect(res.status).toBe(200);
    const point = (id: number, payload?: object) => ({ id, vector: [1, 0, 0, id], ...(payload === undefined ? {} : { payload }) });
    expect((await put('/collections/sb/points?wait=true', { points: [point(1, { a: '0123456789' }), point(2, { a: '0123456789' })] })).status).toBe(200);
    const payloadFull = 'Bad request: Max payload storage size limit of 0.00002861023MB reached!';
    refused(await put('/collections/sb/points?wait=true', { points: [point(3)] }), payloadFull);
    refused(await post('/collections/sb/points/payload?wait=true', { payload: { b: 1 }, points: [1] }), payloadFull);
    refused(await put('/collections/sb/points/payload?wait=true', { payload: { b: 1 }, points: [1] }), payloadFull);
    // Payload freed (36 -> 18 bytes): writes go on until the vectors reach 48 bytes.
    expect((await post('/collections/sb/points/payload/clear?wait=true', { points: [2] })).status).toBe(200);
    expect((await put('/collections/sb/points?wait=true', { points: [point(3)] })).status).toBe(200);
    const vectorsFull = 'Bad request: Max vector storage size limit of 0.000045776367MB reached!';
    refused(await put('/collections/sb/points?wait=true', { points: [point(4)] }), vectorsFull);
    refused(await put('/collections/sb/points/vectors?wait=true', { points: [{ id: 1, vector: [0, 1, 0, 0] }] }), vectorsFull);
    refused(await post('/collections/sb/points/batch?wait=true', { operations: [{ upsert: { points: [point(4)] } }] }), `Batch operation 0 (upsert) failed: ${vectorsFull}; nothing was applied`);
    const err = await failure(grpcClient(server).api('points').upsert({ collectionName: 'sb', wait: true, points: [{ id: { pointIdOptions: { case: 'num', value: 4n } }, vectors: vectors([1, 0, 0, 4]), payload: {} }] }));
    expect(err.code).toBe(3);
    expect(err.message).toBe(vectorsFull);
    // A payload write is held to the payload limit alone.
    expect((await post('/collections/sb/points/payload?wait=true', { payload: { b: 1 }, points: [3] })).status).toBe(200);
    expect((await client.count('sb', { exact: true })).count).toBe(3);
    const info = (await client.getCollection('sb')).config.strict_mode_config;
    expect(info).toMatchObject({ max_collection_vector_size_bytes: 48, max_collection_payload_size_bytes: 30 });
  });

  it('refuses bad strict mode values as Qdrant validates them, creating nothing', async () => {
    const res = await put('/collections/sm3', { vectors: { size: 2, distance: 'Dot' }, strict_mode_config: { max_query_limit: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.status.error).toContain('strict_mode_config.max_query_limit');
    expect((await call(server.url, 'GET', '/collections/sm3')).status).toBe(404);
  });

  it('rate limits: token buckets of so many a minute, 429 with Retry-After, for reads and writes, REST and gRPC', async () => {
    const res = await put('/collections/rl', { vectors: { size: 2, distance: 'Dot' }, strict_mode_config: { enabled: true, write_rate_limit: 3, read_rate_limit: 2 } });
    expect(res.status).toBe(200);
    const points = (ids: number[]) => ({ points: ids.map((id) => ({ id, vector: [1, id] })) });
    expect((await put('/collections/rl/points?wait=true', points([1, 2]))).status).toBe(200);
    // One token left (and a sliver refilled): two more points wait about 20 s.
    const r = await fetch(`${server.url}/collections/rl/points?wait=true`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(points([3, 4])) });
    expect(r.status).toBe(429);
    const body = (await r.json()) as { status: { error: string } };
    expect(body.status.error).toMatch(/^Rate limiting exceeded: Write rate limit exceeded: Operation requires 2 tokens but only 1\.\d were available\. Retry after \d+s$/);
    const after = Number(r.headers.get('retry-after'));
    expect(after).toBeGreaterThanOrEqual(15);
    expect(after).toBeLessThanOrEqual(20);
    // More than the bucket holds: no wait helps.
    const big = await fetch(`${server.url}/collections/rl/points?wait=true`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(points([5, 6, 7, 8])) });
    expect(big.status).toBe(429);
    expect(((await big.json()) as { status: { error: string } }).status.error).toBe('Rate limiting exceeded: Write rate limit exceeded, request larger than rate limiter capacity, please try to split your request');
    expect(big.headers.get('retry-after')).toBeNull();
    expect((await client.getCollection('rl')).points_count).toBe(2);

    // Reads: 2 a minute, a count without a filter costs 1.
    expect((await post('/collections/rl/points/count', { exact: false })).status).toBe(200);
    expect((await post('/collections/rl/points/count', { exact: false })).status).toBe(200);
    const third = await post('/collections/rl/points/count', { exact: false });
    expect(third.status).toBe(429);
    expect(third.body.status.error).toMatch(/^Rate limiting exceeded: Read rate limit exceeded: Operation requires 1 tokens/);
    // Over gRPC, RESOURCE_EXHAUSTED with Qdrant's `retry-after` metadata: the official client
    // lifts that into its QdrantClientResourceExhaustedError (which connect hands on as the cause
    // of the error it throws), exactly as it does against Qdrant; without the metadata it would not.
    const err = await grpcClient(server).api('points').count({ collectionName: 'rl', exact: false }).then(
      () => null,
      (e: unknown) => e as { cause?: { name: string; code: number; rawMessage: string; retry_after: number } },
    );
    expect(err?.cause?.name).toBe('QdrantClientResourceExhaustedError');
    expect(err?.cause?.code).toBe(8);
    expect(err?.cause?.rawMessage).toMatch(/^Rate limiting exceeded: Read rate limit exceeded: Operation requires 1 tokens/);
    expect(err?.cause?.retry_after).toBeGreaterThanOrEqual(1);
  });

  it('max_timeout on REST and gRPC requests, and the payload keys a formula reads', async () => {
    expect((await put('/collections/sf', { vectors: { size: 2, distance: 'Dot' }, strict_mode_config: { enabled: true, max_timeout: 5, unindexed_filtering_retrieve: false } })).status).toBe(200);
    const timeout = 'Bad request: Limit exceeded 10 > 5 for "timeout". Help: Reduce the "timeout" parameter to or below 5.';
    refused(await put('/collections/sf/points?wait=true&timeout=10', { points: [{ id: 1, vector: [1, 1], payload: { n: 2 } }] }), timeout);
    refused(await post('/collections/sf/points/query?timeout=10', { query: [1, 1] }), timeout);
    expect((await put('/collections/sf/points?wait=true&timeout=5', { points: [{ id: 1, vector: [1, 1], payload: { n: 2 } }] })).status).toBe(200);
    const err = await failure(grpcClient(server).api('points').upsert({ collectionName: 'sf', wait: true, timeout: 10n, points: [] } as never));
    expect(err.code).toBe(3);
    expect(err.message).toContain('Limit exceeded 10 > 5 for "timeout"');

    const formula = { prefetch: { query: [1, 1], limit: 5 }, query: { formula: { sum: ['$score', 'n'] } } };
    refused(
      await post('/collections/sf/points/query', formula),
      'Bad request: Index required but not found for "n" of one of the following types: [float, integer]. Help: Create an index for this key or use a different formula expression.',
    );
    await client.createPayloadIndex('sf', { field_name: 'n', field_schema: 'float', wait: true });
    const ok = await post('/collections/sf/points/query', formula);
    expect(ok.status).toBe(200);
    expect(ok.body.result.points[0].score).toBeCloseTo(4, 5);
  });
});

