// gRPC beside the server's lifecycle and auth: the port is bound at start and answers
// FAILED_PRECONDITION 'Engine not initialized' until every shard is loaded (the health check
// excepted); credentials in metadata (`api-key`, `authorization: Bearer`) are checked by the
// same permission table as REST.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectErrorCode as Code, Distance } from '@qdrant/js-client-grpc';
import { afterAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, id, payload, vectors } from '../helpers/grpc.js';
import { sample, scrape } from '../helpers/metrics.js';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('readiness', () => {
  it('answers FAILED_PRECONDITION until the engine is ready, and the health check at once', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startServer({ dataDir });
    const c1 = grpcClient(first);
    const N = 20_000;
    const DIM = 48;
    const data = randomVectors(N, DIM, 21);
    await c1.api('collections').create({ collectionName: 'load', vectorsConfig: { config: { case: 'params', value: { size: BigInt(DIM), distance: Distance.Cosine } } }, shardNumber: 2 });
    for (let i = 0; i < N; i += 2000) {
      await c1.api('points').upsert({ collectionName: 'load', wait: true, points: data.slice(i, i + 2000).map((v, j) => ({ id: id(i + j), vectors: vectors(v) })) });
    }
    expect(await first.stop()).toBe(0);
    // Without the saved HNSW graphs the next start rebuilds them, which takes long enough to watch.
    rmSync(join(dataDir, 'hnsw'), { recursive: true, force: true });

    const second = await startServer({ dataDir, waitReady: false });
    try {
      const c2 = grpcClient(second);
      const early = await failure(c2.api('collections').list({}));
      expect(early).toEqual({ code: Code.FailedPrecondition, message: 'Engine not initialized' });
      expect((await c2.api('service').healthCheck({})).version).toBe('1.19.0');
      // REST too: data routes 412, while the metrics that watch the load answer.
      expect((await call(second.url, 'GET', '/collections')).status).toBe(412);
      expect(sample(await scrape(second.url), 'quiver_engine_ready')).toBe(0);
      await second.ready;
      expect(sample(await scrape(second.url), 'quiver_engine_ready')).toBe(1);
      expect((await c2.api('points').count({ collectionName: 'load' })).result?.count).toBe(BigInt(N));
    } finally {
      await second.stop();
    }
  });
});

describe('auth', () => {
  let server: TestServer;
  const password = 'Correct-Horse-9-Battery';

  async function rest(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
    const r = await call(server.url, method, path, body, token === undefined ? {} : { authorization: `Bearer ${token}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as Record<string, unknown>;
  }

  afterAll(async () => {
    await server?.stop();
  });

  it('checks api-key and bearer credentials against the permission table', async () => {
    server = await startServer({ env: { SERVICE_ADMIN_PASSWORD: password } });
    dirs.push(server.dataDir);
    const open = grpcClient(server);
    await open.api('collections').create({ collectionName: 'a', vectorsConfig: { config: { case: 'params', value: { size: 2n, distance: Distance.Dot } } } });

    const jwt = (await rest('POST', '/auth/login', { username: 'admin', password })).token as string;
    await rest('PATCH', '/auth/enabled', { enabled: true }, jwt);
    const readKey = (await rest('POST', '/auth/api_key', { name: 'r', permission: 'read' }, jwt)).api_key as string;
    const writeKey = (await rest('POST', '/auth/api_key', { name: 'w', permission: 'read,write' }, jwt)).api_key as string;

    // No credential: UNAUTHENTICATED, but the health check stays open.
    expect((await failure(open.api('collections').list({}))).code).toBe(Code.Unauthenticated);
    expect((await open.api('service').healthCheck({})).version).toBe('1.19.0');
    // A wrong key: UNAUTHENTICATED.
    expect((await failure(grpcClient(server, { apiKey: 'qvk_' + 'A'.repeat(43) }).api('collections').list({}))).code).toBe(Code.Unauthenticated);

    // A read key reads, and may not write: PERMISSION_DENIED, before the request is read.
    const reader = grpcClient(server, { apiKey: readKey });
    expect((await reader.api('collections').list({})).collections.map((c) => c.name)).toContain('a');
    const denied = await failure(reader.api('points').upsert({ collectionName: 'a', points: [{ id: id(1), vectors: vectors([1, 2]) }] }));
    expect(denied.code).toBe(Code.PermissionDenied);

    // Refused on its metadata, an upload larger than the client's HTTP/2 session memory (10 MB)
    // still gets its status rather than a reset stream, and the connection goes on serving.
    const blob = 'x'.repeat(8 * 1024);
    const big = Array.from({ length: 12 * 128 }, (_, i) => ({ id: id(i), vectors: vectors([1, i]), payload: payload({ blob }) }));
    const bigReader = grpcClient(server, { apiKey: readKey, compression: false });
    expect(await failure(bigReader.api('points').upsert({ collectionName: 'a', points: big }))).toEqual(denied);
    expect((await bigReader.api('points').count({ collectionName: 'a' })).result?.count).toBe(0n);
    const bigAnonymous = grpcClient(server, { compression: false });
    expect((await failure(bigAnonymous.api('points').upsert({ collectionName: 'a', points: big }))).code).toBe(Code.Unauthenticated);

    // A write key writes; an admin JWT as a bearer token may do everything.
    const writer = grpcClient(server, { apiKey: writeKey });
    expect((await writer.api('points').upsert({ collectionName: 'a', wait: true, points: [{ id: id(1), vectors: vectors([1, 2]) }] })).result).toBeDefined();
    const admin = grpcClient(server, { headers: { authorization: `Bearer ${jwt}` } });
    expect((await admin.api('points').count({ collectionName: 'a' })).result?.count).toBe(1n);
  });
});
