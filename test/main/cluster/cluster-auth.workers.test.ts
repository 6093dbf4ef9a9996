// Auth held across a cluster (issue 16): three Quiver nodes on one etcd share the auth state
// under /quiver/auth/. The admin made from SERVICE_ADMIN_PASSWORD exists once, a JWT from one
// node works on the others (one secret), the auth switch set on one node holds on all, an API
// key made on one node authenticates on the others (REST and gRPC), keys made at once on two
// nodes get distinct ids, and a key deleted on one node is refused on every node.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { ADMIN_PASSWORD, apiKeyHeader, bearer, createKey, expectDataError, login, setEnabled } from '../../helpers/auth.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { failure, grpcClient } from '../../helpers/grpc.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';
import { freePorts } from '../../helpers/ports.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';

/** Polls until probe answers; the bound is wide for a busy machine (the change is watch-driven). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const statusOn = async (n: TestServer, headers: Record<string, string> = {}): Promise<number> => (await call(n.url, 'GET', '/collections', undefined, headers)).status;

describe.skipIf(etcdMissing() !== null)('auth across three nodes', () => {
  let etcd: EtcdCluster;
  let nats: NatsCluster;
  const dirs: string[] = [];
  let nodes: TestServer[] = [];
  const envs: Record<string, string>[] = [];
  beforeAll(async () => {
    [etcd, nats] = await Promise.all([startEtcd(1), startNats(1)]);
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) dirs.push(tempDataDir());
    ports.push(...(await freePorts(3)));
    for (let i = 0; i < 3; i++) {
      envs.push({
        SERVICE_CLUSTER_ETCD: etcd.endpoints,
        SERVICE_CLUSTER_NATS: nats.servers,
        SERVICE_CLUSTER_STREAM_REPLICAS: '1',
        SERVICE_CLUSTER_PORT: String(ports[i]),
        SERVICE_CLUSTER_LEASE_SECONDS: '2',
        // Every node is given the password: the admin is created once, by whichever gets there first.
        SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      });
    }
    nodes = await Promise.all(dirs.map((dataDir, i) => startServer({ dataDir, shards: 1, env: envs[i]! })));
  });
  afterAll(async () => {
    for (const n of nodes) await n.stop('SIGKILL');
    await Promise.all([etcd?.stop(), nats?.close()]);
    for (const d of dirs) removeDir(d);
  });

  let jwt = '';

  it("a JWT from one node works on another (one secret, one admin), and the switch set there holds on every node", async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    jwt = await login(a.url);
    // Set on B with A's JWT: B checks it with the shared secret and the shared admin's password epoch.
    await setEnabled(b.url, jwt, true);
    for (const n of [a, b, c]) await until('auth to be enabled on every node', async () => ((await statusOn(n)) === 401 ? true : undefined));
    expectDataError(await call(c.url, 'GET', '/collections'), 401, 'Must provide an API key or an Authorization bearer token');
    expect(await statusOn(c, bearer(jwt))).toBe(200);
  });

  let key = { id: 0, api_key: '' };

  it('an API key created on one node authenticates on the others, over REST and gRPC', async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    key = await createKey(a.url, jwt, { name: 'shared', permission: 'read' });
    for (const n of [b, c]) await until('the key to work on every node', async () => ((await statusOn(n, apiKeyHeader(key.api_key))) === 200 ? true : undefined));
    expect(await statusOn(a, apiKeyHeader(key.api_key))).toBe(200);
    const listed = await call(c.url, 'GET', '/auth/api_keys', undefined, bearer(jwt));
    expect(listed.body.map((k: { id: number; name: string }) => [k.id, k.name])).toContainEqual([key.id, 'shared']);
    const g = grpcClient(c, { apiKey: key.api_key });
    expect((await g.api('collections').list({})).collections).toEqual([]);
    // Its rights hold there too: a read key cannot create a collection.
    expectDataError(await call(b.url, 'PUT', '/collections/k', { vectors: { size: 2, distance: 'Dot' } }, apiKeyHeader(key.api_key)), 403, 'Forbidden: this access token lacks the write permission');
  });

  it('keys created at once on two nodes get distinct ids, and both work everywhere', async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    const made = await Promise.all([a, b, a, b].map((n, i) => createKey(n.url, jwt, { name: `racer${i}`, permission: 'read' })));
    expect(new Set(made.map((k) => k.id)).size).toBe(4);
    for (const k of made) await until('each raced key to work on C', async () => ((await statusOn(c, apiKeyHeader(k.api_key))) === 200 ? true : undefined));
  });

  it('a key deleted on one node is refused on every node', async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    const r = await call(c.url, 'DELETE', `/auth/api_key/${key.id}`, undefined, bearer(jwt));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Refused at once on the node that deleted it; on the others as soon as their watch brings it.
    expectDataError(await call(c.url, 'GET', '/collections', undefined, apiKeyHeader(key.api_key)), 401, 'Invalid API key or JWT');
    for (const n of [a, b]) await until('the deleted key to be refused on every node', async () => ((await statusOn(n, apiKeyHeader(key.api_key))) === 401 ? true : undefined));
    const g = grpcClient(a, { apiKey: key.api_key });
    const f = await failure(g.api('collections').list({}));
    expect(f.code).toBe(Code.Unauthenticated);
    // Deleting it again, anywhere: 404.
    const again = await call(b.url, 'DELETE', `/auth/api_key/${key.id}`, undefined, bearer(jwt));
    expect(again.status).toBe(404);
  });

  it('a node restarted keeps the shared state (keys made while it was down work on it)', async () => {
    const [a, b] = nodes as [TestServer, TestServer, TestServer];
    await a.stop('SIGKILL');
    const later = await createKey(b.url, jwt, { name: 'while-a-was-down', permission: 'read' });
    const again = await startServer({ dataDir: a.dataDir, shards: 1, env: envs[0]! });
    nodes[0] = again;
    await until('the key made while A was down to work on A', async () => ((await statusOn(again, apiKeyHeader(later.api_key))) === 200 ? true : undefined));
    expect(await statusOn(again)).toBe(401);
  });
});
