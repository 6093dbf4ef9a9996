// Three Quiver nodes (1 worker each, 2 s leases) on one etcd: each node's GET /cluster shows all
// three and the same controller; kill -9 of the controller elects another once its leases lapse
// and drops it from the peers; a node paused (SIGSTOP) past its lease refuses data requests with
// 503 and Retry-After when it resumes, until it has registered again, then serves.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { failure, grpcClient } from '../../helpers/grpc.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { freePorts } from '../../helpers/ports.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

interface ClusterResult {
  peer_id: number;
  peers: Record<string, { uri: string }>;
  raft_info: { leader: number | null; role: string | null };
}

async function clusterOf(s: TestServer): Promise<ClusterResult | undefined> {
  try {
    const r = await call(s.url, 'GET', '/cluster');
    return r.status === 200 ? (r.body.result as ClusterResult) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls until probe answers; the bound is a lease TTL plus a wide margin for a busy machine. */
async function until<T>(what: string | (() => string), probe: () => Promise<T | undefined>, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every node's view, once all of them list exactly `ids` and agree on a controller among them. */
async function agreed(nodes: TestServer[], ids: number[]): Promise<ClusterResult[]> {
  const want = ids.map(String).sort();
  let last: unknown = null;
  const events = (): string[] => nodes.map((n) => n.logs.filter((l) => /cluster[:]| failed|retrying/.test(l)).join('\n'));
  return until(() => `${nodes.length} nodes to agree on peers ${want.join(',')} and a controller (last seen: ${JSON.stringify(last)}; events: ${JSON.stringify(events())})`, async () => {
    const views = await Promise.all(nodes.map(clusterOf));
    last = views.map((v) => v && { peer_id: v.peer_id, peers: Object.keys(v.peers), leader: v.raft_info.leader });
    if (views.some((v) => v === undefined)) return undefined;
    const vs = views as ClusterResult[];
    const leader = vs[0]!.raft_info.leader;
    const ok = vs.every((v) => JSON.stringify(Object.keys(v.peers).sort()) === JSON.stringify(want) && v.raft_info.leader === leader) && leader !== null && ids.includes(leader);
    return ok ? vs : undefined;
  });
}

describe.skipIf(etcdMissing() !== null)('three nodes', () => {
  let etcd: EtcdCluster;
  let nats: NatsCluster;
  const dirs: string[] = [];
  let nodes: TestServer[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    [etcd, nats] = await Promise.all([startEtcd(1), startNats(1)]);
    for (let i = 0; i < 3; i++) dirs.push(tempDataDir());
    ports.push(...(await freePorts(3)));
    nodes = await Promise.all(
      dirs.map((dataDir, i) =>
        startServer({ dataDir, shards: 1, env: { SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_STREAM_REPLICAS: '1', SERVICE_CLUSTER_PORT: String(ports[i]), SERVICE_CLUSTER_LEASE_SECONDS: '2' } }),
      ),
    );
  });
  afterAll(async () => {
    for (const n of nodes) {
      if (n.proc.signalCode === null && n.proc.exitCode === null) n.proc.kill('SIGCONT');
      await n.stop('SIGKILL');
    }
    await Promise.all([etcd?.stop(), nats?.close()]);
    for (const d of dirs) removeDir(d);
  });

  let ids: number[] = [];

  it('every node lists the three peers with their uris, and all name the same controller; exactly one is Leader', async () => {
    ids = (await Promise.all(nodes.map(clusterOf))).map((v) => v!.peer_id);
    expect(new Set(ids).size).toBe(3);
    const views = await agreed(nodes, ids);
    for (const v of views) {
      for (let i = 0; i < 3; i++) expect(v.peers[String(ids[i])]).toEqual({ uri: `http://127.0.0.1:${ports[i]}/` });
    }
    expect(views.filter((v) => v.raft_info.role === 'Leader').map((v) => v.peer_id)).toEqual([views[0]!.raft_info.leader]);
    expect(views.filter((v) => v.raft_info.role === 'Follower')).toHaveLength(2);
  });

  it('kill -9 of the controller: the others elect a new one among themselves and drop it from the peers', async () => {
    const leader = (await clusterOf(nodes[0]!))!.raft_info.leader!;
    const i = ids.indexOf(leader);
    await nodes[i]!.stop('SIGKILL');
    const rest = nodes.filter((_, j) => j !== i);
    const restIds = ids.filter((_, j) => j !== i);
    const views = await agreed(rest, restIds);
    expect(views[0]!.raft_info.leader).not.toBe(leader);
    expect(views.filter((v) => v.raft_info.role === 'Leader')).toHaveLength(1);
    nodes = rest;
    ids = restIds;
  });

  it('a node paused past its lease answers 503 with Retry-After (gRPC: UNAVAILABLE) on resuming, until registered again, then serves', async () => {
    const [paused, other] = [nodes[0]!, nodes[1]!];
    expect((await call(paused.url, 'GET', '/collections')).status).toBe(200);
    // A gRPC connection opened before the pause, for a call sent during it.
    const g = grpcClient(paused);
    await g.api('collections').list({});
    paused.proc.kill('SIGSTOP');
    // Gone from the other node's view once its lease lapsed.
    await until('the paused node to leave the peers', async () => {
      const v = await clusterOf(other);
      return v !== undefined && !(String(ids[0]) in v.peers) ? v : undefined;
    });
    // Sent while it is stopped: the request waits in the socket and is the first thing it reads.
    const pending = fetch(`${paused.url}/collections/anything/exists`);
    // The gRPC call's frames may be read after the node has registered again (HTTP/2 takes more
    // turns than the REST request, which is read first, and a loaded machine can let the etcd
    // thread's new lease land in between): then it is served, which is right. When it is refused,
    // it is as REST is.
    const pendingGrpc = failure(g.api('collections').list({})).catch(() => null);
    await new Promise((r) => setTimeout(r, 200));
    paused.proc.kill('SIGCONT');
    const grpcRefused = await pendingGrpc;
    if (grpcRefused !== null) {
      expect(grpcRefused.code).toBe(Code.Unavailable);
      expect(grpcRefused.message).toMatch(/^This node is not serving: /);
    }
    const refused = await pending;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { status: { error: string } };
    expect(body.status.error).toMatch(/^This node is not serving: /);
    await until('the resumed node to serve again', async () => ((await call(paused.url, 'GET', '/collections')).status === 200 ? true : undefined));
    await agreed(nodes, ids);
    expect(paused.logs.some((l) => l.includes('cluster: lease lost'))).toBe(true);
  });
});
