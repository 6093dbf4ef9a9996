// Collection, vector and index settings through the real server: every one Quiver cannot apply is refused with a 400
// (gRPC: INVALID_ARGUMENT) naming it, on create and on PATCH, and changes nothing; those it applies
// work: vectors.on_disk for a vector without a graph (m 0) reads its vectors from disk for exact
// search and with_vector, datatype float32 and the on_disk falses are taken as they are.
// (Quantized vectors on disk: quantization.workers.test.ts; on_disk_payload: payload-storage.)

import { Datatype, Distance, Memory, MultiVectorComparator } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const v = { size: 4, distance: 'Dot' };

describe('storage settings', () => {
  it('refuses on create what Quiver cannot apply, naming it, and creates nothing', async () => {
    const refused: [unknown, string][] = [
      [{ vectors: { ...v, datatype: 'float16' } }, "datatype 'float16' of the unnamed vector is not supported: Quiver stores vectors as float32"],
      [{ vectors: { a: { ...v, datatype: 'uint8' } } }, "datatype 'uint8' of vector 'a' is not supported"],
      [{ vectors: { ...v, datatype: 'float16', multivector_config: { comparator: 'max_sim' } } }, "datatype 'float16' of the unnamed vector is not supported: Quiver stores vectors as float32 (quantization_config keeps int8 or binary codes for the graph), and multivectors as float32 or uint8"],
      [{ vectors: { ...v, multivector_config: { comparator: 'max_sim' } }, quantization_config: { binary: {} } }, "the collection's quantization_config cannot apply to the unnamed vector, a multivector"],
      [{ vectors: v, hnsw_config: { on_disk: true } }, 'hnsw_config.on_disk: true cannot apply: Quiver keeps HNSW graphs in memory'],
      [{ vectors: { a: { ...v, hnsw_config: { on_disk: true } } } }, "hnsw_config.on_disk of vector 'a': true cannot apply"],
      [{ vectors: v, hnsw_config: { payload_m: 16 } }, 'payload_m in hnsw_config is not supported'],
      [{ vectors: { a: { ...v, hnsw_config: { payload_m: 0 } } } }, "payload_m in hnsw_config of vector 'a' is not supported"],
      [{ vectors: { ...v, on_disk: true } }, 'on_disk: true cannot apply to the unnamed vector: without quantization_config its HNSW graph holds the float32 vectors in memory'],
      [{ sparse_vectors: { s: { index: { on_disk: true } } } }, "index.on_disk: true cannot apply to sparse vector 's'"],
      [{ sparse_vectors: { s: { index: { datatype: 'uint8' } } } }, "datatype 'uint8' of a sparse vector index is not supported"],
      [{ vectors: v, sharding_method: 'custom' }, "sharding_method 'custom' is not supported"],
      [{ vectors: v, init_from: { collection: 'other' } }, 'init_from is not supported'],
      // Qdrant 1.19's placements: `cold` is on disk, refused where on_disk is.
      [{ vectors: { ...v, memory: 'cold' } }, "memory: 'cold' cannot apply to the unnamed vector: without quantization_config its HNSW graph holds the float32 vectors in memory"],
      [{ vectors: v, hnsw_config: { memory: 'cold' } }, "hnsw_config.memory: 'cold' cannot apply: Quiver keeps HNSW graphs in memory"],
      [{ vectors: { a: { ...v, hnsw_config: { memory: 'cold' } } } }, "hnsw_config.memory of vector 'a': 'cold' cannot apply"],
      [{ vectors: v, hnsw_config: { inline_storage: true } }, 'hnsw_config.inline_storage: true cannot apply: Quiver keeps HNSW graphs in memory'],
      [{ sparse_vectors: { s: { index: { memory: 'cold' } } } }, "index.memory: 'cold' cannot apply to sparse vector 's'"],
      [{ vectors: v, quantization_config: { scalar: { type: 'int8', memory: 'cold' } } }, "quantization_config memory: 'cold' cannot apply: the codes are the rows of Quiver's HNSW graph"],
    ];
    for (const [body, message] of refused) {
      expectError(await call(server.url, 'PUT', '/collections/refused', body), 400, message);
      expect((await call(server.url, 'GET', '/collections/refused')).status).toBe(404);
    }
    // Not a Datatype at all: the schema's 400.
    expectError(await call(server.url, 'PUT', '/collections/refused', { vectors: { ...v, datatype: 'int4' } }), 400, 'datatype');
  });

  it('takes what it applies: float32, the on_disk falses, on_disk for a vector searched exactly (read from disk)', async () => {
    await client.createCollection('ok', {
      vectors: { g: { size: 4, distance: 'Dot', datatype: 'float32', on_disk: false, hnsw_config: { on_disk: false } }, e: { size: 4, distance: 'Euclid', on_disk: true, hnsw_config: { m: 0 } } },
      hnsw_config: { on_disk: false },
      shard_number: 2,
    });
    const r = rng(4);
    const rows = Array.from({ length: 300 }, () => Array.from({ length: 4 }, () => r() * 2 - 1));
    await client.upsert('ok', { wait: true, points: rows.map((row, id) => ({ id, vector: { g: row, e: row } })) });
    const vectors = (await client.getCollection('ok')).config.params.vectors as Record<string, { on_disk?: boolean }>;
    expect(vectors.e!.on_disk).toBe(true);
    // The exact nearest by Euclid, from vectors read back from LMDB; with_vector too.
    for (const i of [0, 150, 299]) {
      const hit = (await client.query('ok', { query: rows[i]!, using: 'e', limit: 1, with_vector: ['e'] })).points[0]!;
      expect(hit.id).toBe(i);
      expect((hit.vector as Record<string, number[]>).e!.map(Math.fround)).toEqual(rows[i]!.map(Math.fround));
    }
    // A write after: read from disk as well, and a deleted point is gone.
    await client.upsert('ok', { wait: true, points: [{ id: 150, vector: { g: rows[0]!, e: [9, 9, 9, 9] } }] });
    await client.delete('ok', { wait: true, points: [299] });
    expect((await client.query('ok', { query: [9, 9, 9, 9], using: 'e', limit: 1 })).points[0]!.id).toBe(150);
    expect((await client.query('ok', { query: rows[299]!, using: 'e', limit: 3 })).points.map((p) => p.id)).not.toContain(299);
  });

  it('reads memory placements as on_disk: cold on disk, cached and pinned in memory, each reported as given', async () => {
    await client.createCollection('mem', {
      vectors: { e: { size: 4, distance: 'Euclid', memory: 'cold', hnsw_config: { m: 0, memory: 'pinned', inline_storage: false } }, g: { size: 4, distance: 'Dot', memory: 'cached' } },
      sparse_vectors: { s: { index: { memory: 'cached' } } },
      payload: { memory: 'pinned' },
    } as never);
    const info = await client.getCollection('mem');
    const vectors = info.config.params.vectors as Record<string, Record<string, unknown>>;
    expect(vectors.e).toMatchObject({ on_disk: true, memory: 'cold', hnsw_config: { m: 0, on_disk: false, memory: 'pinned', inline_storage: false } });
    expect(vectors.g).toMatchObject({ on_disk: false, memory: 'cached' });
    expect(info.config.params.sparse_vectors!.s!.index).toMatchObject({ on_disk: false, memory: 'cached' });
    expect(info.config.params).toMatchObject({ on_disk_payload: false, payload: { memory: 'pinned' } });
    // PATCH: payloads go to disk by placement, and a bare on_disk_payload replaces the placement.
    await client.updateCollection('mem', { params: { payload: { memory: 'cold' } } } as never);
    expect((await client.getCollection('mem')).config.params).toMatchObject({ on_disk_payload: true, payload: { memory: 'cold' } });
    await client.updateCollection('mem', { params: { on_disk_payload: false } });
    const params = (await client.getCollection('mem')).config.params;
    expect(params.on_disk_payload).toBe(false);
    expect(params).not.toHaveProperty('payload');
    // A vector's placement changes by PATCH too: `e` (no graph) back into memory.
    await client.updateCollection('mem', { vectors: { e: { memory: 'pinned' } } } as never);
    expect((await client.getCollection('mem')).config.params.vectors).toMatchObject({ e: { on_disk: false, memory: 'pinned' } });
  });

  it('refuses on PATCH what it cannot apply, naming it, and changes nothing', async () => {
    await client.createCollection('p', { vectors: { g: { size: 4, distance: 'Dot' } } });
    const before = (await client.getCollection('p')).config;
    const refused: [unknown, string][] = [
      [{ vectors: { g: { on_disk: true } } }, "on_disk: true cannot apply to vector 'g'"],
      [{ hnsw_config: { on_disk: true } }, 'hnsw_config.on_disk: true cannot apply'],
      [{ hnsw_config: { payload_m: 8 } }, 'payload_m in hnsw_config is not supported'],
      [{ vectors: { g: { hnsw_config: { payload_m: 8 } } } }, "payload_m in hnsw_config of vector 'g' is not supported"],
      [{ params: { read_fan_out_factor: 2 } }, 'params.read_fan_out_factor cannot apply per collection'],
      [{ params: { read_fan_out_delay_ms: 5 } }, 'params.read_fan_out_delay_ms cannot apply per collection'],
      [{ vectors: { g: { memory: 'cold' } } }, "memory: 'cold' cannot apply to vector 'g'"],
      [{ hnsw_config: { inline_storage: true } }, 'hnsw_config.inline_storage: true cannot apply'],
    ];
    for (const [body, message] of refused) expectError(await call(server.url, 'PATCH', '/collections/p', body), 400, message);
    expect((await client.getCollection('p')).config).toEqual(before);
    // A field index on disk: refused; in memory (the default) taken.
    expectError(await call(server.url, 'PUT', '/collections/p/index?wait=true', { field_name: 'k', field_schema: { type: 'keyword', on_disk: true } }), 400, 'field_schema.on_disk: true cannot apply: Quiver keeps field indexes in memory');
    expect((await client.getCollection('p')).payload_schema).toEqual({});
    expect((await call(server.url, 'PUT', '/collections/p/index?wait=true', { field_name: 'k', field_schema: { type: 'keyword', on_disk: false } })).status).toBe(200);
    // on_disk with quantization together is one setting Quiver applies.
    if (process.env.QUIVER_SKIP_NATIVE_BUILD !== '1') {
      await client.updateCollection('p', { vectors: { g: { on_disk: true, quantization_config: { scalar: { type: 'int8' } } } } });
      // Turning quantization off would leave on_disk over a float32 graph: refused.
      expectError(await call(server.url, 'PATCH', '/collections/p', { vectors: { g: { quantization_config: 'Disabled' } } }), 400, "on_disk: true cannot apply to vector 'g'");
    }
  });

  it('gRPC: datatype, multivector_config and placements are read and refused or applied by name, not dropped', async () => {
    const grpc = grpcClient(server);
    const create = (params: object) =>
      grpc
        .api('collections')
        .create({ collectionName: 'gs', vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot, ...params } } } })
        .catch((e: unknown) => e);
    for (const [params, message] of [
      [{ datatype: Datatype.Float16 }, "datatype 'float16' of the unnamed vector is not supported"],
      [{ datatype: Datatype.Uint8 }, "datatype 'uint8' of the unnamed vector is not supported"],
      [{ multivectorConfig: { comparator: MultiVectorComparator.MaxSim }, onDisk: true }, 'on_disk: true cannot apply to the unnamed vector, a multivector'],
      [{ memory: Memory.Cold }, "memory: 'cold' cannot apply to the unnamed vector"],
      [{ hnswConfig: { inlineStorage: true } }, 'hnsw_config.inline_storage: true cannot apply'],
    ] as const) {
      const err = await create(params);
      expect(String(err)).toContain(message);
      expect((err as { code?: number }).code).toBe(3);
      expect((await grpc.api('collections').collectionExists({ collectionName: 'gs' })).result?.exists).toBe(false);
    }
    expect(await create({ datatype: Datatype.Float32, memory: Memory.Cached, hnswConfig: { memory: Memory.Pinned } })).toMatchObject({ result: true });
    const info = (await grpc.api('collections').get({ collectionName: 'gs' })).result!;
    const params = info.config?.params?.vectorsConfig?.config;
    expect(params?.case).toBe('params');
    expect(params?.value).toMatchObject({ memory: Memory.Cached, hnswConfig: { memory: Memory.Pinned } });
    // The payload placement and a params PATCH carrying it.
    await grpc.api('collections').update({ collectionName: 'gs', params: { payload: { memory: Memory.Cold } } });
    const after = (await grpc.api('collections').get({ collectionName: 'gs' })).result!;
    expect(after.config?.params).toMatchObject({ onDiskPayload: true, payload: { memory: Memory.Cold } });
  });
});
