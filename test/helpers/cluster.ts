// The nine processes of docs/cluster.md section 10 on loopback: 3 nats-servers (one JetStream
// cluster), 3 etcd members and 3 Quiver nodes (1 worker each, its own data dir, a 4 s lease,
// fixed REST, gRPC and internal ports so a restarted node keeps its address). Machine i is
// nats-server i, etcd member i and Quiver node i. Every process is killed, paused, resumed or
// restarted by its PID only: other engineers' servers run on the same machine.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Etcd3, type Namespace } from 'etcd3';
import { startEtcd, type EtcdCluster } from './etcd.js';
import { startNats, type NatsCluster } from './nats.js';
import { freePorts } from './ports.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from './server.js';

export interface QuiverNode {
  index: number;
  dataDir: string;
  restPort: number;
  grpcPort: number;
  clusterPort: number;
  url: string;
  /** null while the node is down. */
  server: TestServer | null;
  /** Every log line of every run of this node (the runs separated by a marker line). */
  logs: string[];
}

export interface ClusterOptions {
  /** Lease TTL of every node, seconds (default 2, as docs/cluster.md section 10). */
  leaseSeconds?: number;
  /** Extra environment for every node (e.g. a shorter dead-replica grace). */
  env?: Record<string, string>;
}

export interface TestCluster {
  nats: NatsCluster;
  etcd: EtcdCluster;
  nodes: QuiverNode[];
  leaseSeconds: number;
  /** Starts node i (stopped, killed or never started) on its data dir and ports; resolves when ready. */
  startNode(i: number): Promise<void>;
  /** A signal to node i (SIGKILL is kill -9), resolving when it has exited. */
  stopNode(i: number, signal?: NodeJS.Signals): Promise<void>;
  pauseNode(i: number): void;
  resumeNode(i: number): void;
  /** Node i's peer id (the `node-id` file in its data dir, written at its first start). */
  nodeId(i: number): number;
  /** The index of the node GET /cluster names as controller (raft_info.leader), asked of live nodes; null when none agree yet. */
  controller(): Promise<number | null>;
  /** The index of the etcd member that leads. */
  etcdLeader(): Promise<number>;
  /** The index of the nats-server leading a stream's Raft group, or null. */
  streamLeader(stream: string): Promise<number | null>;
  /** A client on the live etcd members, namespaced to /quiver/ as the nodes use it (closed by the caller). */
  etcdClient(): { client: Etcd3; ns: Namespace };
  /** kill -9 of all nine processes at once. */
  killAll(): Promise<void>;
  /** Starts every engine process that is down, then every node that is down. */
  restartAll(): Promise<void>;
  /** Kills everything still running (SIGCONT first for paused ones) and removes the temp dirs. */
  close(): Promise<void>;
}

async function attempts<T>(n: number, start: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await start();
    } catch (e) {
      if (i === n) throw e;
    }
  }
}

function running(s: TestServer | null): s is TestServer {
  return s !== null && s.proc.exitCode === null && s.proc.signalCode === null;
}

export async function startCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  // 4 s, not docs/cluster.md section 10's second: killing etcd's leader left keep-alives unanswered for 2.0-2.4 s on this
  // 2-core machine (election timeout 1 s, then the vote), so a 2 s lease lapsed on every node and
  // scenario 4 could not be free of query errors. Production's default is 10 s.
  const leaseSeconds = opts.leaseSeconds ?? 4;
  // A port chosen free may be taken by another process before the engine binds it (other tests
  // run on this machine): a start that fails is tried again on new ports.
  const [nats, etcd] = await Promise.all([attempts(3, () => startNats(3)), attempts(3, () => startEtcd(3))]);
  const nodes: QuiverNode[] = [];
  const ports = await freePorts(9);
  for (let i = 0; i < 3; i++) {
    const [restPort, grpcPort, clusterPort] = ports.slice(3 * i, 3 * i + 3) as [number, number, number];
    nodes.push({ index: i, dataDir: tempDataDir(), restPort, grpcPort, clusterPort, url: `http://127.0.0.1:${restPort}`, server: null, logs: [] });
  }
  const envOf = (n: QuiverNode): Record<string, string> => ({
    SERVICE_CLUSTER_ETCD: etcd.endpoints,
    SERVICE_CLUSTER_NATS: nats.servers,
    SERVICE_CLUSTER_PORT: String(n.clusterPort),
    SERVICE_CLUSTER_LEASE_SECONDS: String(leaseSeconds),
    SERVICE_CLUSTER_STREAM_REPLICAS: '3',
    SERVICE_REST_PORT: String(n.restPort),
    SERVICE_GRPC_PORT: String(n.grpcPort),
    ...opts.env,
  });
  const etcdIndex = (name: string): number => etcd.members.findIndex((m) => m.name === name);

  const cluster: TestCluster = {
    nats,
    etcd,
    nodes,
    leaseSeconds,
    async startNode(i) {
      const n = nodes[i]!;
      if (running(n.server)) return;
      n.logs.push(`----- start ${new Date().toISOString()}`);
      const s = await startServer({ dataDir: n.dataDir, shards: 1, env: envOf(n), waitReady: false }).catch((e: unknown) => {
        n.logs.push(String(e));
        throw e;
      });
      // The server's own array keeps this run's lines; ours keeps every run's for the artifacts.
      const push = s.logs.push.bind(s.logs);
      n.logs.push(...s.logs);
      s.logs.push = (...lines: string[]): number => {
        n.logs.push(...lines);
        if (n.logs.length > 20_000) n.logs.splice(0, n.logs.length - 20_000);
        return push(...lines);
      };
      n.server = s;
      const exit = new Promise<never>((_, rej) =>
        s.proc.once('exit', (code, sig) => rej(new Error(`node ${i} exited (${code ?? sig}) before ready:\n${s.logs.slice(-40).join('\n')}`))),
      );
      exit.catch(() => undefined);
      await Promise.race([s.ready, exit]);
    },
    async stopNode(i, signal = 'SIGTERM') {
      const n = nodes[i]!;
      const s = n.server;
      if (s === null) return;
      if (running(s) && signal === 'SIGKILL') s.proc.kill('SIGCONT');
      // A node that does not finish a SIGTERM within 30 s is killed, and says so in its log.
      const exited = s.stop(signal);
      const late = setTimeout(() => {
        n.logs.push(`----- no exit 30 s after ${signal}: SIGKILL`);
        s.proc.kill('SIGKILL');
      }, 30_000);
      await exited;
      clearTimeout(late);
      n.server = null;
    },
    pauseNode(i) {
      nodes[i]!.server?.proc.kill('SIGSTOP');
    },
    resumeNode(i) {
      nodes[i]!.server?.proc.kill('SIGCONT');
    },
    nodeId(i) {
      return Number(readFileSync(join(nodes[i]!.dataDir, 'node-id'), 'utf8').trim());
    },
    async controller() {
      for (const n of nodes) {
        if (!running(n.server)) continue;
        try {
          const r = await call(n.url, 'GET', '/cluster');
          const leader = r.status === 200 ? (r.body.result?.raft_info?.leader as number | null | undefined) : undefined;
          if (typeof leader !== 'number') continue;
          const i = nodes.findIndex((_, j) => cluster.nodeId(j) === leader);
          if (i >= 0) return i;
        } catch {
          // this node does not answer: ask the next
        }
      }
      return null;
    },
    async etcdLeader() {
      return etcdIndex((await etcd.leader()).name);
    },
    streamLeader(stream) {
      return nats.streamLeader(stream);
    },
    etcdClient() {
      const hosts = etcd.members.filter((m) => m.proc !== null).map((m) => m.clientUrl);
      const client = new Etcd3({ hosts, dialTimeout: 2000 });
      return { client, ns: client.namespace('/quiver/') };
    },
    async killAll() {
      await Promise.all([
        ...nodes.map((_, i) => cluster.stopNode(i, 'SIGKILL')),
        ...nats.nodes.map((_, i) => {
          nats.resume(i);
          return nats.kill(i);
        }),
        ...etcd.members.map((m) => etcd.stopMember(m, 'SIGKILL')),
      ]);
    },
    async restartAll() {
      // etcd members and nats-servers come back together: one alone has no quorum to report healthy.
      await Promise.all([
        ...etcd.members.filter((m) => m.proc === null).map((m) => etcd.restartMember(m)),
        ...nats.nodes.map((n, i) => (n.proc === null || n.proc.exitCode !== null || n.proc.signalCode !== null ? nats.start(i) : Promise.resolve())),
      ]);
      await Promise.all(nodes.map((_, i) => cluster.startNode(i)));
    },
    async close() {
      for (let i = 0; i < nodes.length; i++) await cluster.stopNode(i, 'SIGKILL').catch(() => undefined);
      await nats.close();
      await etcd.stop();
      for (const n of nodes) removeDir(n.dataDir);
    },
  };
  try {
    await Promise.all(
      nodes.map(async (n, i) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await cluster.startNode(i);
          } catch (e) {
            // Its first start only: later ones must keep the address the workload and peers know.
            if (attempt === 3 || n.logs.every((l) => !/EADDRINUSE/.test(l))) throw e;
            await cluster.stopNode(i, 'SIGKILL');
            [n.restPort, n.grpcPort, n.clusterPort] = (await freePorts(3)) as [number, number, number];
            n.url = `http://127.0.0.1:${n.restPort}`;
          }
        }
      }),
    );
  } catch (e) {
    await cluster.close();
    throw e;
  }
  return cluster;
}
