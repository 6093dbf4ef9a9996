// Vector names created and deleted on a live collection (Qdrant 1.19's PUT and DELETE
// /collections/{name}/vectors/{vector_name}, gRPC CreateVectorName and DeleteVectorName) through
// the real server and both official clients: the points are kept, a new name starts empty and
// takes vectors by update, a deleted one leaves every point (and does not come back when the
// name is created again, before or after a restart), and every refusal with its status and message.

import { QdrantClient } from '@qdrant/js-client-rest';
import { Distance, type QdrantClient as GrpcClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
let grpc: GrpcClient;

const r = rng(29);
const vec = (dim: number): number[] => Array.from({ length: dim }, () => Math.fround(r() * 2 - 1));
const N = 12;
const a = new Map(Array.from({ length: N }, (_, i) => [i + 1, vec(4)]));
const b = new Map(Array.from({ length: N }, (_, i) => [i + 1, vec(3)]));
const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);

const put = (path: string, body?: unknown) => call(server.url, 'PUT', path, body);
const del = (path: string) => call(server.url, 'DELETE', path);
const hasVector = async (name: string) => (await client.count('vn', { filter: { must: [{ has_vector: name }] }, exact: true })).count;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  grpc = grpcClient(server);
  await client.createCollection('vn', { vectors: { a: { size: 4, distance: 'Dot' } }, shard_number: 2 });
  await client.upsert('vn', { wait: true, points: [...a].map(([id, v]) => ({ id, vector: { a: v }, payload: { id } })) });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('vector names on a live collection', () => {
  it('creates a dense name: points kept, none having it, then given it by update', async () => {
    const res = await put('/collections/vn/vectors/b?wait=true', { dense: { size: 3, distance: 'Euclid' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'completed' });
    const info = await client.getCollection('vn');
    expect(info.config.params.vectors).toMatchObject({ a: { size: 4, distance: 'Dot' }, b: { size: 3, distance: 'Euclid' } });
    expect(info.points_count).toBe(N);
    expect(await hasVector('b')).toBe(0);
    expect(await client.query('vn', { query: vec(3), using: 'b', limit: 3 })).toEqual({ points: [] });

    await client.updateVectors('vn', { wait: true, points: [...b].map(([id, v]) => ({ id, vector: { b: v } })) });
    expect(await hasVector('b')).toBe(N);
    const q = vec(3);
    const want = [...b].map(([id, v]) => ({ id, d: Math.sqrt(v.reduce((s, x, i) => s + (x - q[i]!) ** 2, 0)) })).sort((x, y) => x.d - y.d);
    const got = await client.query('vn', { query: q, using: 'b', limit: 4, with_payload: true });
    expect(got.points.map((p) => p.id)).toEqual(want.slice(0, 4).map((w) => w.id));
    expect(got.points[0]!.payload).toEqual({ id: want[0]!.id });
    // The other vector answers as before.
    const qa = vec(4);
    const best = [...a].sort(([, x], [, y]) => dot(y, qa) - dot(x, qa))[0]![0];
    expect((await client.query('vn', { query: qa, using: 'a', limit: 1 })).points[0]!.id).toBe(best);
  });

  it('the same definition again is a no-op; another one, or the other kind, a 400', async () => {
    expect((await put('/collections/vn/vectors/b', { dense: { size: 3, distance: 'Euclid' } })).status).toBe(200);
    expect(await hasVector('b')).toBe(N);
    let res = await put('/collections/vn/vectors/b', { dense: { size: 5, distance: 'Euclid' } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Vector `b` already exists with a different configuration');
    res = await put('/collections/vn/vectors/a', { sparse: {} });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Vector `a` already exists as a dense vector');
  });

  it('creates sparse and multivector names, each taking vectors and queries', async () => {
    expect((await put('/collections/vn/vectors/s', { sparse: { modifier: 'idf' } })).status).toBe(200);
    expect((await put('/collections/vn/vectors/m', { dense: { size: 2, distance: 'Dot', multivector_config: { comparator: 'max_sim' } } })).status).toBe(200);
    const info = await client.getCollection('vn');
    expect(info.config.params.sparse_vectors).toEqual({ s: { modifier: 'idf' } });
    expect(info.config.params.vectors).toMatchObject({ m: { multivector_config: { comparator: 'max_sim' } } });
    await client.updateVectors('vn', {
      wait: true,
      points: [
        { id: 1, vector: { s: { indices: [7], values: [1] }, m: [[1, 0], [0, 1]] } },
        { id: 2, vector: { s: { indices: [7, 8], values: [0.5, 2] }, m: [[2, 2]] } },
      ],
    });
    expect((await client.query('vn', { query: { indices: [8], values: [1] }, using: 's', limit: 5 })).points.map((p) => p.id)).toEqual([2]);
    // MaxSim by Dot: point 1: max(1, 0) + max(0, 1) = 1 + 1; point 2: 2 + 2.
    expect((await client.query('vn', { query: [[1, 0], [0, 1]], using: 'm', limit: 5 })).points.map((p) => [p.id, p.score])).toEqual([[2, 4], [1, 2]]);
  });

  it('deletes a name: gone from the config, from every point, and not back when created again', async () => {
    const res = await del('/collections/vn/vectors/b?wait=true');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'completed' });
    const info = await client.getCollection('vn');
    expect(Object.keys(info.config.params.vectors as object).sort()).toEqual(['a', 'm']);
    expect(info.points_count).toBe(N);
    const [p] = await client.retrieve('vn', { ids: [1], with_vector: true });
    expect(Object.keys(p!.vector as object).sort()).toEqual(['a', 'm', 's']);
    const q = await call(server.url, 'POST', '/collections/vn/points/query', { query: [1, 2, 3], using: 'b' });
    expect(q.status).toBe(400);
    expect(q.body.status.error).toMatch(/b/);
    // Deleting a name the collection lacks is a no-op, as in Qdrant.
    expect((await del('/collections/vn/vectors/b')).status).toBe(200);
    // Created again with the same definition: the old rows stay gone.
    expect((await put('/collections/vn/vectors/b?wait=true', { dense: { size: 3, distance: 'Euclid' } })).status).toBe(200);
    expect(await hasVector('b')).toBe(0);
    expect((await client.query('vn', { query: vec(3), using: 'b', limit: 3 })).points).toEqual([]);
  });

  it('after a restart: the names as last set, no deleted rows back from the records or the saved graphs', async () => {
    await client.updateVectors('vn', { wait: true, points: [{ id: 3, vector: { b: [1, 1, 1] } }] });
    await server.stop();
    server = await startServer({ shards: 2, dataDir: server.dataDir });
    client = new QdrantClient({ url: server.url, checkCompatibility: false });
    grpc = grpcClient(server);
    expect(await hasVector('b')).toBe(1);
    expect((await client.query('vn', { query: [1, 1, 1], using: 'b', limit: 5 })).points.map((p) => p.id)).toEqual([3]);
    expect(await hasVector('a')).toBe(N);
    expect((await client.query('vn', { query: [[1, 0], [0, 1]], using: 'm', limit: 5 })).points.map((p) => p.id)).toEqual([2, 1]);
  });

  it('after kill -9 right after a name is deleted and created again: no graph saved for the old one is read back', async () => {
    // A graceful restart saves the graphs with 'b' holding point 3's row.
    await server.stop();
    server = await startServer({ shards: 2, dataDir: server.dataDir });
    client = new QdrantClient({ url: server.url, checkCompatibility: false });
    expect((await del('/collections/vn/vectors/b?wait=true')).status).toBe(200);
    expect((await put('/collections/vn/vectors/b?wait=true', { dense: { size: 3, distance: 'Euclid' } })).status).toBe(200);
    await server.stop('SIGKILL');
    server = await startServer({ shards: 2, dataDir: server.dataDir });
    client = new QdrantClient({ url: server.url, checkCompatibility: false });
    grpc = grpcClient(server);
    expect(await hasVector('b')).toBe(0);
    expect((await client.query('vn', { query: [1, 1, 1], using: 'b', limit: 5 })).points).toEqual([]);
    expect(await hasVector('a')).toBe(N);
  });

  it('over gRPC: CreateVectorName and DeleteVectorName', async () => {
    await grpc.api('points').createVectorName({ collectionName: 'vn', vectorName: 'g', wait: true, vectorConfig: { case: 'denseConfig', value: { size: 2n, distance: Distance.Cosine } } });
    let info = await call(server.url, 'GET', '/collections/vn');
    expect(info.body.result.config.params.vectors.g).toEqual({ size: 2, distance: 'Cosine' });
    await grpc.api('points').createVectorName({ collectionName: 'vn', vectorName: 'gs', wait: true, vectorConfig: { case: 'sparseConfig', value: {} } });
    info = await call(server.url, 'GET', '/collections/vn');
    expect(info.body.result.config.params.sparse_vectors.gs).toEqual({ modifier: 'none' });
    await grpc.api('points').deleteVectorName({ collectionName: 'vn', vectorName: 'g', wait: true });
    await grpc.api('points').deleteVectorName({ collectionName: 'vn', vectorName: 'gs', wait: true });
    info = await call(server.url, 'GET', '/collections/vn');
    expect(info.body.result.config.params.vectors.g).toBeUndefined();
    expect(info.body.result.config.params.sparse_vectors.gs).toBeUndefined();
    const err = await grpc.api('points').createVectorName({ collectionName: 'vn', vectorName: 'a', vectorConfig: { case: 'denseConfig', value: { size: 9n, distance: Distance.Dot } } }).catch((e: unknown) => e);
    expect(String(err)).toContain('Vector `a` already exists with a different configuration');
    expect((err as { code?: number }).code).toBe(3);
  });

  it('refuses bad requests by status and message, changing nothing', async () => {
    let res = await put('/collections/nope/vectors/x', { dense: { size: 3, distance: 'Dot' } });
    expect(res.status).toBe(404);
    res = await put('/collections/vn/vectors/x', { dense: { size: 0, distance: 'Dot' } });
    expect(res.status).toBe(422);
    res = await put('/collections/vn/vectors/x', { dense: { size: 3, distance: 'Near' } });
    expect(res.status).toBe(400);
    res = await put('/collections/vn/vectors/x', {});
    expect(res.status).toBe(400);
    res = await put('/collections/vn/vectors/x', { dense: { size: 3, distance: 'Dot', datatype: 'uint8' } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/datatype 'uint8' of vector 'x' is not supported/);
    res = await put('/collections/vn/vectors/x', { dense: { size: 3, distance: 'Dot', multivector_config: { comparator: 'max_sim' }, datatype: 'float16' } });
    expect(res.status).toBe(400);
    const info = await client.getCollection('vn');
    expect((info.config.params.vectors as Record<string, unknown>).x).toBeUndefined();
  });
});
