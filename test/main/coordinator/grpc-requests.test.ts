// gRPC hand-offs through the in-process coordinators (no worker threads): the same decoding,
// converters, service calls and encoding as in a coordinating worker, so tests and embedded use
// without workers serve the hand-off methods too; failures come back as wire errors for the
// main thread's status mapping.

import { collectionNameOf } from '../../../src/main/grpc/handoff.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as protoLoader from '@grpc/proto-loader';
import { InProcessCoordinators } from '../../../src/main/coordinator/in-process.js';
import { LOADER_OPTIONS, PROTO_DIR } from '../../../src/shared/grpc/proto.js';
import type { GrpcHandoffReply } from '../../../src/shared/coordination.js';
import type { GrpcHandoffMethod } from '../../../src/shared/point-ops.js';
import { inject, startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

const points = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] })['qdrant.Points'] as protoLoader.ServiceDefinition;

let q: InProcessQuiver;
let coordinators: InProcessCoordinators;

async function grpcCall(method: GrpcHandoffMethod, message: object): Promise<GrpcHandoffReply> {
  const body = points[method]!.requestSerialize(message);
  // As the main thread: the collection name peeked from the raw bytes (the coordinator checks the decoded one against it).
  const name = collectionNameOf(body);
  const params = name === undefined ? {} : { collection_name: name };
  const { reply, worker } = await coordinators.handoff({ kind: 'grpc', method, params, body, t0: performance.timeOrigin + performance.now() });
  expect(worker).toBe(0);
  return reply;
}

function decoded(method: GrpcHandoffMethod, reply: GrpcHandoffReply): Record<string, unknown> {
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.message}`);
  return points[method]!.responseDeserialize(Buffer.from(reply.body)) as Record<string, unknown>;
}

beforeAll(async () => {
  q = await startInProcess();
  coordinators = new InProcessCoordinators(q.engine);
  expect((await inject(q.app, 'PUT', '/collections/c', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 })).status).toBe(200);
});
afterAll(async () => {
  await q.close();
});

describe('gRPC hand-off, in process', () => {
  it('upserts, searches, counts and scrolls through the encoded messages', async () => {
    const up = decoded('Upsert', await grpcCall('Upsert', {
      collection_name: 'c',
      wait: true,
      points: [1, 2, 3].map((i) => ({ id: { num: String(i) }, vectors: { vector: { data: [1, i] } } })),
    }));
    expect(up).toMatchObject({ result: { status: 'Completed' } });
    expect(up.time).toBeGreaterThan(0);
    const hits = decoded('Search', await grpcCall('Search', { collection_name: 'c', vector: [0, 1], limit: '2' }));
    expect((hits.result as { id: { num: string }; score: number }[]).map((h) => [h.id.num, h.score])).toEqual([['3', 3], ['2', 2]]);
    expect(decoded('Count', await grpcCall('Count', { collection_name: 'c', exact: true }))).toMatchObject({ result: { count: '3' } });
    const scroll = decoded('Scroll', await grpcCall('Scroll', { collection_name: 'c', limit: 2 }));
    expect((scroll.result as { id: { num: string } }[]).map((p) => p.id.num)).toEqual(['1', '2']);
  });

  it('answers what the service refuses as a wire error, for the main thread to map to a status', async () => {
    expect(await grpcCall('Search', { collection_name: 'nope', vector: [0, 1], limit: '1' })).toEqual({
      ok: false,
      error: { code: 'NotFound', message: 'Collection not found: nope' },
    });
    expect(await grpcCall('Search', { collection_name: 'c', vector: [0, 1, 2], limit: '1' })).toEqual({
      ok: false,
      error: { code: 'BadInput', message: "Dimension mismatch for vector '': expected 2, got 3" },
    });
  });

  it('answers bytes that are no message with BadInput naming the method', async () => {
    const { reply } = await coordinators.handoff({ kind: 'grpc', method: 'Get', params: {}, body: new Uint8Array([0x0a, 0x01, 0x63, 0x7f]), t0: performance.timeOrigin });
    expect(reply).toEqual({ ok: false, error: { code: 'BadInput', message: 'Malformed request message for /qdrant.Points/Get: invalid wire type 7 at offset 4' } });
  });
});
