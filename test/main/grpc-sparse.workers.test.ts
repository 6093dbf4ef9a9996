// Sparse vectors over gRPC with the official client: config, upsert, query (plain and idf) and
// hybrid fusion answer as REST does.

import type { QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, id, idOf } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = grpcClient(server);
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const DOCS: { indices: number[]; values: number[] }[] = [
  { indices: [1, 2], values: [1, 1] },
  { indices: [1, 3], values: [2, 1] },
  { indices: [1, 3], values: [1, 3] },
  { indices: [1], values: [1] },
];

function sparse(v: { indices: number[]; values: number[] }) {
  return { vector: { case: 'sparse' as const, value: v } };
}

describe('sparse vectors over gRPC', () => {
  it('creates, upserts and queries exactly as REST answers', async () => {
    await client.api('collections').create({
      collectionName: 'gs',
      sparseVectorsConfig: { map: { bm: { modifier: 1 } } },
      vectorsConfig: { config: { case: 'paramsMap', value: { map: { d: { size: 2n, distance: 1 } } } } },
    });
    const info = await call(server.url, 'GET', '/collections/gs');
    expect(info.body.result.config.params.sparse_vectors).toEqual({ bm: { modifier: 'idf' } });

    await client.api('points').upsert({
      collectionName: 'gs',
      wait: true,
      points: DOCS.map((d, i) => ({
        id: id(i),
        vectors: { vectorsOptions: { case: 'vectors' as const, value: { vectors: { bm: sparse(d), d: { vector: { case: 'dense' as const, value: { data: [i, 1] } } } } } } },
        payload: {},
      })),
    });

    const q = { indices: [1, 2, 3], values: [1, 1, 1] };
    const rest = await call(server.url, 'POST', '/collections/gs/points/query', { query: q, using: 'bm', limit: 4 });
    expect(rest.status).toBe(200);
    const g = await client.api('points').query({
      collectionName: 'gs',
      query: { variant: { case: 'nearest', value: { variant: { case: 'sparse', value: q } } } },
      using: 'bm',
      limit: 4n,
    });
    expect(g.result.map(idOf)).toEqual(rest.body.result.points.map((p: { id: number }) => p.id));
    g.result.forEach((p, i) => expect(p.score).toBeCloseTo(rest.body.result.points[i].score, 5));

    // Retrieved sparse vectors come back as sparse messages.
    const got = await client.api('points').get({ collectionName: 'gs', ids: [id(1)], withVectors: { selectorOptions: { case: 'enable', value: true } } });
    const v = got.result[0]!.vectors?.vectorsOptions;
    expect(v?.case).toBe('vectors');
    const bm = v?.case === 'vectors' ? v.value.vectors.bm : undefined;
    expect(bm?.vector.case).toBe('sparse');
    expect(bm?.vector.value).toMatchObject({ indices: [1, 3], values: [2, 1] });
  });

  it('fuses dense and sparse prefetches with rrf as REST does', async () => {
    const q = { indices: [1, 3], values: [1, 1] };
    const rest = await call(server.url, 'POST', '/collections/gs/points/query', {
      prefetch: [
        { query: q, using: 'bm', limit: 4 },
        { query: [1, 0], using: 'd', limit: 4 },
      ],
      query: { fusion: 'rrf' },
      limit: 4,
    });
    const g = await client.api('points').query({
      collectionName: 'gs',
      prefetch: [
        { query: { variant: { case: 'nearest', value: { variant: { case: 'sparse', value: q } } } }, using: 'bm', limit: 4n },
        { query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [1, 0] } } } } }, using: 'd', limit: 4n },
      ],
      query: { variant: { case: 'fusion', value: 0 } },
      limit: 4n,
    });
    expect(g.result.map(idOf)).toEqual(rest.body.result.points.map((p: { id: number }) => p.id));
  });
});
