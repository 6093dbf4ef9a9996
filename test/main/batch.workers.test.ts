// Batch update: POST /collections/{name}/points/batch through @qdrant/js-client-rest's
// batchUpdate, and UpdateBatch through the gRPC client, run the same eight kinds of operation in
// order and leave the same data. A failing operation stops the batch and says which one; the
// ones before it stay applied, as in Qdrant.

import { QdrantClient as RestClient } from '@qdrant/js-client-rest';
import { ConnectErrorCode as Code, type QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, id, payload, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let rest: RestClient;
let grpc: QdrantClient;

const createVectors = { a: { size: 3, distance: 'Dot' as const }, b: { size: 2, distance: 'Dot' as const } };

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  rest = new RestClient({ url: server.url, checkCompatibility: false });
  grpc = grpcClient(server);
  for (const name of ['via_rest', 'via_grpc']) await rest.createCollection(name, { vectors: createVectors });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function state(name: string) {
  const { points } = await rest.scroll(name, { limit: 100, with_payload: true, with_vector: true });
  return points.map((p) => ({ id: p.id, payload: p.payload, vector: p.vector }));
}

describe('batch update', () => {
  it('runs every kind of operation in order, the same through REST and gRPC', async () => {
    const restResults = await rest.batchUpdate('via_rest', {
      wait: true,
      operations: [
        { upsert: { points: [1, 2, 3, 4, 5].map((i) => ({ id: i, vector: { a: [i, 0, 0], b: [0, i] }, payload: { n: i, tag: 'x' } })) } },
        { set_payload: { payload: { color: 'red' }, points: [1, 2] } },
        { overwrite_payload: { payload: { only: true }, points: [3] } },
        { delete_payload: { keys: ['tag'], filter: { must: [{ key: 'n', range: { gte: 4 } }] } } },
        { clear_payload: { points: [2] } },
        { update_vectors: { points: [{ id: 1, vector: { a: [9, 9, 9] } }] } },
        { delete_vectors: { points: [5], vector: ['b'] } },
        { delete: { points: [4] } },
      ],
    });
    const grpcResults = await grpc.api('points').updateBatch({
      collectionName: 'via_grpc',
      wait: true,
      operations: [
        {
          operation: {
            case: 'upsert',
            value: { points: [1, 2, 3, 4, 5].map((i) => ({ id: id(i), vectors: vectors({ a: [i, 0, 0], b: [0, i] }), payload: payload({ n: i, tag: 'x' }) })) },
          },
        },
        { operation: { case: 'setPayload', value: { payload: payload({ color: 'red' }), pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(1), id(2)] } } } } } },
        { operation: { case: 'overwritePayload', value: { payload: payload({ only: true }), pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(3)] } } } } } },
        {
          operation: {
            case: 'deletePayload',
            value: {
              keys: ['tag'],
              pointsSelector: { pointsSelectorOneOf: { case: 'filter', value: { must: [{ conditionOneOf: { case: 'field', value: { key: 'n', range: { gte: 4 } } } }] } } },
            },
          },
        },
        { operation: { case: 'clearPayload', value: { points: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(2)] } } } } } },
        { operation: { case: 'updateVectors', value: { points: [{ id: id(1), vectors: vectors({ a: [9, 9, 9] }) }] } } },
        {
          operation: {
            case: 'deleteVectors',
            value: { pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(5)] } } }, vectors: { names: ['b'] } },
          },
        },
        { operation: { case: 'deletePoints', value: { points: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(4)] } } } } } },
      ],
    });

    expect(restResults).toHaveLength(8);
    expect(restResults.every((r) => r.status === 'completed')).toBe(true);
    const opIds = restResults.map((r) => r.operation_id!);
    expect([...opIds].sort((x, y) => x - y)).toEqual(opIds);
    expect(new Set(opIds).size).toBe(8);
    expect(grpcResults.result).toHaveLength(8);

    const expected = [
      { id: 1, payload: { n: 1, tag: 'x', color: 'red' }, vector: { a: [9, 9, 9], b: [0, 1] } },
      { id: 2, payload: {}, vector: { a: [2, 0, 0], b: [0, 2] } },
      { id: 3, payload: { only: true }, vector: { a: [3, 0, 0], b: [0, 3] } },
      { id: 5, payload: { n: 5 }, vector: { a: [5, 0, 0] } },
    ];
    expect(await state('via_rest')).toEqual(expected);
    expect(await state('via_grpc')).toEqual(expected);
  });

  it('stops at a failing operation, names it, and keeps what came before', async () => {
    await rest.createCollection('partial', { vectors: createVectors });
    const r = await call(server.url, 'POST', '/collections/partial/points/batch?wait=true', {
      operations: [
        { upsert: { points: [{ id: 1, vector: { a: [1, 1, 1], b: [1, 1] } }] } },
        { upsert: { points: [{ id: 2, vector: { a: [1, 1], b: [1, 1] } }] } },
        { delete: { points: [1] } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toBe("Batch operation 1 (upsert) failed: Dimension mismatch for vector 'a': expected 3, got 2; operation 0 was applied");
    expect((await state('partial')).map((p) => p.id)).toEqual([1]);

    const g = await failure(
      grpc.api('points').updateBatch({
        collectionName: 'partial',
        wait: true,
        operations: [{ operation: { case: 'setPayload', value: { payload: payload({ k: 1 }), pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(404)] } } } } } }],
      }),
    );
    expect(g).toEqual({ code: Code.NotFound, message: 'Batch operation 0 (set_payload) failed: Not found: No point with id 404 found; nothing was applied' });
  });

  it('answers an empty batch with no results, and refuses bad batches', async () => {
    expect(await rest.batchUpdate('via_rest', { operations: [] })).toEqual([]);
    const unknown = await call(server.url, 'POST', '/collections/nope/points/batch', { operations: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.status.error).toBe('Collection not found: nope');
    const badKind = await call(server.url, 'POST', '/collections/via_rest/points/batch', { operations: [{ replace: { points: [] } }] });
    expect(badKind.status).toBe(400);
    expect(badKind.body.status.error).toMatch(/^Format error in JSON body: body\.operations\.0/);
    const twoKinds = await call(server.url, 'POST', '/collections/via_rest/points/batch', { operations: [{ delete: { points: [1] }, clear_payload: { points: [1] } }] });
    expect(twoKinds.status).toBe(400);
    const none = await failure(grpc.api('points').updateBatch({ collectionName: 'via_grpc', operations: [{}] }));
    expect(none).toEqual({ code: Code.InvalidArgument, message: 'operations[0]: no operation is set' });
    expect((await failure(grpc.api('points').updateBatch({ collectionName: 'nope', operations: [] }))).code).toBe(Code.NotFound);
  });
});
