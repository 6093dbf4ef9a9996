// Real nats-server processes for tests: a 1- or 3-server JetStream cluster on free loopback ports
// with temp dirs, each started from its own config file and stopped, killed or paused by its PID
// (never by name: other engineers' servers run on the same machine). Resolves once JetStream
// answers an account-info call, which needs a meta leader.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePorts } from './ports.js';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? 'nats-server';

export interface NatsNode {
  name: string;
  /** Client port, monitor (http) port and cluster (route) port. */
  port: number;
  httpPort: number;
  clusterPort: number;
  url: string;
  configFile: string;
  storeDir: string;
  proc: ChildProcess | null;
  logs: string[];
}

export interface NatsCluster {
  nodes: NatsNode[];
  /** Every server's client URL, comma-separated: the form SERVICE_CLUSTER_NATS takes. */
  servers: string;
  dir: string;
  /** Starts a stopped or killed server again on the same ports and store dir. */
  start(i: number): Promise<void>;
  /** SIGTERM (or the signal given) to one server, resolving when it has exited. */
  stop(i: number, signal?: NodeJS.Signals): Promise<void>;
  kill(i: number): Promise<void>;
  pause(i: number): void;
  resume(i: number): void;
  /** A client connection to every server (closed by the caller). */
  connect(): Promise<NatsConnection>;
  /** Index of the server that leads the stream's Raft group (null: none known). Retries while NATS elects. */
  streamLeader(stream: string): Promise<number | null>;
  /** The stream's last sequence. Retries while NATS elects. */
  lastSeq(stream: string): Promise<number>;
  /** Stops every server and removes the temp dir. */
  close(): Promise<void>;
}

/**
 * A cluster name of its own per test cluster: a server retrying a route to a port that a cluster
 * of another test file (same machine, same moment) has since bound would otherwise join that
 * cluster (same name, same server names), and JetStream then refused to place streams for a whole
 * minute ("no suitable peers for placement", seen twice in clean-clone CI runs).
 */
function clusterName(dir: string): string {
  return `qv-test-${basename(dir).replace(/[^A-Za-z0-9]/g, '')}`;
}

function configText(node: NatsNode, peers: NatsNode[], clustered: boolean, name: string): string {
  const lines = [
    `server_name: ${node.name}`,
    `listen: 127.0.0.1:${node.port}`,
    `http: 127.0.0.1:${node.httpPort}`,
    // QUIVER_NATS_SYNC=always: every write flushed before it is acknowledged (README, "The write log").
    `jetstream { store_dir: ${JSON.stringify(node.storeDir)}${process.env.QUIVER_NATS_SYNC ? `, sync_interval: ${process.env.QUIVER_NATS_SYNC}` : ''} }`,
  ];
  // QUIVER_NATS_DEBUG=1: the servers log their raft elections (the fault suite keeps the logs).
  if (process.env.QUIVER_NATS_DEBUG === '1') lines.push('debug: true');
  if (clustered) {
    const routes = peers.filter((p) => p !== node).map((p) => `nats-route://127.0.0.1:${p.clusterPort}`);
    lines.push(`cluster { name: ${name}, listen: 127.0.0.1:${node.clusterPort}, routes: [${routes.join(', ')}] }`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Until a stream of `replicas` replicas can be created (then it is deleted again): nats-server 2.10
 * places a replicated stream only on servers its meta leader has seen online, which can lag the
 * servers' own readiness; a fault run's node once spent its whole 30 s start-up window on
 * 'no suitable peers for placement'. Nodes are started on a NATS that can place their streams.
 */
async function placesReplicas(cluster: NatsCluster, replicas: number, timeoutMs: number, logs: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nc = await cluster.connect();
  try {
    const jsm = await jetstreamManager(nc, { timeout: 2000 });
    let last: unknown = null;
    while (Date.now() < deadline) {
      try {
        await jsm.streams.add({ name: 'QV_TEST_PLACEMENT', subjects: ['qv-test.placement'], num_replicas: replicas });
        await jsm.streams.delete('QV_TEST_PLACEMENT');
        return;
      } catch (err) {
        last = err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new PlacementRefused(`NATS could not place a stream of ${replicas} replicas within ${timeoutMs} ms (${String(last)}):\n${logs()}`);
  } finally {
    await nc.close();
  }
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((res) => proc.once('exit', () => res()));
}

/** Waits until JetStream answers (a meta leader exists), retrying for `timeoutMs`. */
async function jetStreamReady(servers: string[], timeoutMs: number, logs: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    let nc: NatsConnection | null = null;
    try {
      // Only the servers named, never others the cluster gossips: each server is checked itself.
      nc = await connect({ servers, timeout: 1000, reconnect: false, ignoreClusterUpdates: true });
      const jsm = await jetstreamManager(nc, { timeout: 1000 });
      await jsm.getAccountInfo();
      return;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await nc?.close().catch(() => undefined);
    }
  }
  throw new Error(`JetStream not ready after ${timeoutMs} ms: ${String(last)}\n${logs()}`);
}

/**
 * A NATS cluster whose JetStream can place a stream of `size` replicas. A cluster whose meta
 * leader still refuses placement after PLACEMENT_WAIT_MS is stopped and a fresh one started, at
 * most PLACEMENT_ATTEMPTS times: clean-clone CI runs (two cluster files at once on 2 cores) saw
 * a cluster refuse placement for a whole minute ("no suitable peers for placement") although its
 * meta leader was elected within 1 s, while a fresh cluster places streams within a second.
 */
export async function startNats(size: 1 | 3 = 1): Promise<NatsCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNatsOnce(size);
    } catch (err) {
      if (size === 1 || attempt >= PLACEMENT_ATTEMPTS || !(err instanceof PlacementRefused)) throw err;
      process.stderr.write(`test NATS cluster refused placement for ${PLACEMENT_WAIT_MS} ms; starting a fresh one (attempt ${attempt + 1} of ${PLACEMENT_ATTEMPTS})\n`);
    }
  }
}

const PLACEMENT_WAIT_MS = 20_000;
const PLACEMENT_ATTEMPTS = 3;

class PlacementRefused extends Error {}

async function startNatsOnce(size: 1 | 3): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-nats-'));
  const nodes: NatsNode[] = [];
  const ports = await freePorts(3 * size);
  for (let i = 0; i < size; i++) {
    const [clientPort, httpPort, clusterPort] = ports.slice(3 * i, 3 * i + 3) as [number, number, number];
    nodes.push({
      name: `n${i + 1}`,
      port: clientPort,
      httpPort,
      clusterPort,
      url: `nats://127.0.0.1:${clientPort}`,
      configFile: join(dir, `n${i + 1}.conf`),
      storeDir: join(dir, `n${i + 1}`),
      proc: null,
      logs: [],
    });
  }
  for (const n of nodes) writeFileSync(n.configFile, configText(n, nodes, size > 1, clusterName(dir)));
  const urls = nodes.map((n) => n.url);
  const allLogs = () => nodes.map((n) => `--- ${n.name}\n${n.logs.slice(-30).join('')}`).join('\n');

  const spawnNode = (n: NatsNode): void => {
    const proc = spawn(NATS_SERVER_BIN, ['-c', n.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d: Buffer) => n.logs.push(d.toString()));
    proc.stderr!.on('data', (d: Buffer) => n.logs.push(d.toString()));
    n.proc = proc;
  };

  // Stream info, retried for a while: right after a server is killed the request may time out.
  const streamInfo = async (stream: string): Promise<StreamInfo> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const nc = await cluster.connect();
      try {
        return await (await jetstreamManager(nc, { timeout: 2000 })).streams.info(stream);
      } catch (err) {
        if (Date.now() > deadline) throw err;
      } finally {
        await nc.close();
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const cluster: NatsCluster = {
    nodes,
    servers: urls.join(','),
    dir,
    async start(i) {
      const n = nodes[i]!;
      if (n.proc !== null && n.proc.exitCode === null && n.proc.signalCode === null) return;
      spawnNode(n);
      await jetStreamReady([n.url], 15_000, allLogs);
    },
    async stop(i, signal = 'SIGTERM') {
      const p = nodes[i]!.proc;
      if (p === null) return;
      if (p.exitCode === null && p.signalCode === null) p.kill(signal);
      await exited(p);
    },
    kill(i) {
      return cluster.stop(i, 'SIGKILL');
    },
    pause(i) {
      nodes[i]!.proc?.kill('SIGSTOP');
    },
    resume(i) {
      nodes[i]!.proc?.kill('SIGCONT');
    },
    connect() {
      return connect({ servers: urls, timeout: 2000 });
    },
    async streamLeader(stream) {
      const leader = (await streamInfo(stream)).cluster?.leader;
      if (leader === undefined) return null;
      const i = nodes.findIndex((n) => n.name === leader);
      return i < 0 ? null : i;
    },
    async lastSeq(stream) {
      return (await streamInfo(stream)).state.last_seq;
    },
    async close() {
      for (const n of nodes) {
        const p = n.proc;
        if (p === null) continue;
        if (p.signalCode === null && p.exitCode === null) {
          p.kill('SIGCONT');
          p.kill('SIGKILL');
        }
        await exited(p);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  for (const n of nodes) spawnNode(n);
  try {
    // Every server, each on its own: a cluster missing one would pass a check through any of them.
    await Promise.all(nodes.map((n) => jetStreamReady([n.url], 20_000, allLogs)));
    if (size > 1) await placesReplicas(cluster, size, PLACEMENT_WAIT_MS, allLogs);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}
