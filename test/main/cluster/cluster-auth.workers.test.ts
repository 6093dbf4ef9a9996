// Auth held across a cluster (issue 16): three Quiver nodes on one etcd share the auth state
// under /quiver/auth/. The admin made from SERVICE_ADMIN_PASSWORD exists once, a JWT from one
// node works on the others (one secret), the auth switch set on one node holds on all, an API
// key made on one node authenticates on the others (REST and gRPC), keys made at once on two
// nodes get distinct ids, a key deleted on one node is refused on every node, and a key narrowed
// or bound to a tenant on one node holds so on every node (issue 31), its writes guarded through the log.

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

  it('a key narrowed on one node is refused on the others; a tenant-bound key keeps to its tenant on every node', async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    const admin = bearer(jwt);
    expect((await call(a.url, 'PUT', '/collections/tc', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 }, admin)).status).toBe(200);
    const pts = [1, 2, 3, 4].map((id) => ({ id, vector: [1, id], payload: { tenant: id <= 2 ? 'a' : 'b' } }));
    await until('the collection to take writes on C', async () => ((await call(c.url, 'PUT', '/collections/tc/points?wait=true', { points: pts }, admin)).status === 200 ? true : undefined));
    const k = await createKey(a.url, jwt, { scope: [{ collection: 'tc', permission: 'read,write' }] });
    const h = apiKeyHeader(k.api_key);
    const ids = async (n: TestServer, headers = h): Promise<number[] | number> => {
      const r = await call(n.url, 'POST', '/collections/tc/points/scroll', { limit: 100 }, headers);
      return r.status === 200 ? (r.body.result.points as { id: number }[]).map((p) => p.id).sort() : r.status;
    };
    for (const n of [a, b, c]) await until('the scoped key to read tc everywhere', async () => (JSON.stringify(await ids(n)) === '[1,2,3,4]' ? true : undefined));

    // Bound to tenant a on B: B at once, A and C once their watch brings it.
    const narrowed = await call(b.url, 'PATCH', `/auth/api_key/${k.id}`, { scope: [{ collection: 'tc', permission: 'read,write', filter: { must: [{ key: 'tenant', match: { value: 'a' } }] } }] }, admin);
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(await ids(b)).toEqual([1, 2]);
    for (const n of [a, c]) await until('the binding to hold on every node', async () => (JSON.stringify(await ids(n)) === '[1,2]' ? true : undefined));

    // Writes through the log are guarded on every replica alike: refused, skipped, or allowed.
    const before = await ids(a, admin);
    expectDataError(await call(c.url, 'PUT', '/collections/tc/points?wait=true', { points: [{ id: 9, vector: [1, 9], payload: { tenant: 'b' } }] }, h), 403, /^Forbidden: point 9 does not match the tenant filter of API key/);
    expect((await call(c.url, 'POST', '/collections/tc/points/delete?wait=true', { points: [3] }, h)).status).toBe(200);
    expect(await ids(a, admin)).toEqual(before);
    expect((await call(a.url, 'PUT', '/collections/tc/points?wait=true', { points: [{ id: 5, vector: [1, 5], payload: { tenant: 'a' } }] }, h)).status).toBe(200);
    expect(await ids(b, admin)).toEqual([1, 2, 3, 4, 5]);

    // Narrowed to another collection on C: refused on A and B too.
    expect((await call(c.url, 'PATCH', `/auth/api_key/${k.id}`, { scope: [{ collection: 'elsewhere', permission: 'read' }] }, admin)).status).toBe(200);
    for (const n of [a, b]) await until('the narrowed key to be refused on every node', async () => ((await ids(n)) === 403 ? true : undefined));
    expectDataError(await call(a.url, 'POST', '/collections/tc/points/scroll', { limit: 1 }, h), 403, 'Forbidden: this credential has no access to collection "tc"');
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
