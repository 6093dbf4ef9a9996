// Validation statuses and wording as Qdrant gives them: a request that cannot be read into its
// type is a 400 "Format error in ...", one that reads but breaks a rule on a value (a minimum, a
// maximum, a length) is a 422 "Validation error in <part>: [field: value V invalid, rule]", for
// bodies, query strings and path parameters; over gRPC both are INVALID_ARGUMENT, the 422 kind
// worded "Validation error in body: [...]". replication_factor and write_consistency_factor are
// refused below 1 and otherwise kept and reported.

import { ConnectErrorCode as Code, Distance } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

const LONG = 'x'.repeat(256);
const V4 = { size: 4, distance: 'Dot' };

beforeAll(async () => {
  server = await startServer();
  expect((await call(server.url, 'PUT', '/collections/v', { vectors: V4 })).status).toBe(200);
  const up = await call(server.url, 'PUT', '/collections/v/points?wait=true', { points: [{ id: 1, vector: [1, 0, 0, 0], payload: { n: 1 } }] });
  expect(up.status).toBe(200);
});
afterAll(async () => {
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

type Case = [label: string, method: string, path: string, body: unknown, status: number, message: string | RegExp];

const CASES: Case[] = [
  // 422: the body reads, a value breaks a rule; the message names the field, the value and the rule.
  ['hnsw_config.ef_construct below its minimum', 'PUT', '/collections/c1', { vectors: V4, hnsw_config: { ef_construct: 0 } }, 422,
    'Validation error in JSON body: [hnsw_config.ef_construct: value 0 invalid, must be from 4 to 100000]'],
  ['vectors.size over 65,536', 'PUT', '/collections/c2', { vectors: { size: 65_537, distance: 'Dot' } }, 422,
    'Validation error in JSON body: [vectors.size: value 65537 invalid, must be from 1 to 65536]'],
  ['a named vector of size 0', 'PUT', '/collections/c3', { vectors: { img: { size: 0, distance: 'Dot' } } }, 422,
    'Validation error in JSON body: [vectors.img.size: value 0 invalid, must be from 1 to 65536]'],
  ['shard_number 0', 'PUT', '/collections/c4', { vectors: V4, shard_number: 0 }, 422,
    'Validation error in JSON body: [shard_number: value 0 invalid, must be from 1 to 1024]'],
  ['replication_factor 0', 'PUT', '/collections/c5', { vectors: V4, replication_factor: 0 }, 422,
    'Validation error in JSON body: [replication_factor: value 0 invalid, must be 1 or larger]'],
  ['write_consistency_factor 0', 'PUT', '/collections/c6', { vectors: V4, write_consistency_factor: 0 }, 422,
    'Validation error in JSON body: [write_consistency_factor: value 0 invalid, must be 1 or larger]'],
  ['two fields at once, each named', 'PUT', '/collections/c7', { vectors: V4, replication_factor: 0, write_consistency_factor: 0 }, 422,
    'Validation error in JSON body: [replication_factor: value 0 invalid, must be 1 or larger; write_consistency_factor: value 0 invalid, must be 1 or larger]'],
  ['wal_config.wal_capacity_mb 0', 'PUT', '/collections/c12', { vectors: V4, wal_config: { wal_capacity_mb: 0 } }, 422,
    'Validation error in JSON body: [wal_config.wal_capacity_mb: value 0 invalid, must be 1 or larger]'],
  ['optimizers_config.deleted_threshold over 1 (a float rule)', 'PUT', '/collections/c13', { vectors: V4, optimizers_config: { deleted_threshold: 2 } }, 422,
    'Validation error in JSON body: [optimizers_config.deleted_threshold: value 2.0 invalid, must be from 0.0 to 1.0]'],
  ['PATCH optimizers_config.vacuum_min_vector_number under 100', 'PATCH', '/collections/v', { optimizers_config: { vacuum_min_vector_number: 10 } }, 422,
    'Validation error in JSON body: [optimizers_config.vacuum_min_vector_number: value 10 invalid, must be 100 or larger]'],
  ['PATCH hnsw_config.ef_construct below its minimum', 'PATCH', '/collections/v', { hnsw_config: { ef_construct: 3 } }, 422,
    'Validation error in JSON body: [hnsw_config.ef_construct: value 3 invalid, must be from 4 to 100000]'],
  ['search params.hnsw_ef 0', 'POST', '/collections/v/points/search', { vector: [1, 0, 0, 0], limit: 1, params: { hnsw_ef: 0 } }, 422,
    'Validation error in JSON body: [params.hnsw_ef: value 0 invalid, must be 1 or larger]'],
  ['query params.hnsw_ef 0', 'POST', '/collections/v/points/query', { query: [1, 0, 0, 0], params: { hnsw_ef: 0 } }, 422,
    'Validation error in JSON body: [params.hnsw_ef: value 0 invalid, must be 1 or larger]'],
  ['an array index in the field name', 'POST', '/collections/v/points/search/batch', { searches: [{ vector: [1, 0, 0, 0], limit: 1 }, { vector: [1, 0, 0, 0], limit: 1, params: { hnsw_ef: 0 } }] }, 422,
    'Validation error in JSON body: [searches[1].params.hnsw_ef: value 0 invalid, must be 1 or larger]'],
  ['search limit 0', 'POST', '/collections/v/points/search', { vector: [1, 0, 0, 0], limit: 0 }, 422,
    'Validation error in JSON body: [limit: value 0 invalid, must be 1 or larger]'],
  ['query limit 0', 'POST', '/collections/v/points/query', { query: [1, 0, 0, 0], limit: 0 }, 422,
    'Validation error in JSON body: [limit: value 0 invalid, must be 1 or larger]'],
  ['facet limit 0', 'POST', '/collections/v/facet', { key: 'n', limit: 0 }, 422,
    'Validation error in JSON body: [limit: value 0 invalid, must be 1 or larger]'],
  ['an integer index with lookup and range both off', 'PUT', '/collections/v/index?wait=true', { field_name: 'n', field_schema: { type: 'integer', lookup: false, range: false } }, 422,
    "Validation error in JSON body: [field_schema.lookup: Validation error: the 'lookup' and 'range' capabilities can't be both disabled [{}]]"],
  // Query strings and path parameters: the same rule, their own label and Qdrant's field names.
  ['query parameter timeout 0', 'PUT', '/collections/v/points?wait=true&timeout=0', { points: [{ id: 2, vector: [0, 1, 0, 0] }] }, 422,
    'Validation error in query parameters: [timeout: value 0 invalid, must be 1 or larger]'],
  ['a collection name over 255 characters', 'PUT', `/collections/${LONG}`, { vectors: V4 }, 422,
    `Validation error in path parameters: [name: value "${LONG}" invalid, must be from 1 to 255 characters]`],
  ['a collection name over 255 characters on a read', 'GET', `/collections/${LONG}/points/1`, undefined, 422,
    `Validation error in path parameters: [name: value "${LONG}" invalid, must be from 1 to 255 characters]`],
  ['a new collection name with a forbidden character', 'PUT', '/collections/a%3Ab', { vectors: V4 }, 422,
    'Validation error in path parameters: [name: collection name cannot contain ":" char]'],
  // 400: the request does not read into its type.
  ['a query parameter that is not a number', 'PUT', '/collections/v/points?wait=true&timeout=soon', { points: [{ id: 2, vector: [0, 1, 0, 0] }] }, 400,
    'Deserialize error in query parameters: timeout: must be integer'],
  ['a negative query parameter (not an unsigned integer)', 'PUT', '/collections/v/points?wait=true&timeout=-5', { points: [{ id: 2, vector: [0, 1, 0, 0] }] }, 400,
    /^Deserialize error in query parameters: timeout: /],
  ['a negative replication_factor (not a u32)', 'PUT', '/collections/c8', { vectors: V4, replication_factor: -1 }, 400,
    /^Format error in JSON body: body\.replication_factor: /],
  ['a negative size (not an unsigned integer)', 'PUT', '/collections/c9', { vectors: { size: -4, distance: 'Dot' } }, 400,
    /^Format error in JSON body: body\.vectors\.size: /],
  ['a string where a number goes', 'PUT', '/collections/c10', { vectors: V4, shard_number: 'two' }, 400,
    /^Format error in JSON body: body\.shard_number: /],
  ['an unknown enum value', 'PUT', '/collections/c11', { vectors: { size: 4, distance: 'Hamming' } }, 400,
    'Format error in JSON body: body.vectors.distance: unknown variant, expected one of "Cosine", "Euclid", "Dot", "Manhattan"'],
  ['a missing required field', 'POST', '/collections/v/points/search', { limit: 1 }, 400, /^Format error in JSON body: body: .*vector/],
  ['PATCH params.replication_factor 0 (a NonZeroU32 in Qdrant)', 'PATCH', '/collections/v', { params: { replication_factor: 0 } }, 400,
    /^Format error in JSON body: body\.params\.replication_factor: /],
  ['an unknown payload index type', 'PUT', '/collections/v/index?wait=true', { field_name: 'n', field_schema: 'vector' }, 400, /^Format error in JSON body: body\.field_schema/],
  ['an empty facet key (a JSON path)', 'POST', '/collections/v/facet', { key: '' }, 400, /^Format error in JSON body: body\.key: /],
  ['a negative search offset (not an unsigned integer)', 'POST', '/collections/v/points/search', { vector: [1, 0, 0, 0], limit: 1, offset: -1 }, 400,
    /^Format error in JSON body: body\.offset: /],
];

describe('REST: 400 format errors and 422 validation errors, as Qdrant words them', () => {
  it.each(CASES)('%s', async (_label, method, path, body, status, message) => {
    const r = await call(server.url, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(Object.keys(r.body as object).sort()).toEqual(['status', 'time']);
    const error = (r.body as { status: { error: string } }).status.error;
    if (typeof message === 'string') expect(error).toBe(message);
    else expect(error).toMatch(message);
  });

  it('refused creations create nothing', async () => {
    const list = await call(server.url, 'GET', '/collections');
    expect((list.body as { result: { collections: { name: string }[] } }).result.collections.map((c) => c.name)).toEqual(['v']);
  });
});

describe('the official REST client', () => {
  it('sees the 422 status and Qdrant\'s message', async () => {
    const client = new QdrantClient({ url: server.url, https: false, checkCompatibility: false });
    await expect(client.createCollection('rc', { vectors: { size: 4, distance: 'Dot' }, hnsw_config: { ef_construct: 1 } })).rejects.toMatchObject({
      status: 422,
      data: { status: { error: 'Validation error in JSON body: [hnsw_config.ef_construct: value 1 invalid, must be from 4 to 100000]' } },
    });
    await expect(client.query('v', { query: [1, 0, 0, 0], limit: 1, params: { hnsw_ef: 0 } })).rejects.toMatchObject({
      status: 422,
      data: { status: { error: 'Validation error in JSON body: [params.hnsw_ef: value 0 invalid, must be 1 or larger]' } },
    });
    expect((await client.collectionExists('rc')).exists).toBe(false);
  });
});

describe('replication_factor and write_consistency_factor', () => {
  it('are kept and reported over REST and gRPC, and PATCH params changes them', async () => {
    const client = new QdrantClient({ url: server.url, https: false, checkCompatibility: false });
    await client.createCollection('rf', { vectors: { size: 4, distance: 'Dot' }, replication_factor: 3, write_consistency_factor: 2 });
    const params = async () => (await client.getCollection('rf')).config.params;
    expect(await params()).toMatchObject({ replication_factor: 3, write_consistency_factor: 2 });
    const grpc = grpcClient(server);
    const info = await grpc.api('collections').get({ collectionName: 'rf' });
    expect(info.result?.config?.params).toMatchObject({ replicationFactor: 3, writeConsistencyFactor: 2 });

    await client.updateCollection('rf', { params: { replication_factor: 5 } });
    expect(await params()).toMatchObject({ replication_factor: 5, write_consistency_factor: 2 });
    await client.updateCollection('rf', { params: { write_consistency_factor: 4 } });
    expect(await params()).toMatchObject({ replication_factor: 5, write_consistency_factor: 4 });
    // A refused PATCH leaves them as they were.
    expect((await call(server.url, 'PATCH', '/collections/rf', { params: { replication_factor: 0 } })).status).toBe(400);
    expect(await params()).toMatchObject({ replication_factor: 5, write_consistency_factor: 4 });
  });

  it('survive a restart (kept in the catalog)', async () => {
    await server.stop();
    server = await startServer({ dataDir: server.dataDir });
    expect((await call(server.url, 'GET', '/collections/rf')).body).toMatchObject({ result: { config: { params: { replication_factor: 5, write_consistency_factor: 4 } } } });
  });

  it('default to 1', async () => {
    expect((await call(server.url, 'GET', '/collections/v')).body).toMatchObject({ result: { config: { params: { replication_factor: 1, write_consistency_factor: 1 } } } });
  });
});

describe('gRPC: INVALID_ARGUMENT, "Validation error in body: [...]"', () => {
  it('for a rule broken on a value, in Qdrant\'s gRPC wording', async () => {
    const grpc = grpcClient(server);
    const size = await failure(
      grpc.api('collections').create({ collectionName: 'g1', vectorsConfig: { config: { case: 'params', value: { size: 65_537n, distance: Distance.Dot } } } }),
    );
    expect(size).toEqual({ code: Code.InvalidArgument, message: 'Validation error in body: [vectors.size: value 65537 invalid, must be from 1 to 65536]' });
    const rf = await failure(
      grpc.api('collections').create({
        collectionName: 'g2',
        vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } },
        replicationFactor: 0,
        hnswConfig: { efConstruct: 2n },
      }),
    );
    expect(rf).toEqual({
      code: Code.InvalidArgument,
      message: 'Validation error in body: [hnsw_config.ef_construct: value 2 invalid, must be from 4 to 100000; replication_factor: value 0 invalid, must be 1 or larger]',
    });
    const ef = await failure(grpc.api('points').search({ collectionName: 'v', vector: [1, 0, 0, 0], limit: 1n, params: { hnswEf: 0n } }));
    expect(ef).toEqual({ code: Code.InvalidArgument, message: 'Validation error in body: [params.hnsw_ef: value 0 invalid, must be 1 or larger]' });
  });

  it('for a collection name Qdrant refuses, naming collection_name', async () => {
    const grpc = grpcClient(server);
    const long = await failure(grpc.api('collections').get({ collectionName: LONG }));
    expect(long).toEqual({ code: Code.InvalidArgument, message: `Validation error in body: [collection_name: value "${LONG}" invalid, must be from 1 to 255 characters]` });
    const chars = await failure(
      grpc.api('collections').create({ collectionName: 'a/b', vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } } }),
    );
    expect(chars).toEqual({ code: Code.InvalidArgument, message: 'Validation error in body: [collection_name: collection name cannot contain "/" char]' });
  });

  it('for WAL and optimizer settings Qdrant refuses, while the ones it takes pass', async () => {
    const grpc = grpcClient(server);
    const params = { config: { case: 'params' as const, value: { size: 4n, distance: Distance.Dot } } };
    const wal = await failure(grpc.api('collections').create({ collectionName: 'g4', vectorsConfig: params, walConfig: { walCapacityMb: 0n } }));
    expect(wal).toEqual({ code: Code.InvalidArgument, message: 'Validation error in body: [wal_config.wal_capacity_mb: value 0 invalid, must be 1 or larger]' });
    await grpc.api('collections').create({
      collectionName: 'g5',
      vectorsConfig: params,
      walConfig: { walSegmentsAhead: 1n },
      optimizersConfig: { deletedThreshold: 0.5, vacuumMinVectorNumber: 100n },
    });
    expect((await call(server.url, 'GET', '/collections/g5/exists')).body).toMatchObject({ result: { exists: true } });
  });

  it('a created collection reports its factors', async () => {
    const grpc = grpcClient(server);
    await grpc.api('collections').create({
      collectionName: 'g3',
      vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } },
      replicationFactor: 2,
      writeConsistencyFactor: 2,
    });
    expect((await call(server.url, 'GET', '/collections/g3')).body).toMatchObject({ result: { config: { params: { replication_factor: 2, write_consistency_factor: 2 } } } });
  });
});
