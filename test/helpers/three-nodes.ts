// Three Quiver nodes on one etcd member and one nats-server (stream replicas 1), every process
// started by this test on free loopback ports and stopped by its PID: the set-up the 3-node
// control-plane, data-plane, snapshot and cluster-API tests share. (cluster.ts is the fault
// suite's nine processes: 3 etcd, 3 nats, fixed ports per node; this one is lighter.)
// Each node keeps its data dir and internal port across restarts (start(i) again), so it comes
// back as the same peer.

import { Etcd3 } from 'etcd3';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Assignment } from '../../src/shared/cluster/assignments.js';
import { startEtcd, type EtcdCluster } from './etcd.js';
import { startNats, type NatsCluster } from './nats.js';
import { freePorts } from './ports.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from './server.js';

export interface ThreeNodeOptions {
  /** Worker threads per node (default 1). */
  workers?: number;
  /** SERVICE_CLUSTER_LEASE_SECONDS (default 2). */
  leaseSeconds?: number;
  /** SERVICE_CLUSTER_DEAD_GRACE_SECONDS (default 2). */
  deadGraceSeconds?: number;
  /** More environment for every node. */
  env?: Record<string, string>;
}

export interface ThreeNodes {
  etcd: EtcdCluster;
  nats: NatsCluster;
  /** A client on the etcd member (full keys: '/quiver/...'); closed by close(). */
  kv: Etcd3;
  /** The running nodes by index (start(i) replaces entry i; a stopped one stays until then). */
  nodes: TestServer[];
  /** Each node's peer id, by index (kept across restarts: the id is in the data dir). */
  ids: number[];
  dirs: string[];
  /** Each node's internal (cluster) port, kept across restarts. */
  ports: number[];
  /** Starts node i on its data dir and port (again after a stop), waits until ready, and sets nodes[i]. */
  start(i: number, extraEnv?: Record<string, string>): Promise<TestServer>;
  /** The env node i starts with (for a test that starts it by hand, e.g. to see it refuse). */
  envOf(i: number): Record<string, string>;
  /** The JSON value at /quiver/<key>, or null. */
  get<T>(key: string): Promise<T | null>;
  catalogId(name: string): Promise<number>;
  /**
   * Creates a collection of one shard with one replica (2-d Dot vectors), waits until every node
   * reads it, and writes points 1..n with wait=true: the one-replica set-up the move tests share.
   * Its catalog id.
   */
  oneReplicaCollection(name: string, n: number): Promise<number>;
  assignment(collectionId: number, shard: number): Promise<Assignment | null>;
  /** SIGKILL to every node, stops the engines, removes the temp dirs. */
  close(): Promise<void>;
}

/** Polls until probe answers (a value other than undefined); bounds are wide: the machine is shared and busy. */
export async function until<T>(what: string | (() => string), probe: () => Promise<T | undefined>, deadlineMs = 60_000, everyMs = 150): Promise<T> {
  const end = Date.now() + deadlineMs;
  let last: unknown = null;
  for (;;) {
    const v = await probe().catch((e: unknown) => {
      last = e;
      return undefined;
    });
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}${last === null ? '' : ` (last error: ${String(last)})`}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until every node answers a count of the collection: a create answers once the node it
 * went through has the shards placed, and each other node learns of it through its own watch.
 */
export async function readableThroughEvery(urls: readonly string[], name: string): Promise<void> {
  for (const url of urls) {
    await until(`${name} readable through ${url}`, async () => ((await call(url, 'POST', `/collections/${name}/points/count`, { exact: true })).status === 200 ? true : undefined));
  }
}

export async function startThreeNodes(opts: ThreeNodeOptions = {}): Promise<ThreeNodes> {
  const [etcd, nats] = await Promise.all([startEtcd(1), startNats(1)]);
  const kv = new Etcd3({ hosts: etcd.endpoints });
  const dirs: string[] = [];
  const ports: number[] = [];
  const nodes: TestServer[] = [];
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) dirs.push(tempDataDir());
  ports.push(...(await freePorts(3)));
  const envOf = (i: number): Record<string, string> => ({
    SERVICE_CLUSTER_ETCD: etcd.endpoints,
    SERVICE_CLUSTER_NATS: nats.servers,
    SERVICE_CLUSTER_STREAM_REPLICAS: '1',
    SERVICE_CLUSTER_PORT: String(ports[i]),
    SERVICE_CLUSTER_LEASE_SECONDS: String(opts.leaseSeconds ?? 2),
    SERVICE_CLUSTER_DEAD_GRACE_SECONDS: String(opts.deadGraceSeconds ?? 2),
    ...opts.env,
  });
  const get = async <T>(key: string): Promise<T | null> => {
    const v = await kv.get(`/quiver/${key}`).string();
    return v === null ? null : (JSON.parse(v) as T);
  };
  const cluster: ThreeNodes = {
    etcd,
    nats,
    kv,
    nodes,
    ids,
    dirs,
    ports,
    envOf,
    async start(i, extraEnv = {}) {
      const s = await startServer({ dataDir: dirs[i]!, shards: opts.workers ?? 1, env: { ...envOf(i), ...extraEnv } });
      nodes[i] = s;
      return s;
    },
    get,
    async catalogId(name) {
      return (await get<{ id: number }>(`catalog/${name}`))!.id;
    },
    async oneReplicaCollection(name, n) {
      const client = new QdrantClient({ url: nodes[0]!.url });
      await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' }, shard_number: 1, replication_factor: 1 });
      const id = await cluster.catalogId(name);
      await readableThroughEvery(nodes.map((n) => n.url), name);
      const r = await client.upsert(name, { wait: true, points: Array.from({ length: n }, (_, i) => ({ id: i + 1, vector: [1, i] })) });
      if (r.status !== 'completed') throw new Error(`upsert into ${name} answered ${r.status}`);
      return id;
    },
    assignment(collectionId, shard) {
      return get<Assignment>(`assign/${collectionId}/${shard}`);
    },
    async close() {
      // A start that failed leaves a hole.
      for (const n of nodes) if (n !== undefined) await n.stop('SIGKILL');
      kv.close();
      await Promise.all([etcd.stop(), nats.close()]);
      for (const d of dirs) removeDir(d);
    },
  };
  try {
    // Every start settles before a failure closes the cluster: close() stops only the nodes that
    // are in nodes[], so one still starting when another failed would be left running.
    const started = await Promise.allSettled([0, 1, 2].map((i) => cluster.start(i)));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    for (const n of nodes) ids.push(Number((await call(n.url, 'GET', '/cluster')).body.result.peer_id));
    // Every node registered: placement sees three live nodes.
    await until('three nodes registered', async () => ((await kv.getAll().prefix('/quiver/nodes/').keys()).length === 3 ? true : undefined));
  } catch (e) {
    await cluster.close().catch(() => undefined);
    throw e;
  }
  return cluster;
}
