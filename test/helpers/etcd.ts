// Starts Debian's etcd (a 1- or 3-member cluster) for a test: free 127.0.0.1 ports, temp data
// dirs, flags as in docs/cluster.md section 2. Members are stopped or killed by their PID only (other
// engineers' etcd processes run on the same machine), and the data dirs removed at stop().

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePorts } from './ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';

export const ETCD_BIN = '/usr/bin/etcd';

/** Why the etcd tests cannot run here (no binary), or null: for `describe.skipIf`. */
export function etcdMissing(): string | null {
  const r = spawnSync(ETCD_BIN, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? null : `${ETCD_BIN} not runnable (run .ci/install-engines.sh as root)`;
}

export interface EtcdMember {
  name: string;
  /** http://127.0.0.1:<client port> */
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  proc: ChildProcess | null;
  logs: string[];
}

export interface EtcdCluster {
  members: EtcdMember[];
  /** The client endpoints, comma-separated: the form SERVICE_CLUSTER_ETCD takes. */
  endpoints: string;
  /** Stops one member with a signal (SIGKILL for kill -9) and waits for its exit. */
  stopMember(m: EtcdMember, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped member again on its data dir (it rejoins as an existing member). */
  restartMember(m: EtcdMember): Promise<void>;
  /** The member the others follow, by etcd's maintenance status. */
  leader(): Promise<EtcdMember>;
  /**
   * SIGKILL to every member still running, then removes the data dirs: the data is thrown away,
   * and a SIGTERM'd leader waits about 7 s trying to hand leadership to followers stopping too.
   */
  stop(): Promise<void>;
}

function launch(m: EtcdMember, initialCluster: string, state: 'new' | 'existing'): void {
  const proc = spawn(
    ETCD_BIN,
    [
      '--name', m.name,
      '--data-dir', m.dataDir,
      '--listen-client-urls', m.clientUrl,
      '--advertise-client-urls', m.clientUrl,
      '--listen-peer-urls', m.peerUrl,
      '--initial-advertise-peer-urls', m.peerUrl,
      '--initial-cluster', initialCluster,
      '--initial-cluster-state', state,
      '--initial-cluster-token', `quiver-test-${process.pid}`,
      // Tests run on a busy 2-core machine: short heartbeats but not so short that load deposes leaders.
      '--heartbeat-interval', '100',
      '--election-timeout', '1000',
      '--log-level', 'warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer): void => {
    m.logs.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
    if (m.logs.length > 400) m.logs.splice(0, m.logs.length - 400);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  m.proc = proc;
}

async function waitServing(m: EtcdMember, deadlineMs = 20_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (m.proc === null || m.proc.exitCode !== null || m.proc.signalCode !== null) {
      throw new Error(`etcd ${m.name} exited before serving:\n${m.logs.join('\n')}`);
    }
    try {
      const r = await fetch(`${m.clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await r.json()) as { health?: string };
      if (body.health === 'true') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`etcd ${m.name} not serving after ${deadlineMs} ms:\n${m.logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((res) => proc.once('exit', () => res()));
}

export async function startEtcd(size: 1 | 3 = 1): Promise<EtcdCluster> {
  const members: EtcdMember[] = [];
  const ports = await freePorts(2 * size);
  for (let i = 1; i <= size; i++) {
    members.push({
      name: `e${i}`,
      clientUrl: `http://127.0.0.1:${ports[2 * i - 2]}`,
      peerUrl: `http://127.0.0.1:${ports[2 * i - 1]}`,
      dataDir: mkdtempSync(join(tmpdir(), `quiver-etcd-e${i}-`)),
      proc: null,
      logs: [],
    });
  }
  const initialCluster = members.map((m) => `${m.name}=${m.peerUrl}`).join(',');
  for (const m of members) launch(m, initialCluster, 'new');
  const cluster: EtcdCluster = {
    members,
    endpoints: members.map((m) => m.clientUrl).join(','),
    async stopMember(m, signal = 'SIGTERM') {
      const p = m.proc;
      if (p === null) return;
      if (p.exitCode === null && p.signalCode === null) p.kill(signal);
      await exited(p);
      m.proc = null;
    },
    async restartMember(m) {
      if (m.proc !== null) throw new Error(`etcd ${m.name} is running`);
      launch(m, initialCluster, 'existing');
      await waitServing(m);
    },
    async leader() {
      const running = members.filter((m) => m.proc !== null);
      for (let attempt = 0; attempt < 50; attempt++) {
          for (const m of running) {
            const one = new Etcd3({ hosts: m.clientUrl, dialTimeout: 1000 });
            try {
              const s = await one.maintenance.status({});
              if (s.leader !== '0' && s.leader === s.header.member_id) return m;
            } catch {
              // this member does not answer: ask the next
            } finally {
              one.close();
            }
          }
          await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('no etcd leader');
    },
    async stop() {
      await Promise.all(members.map((m) => cluster.stopMember(m, 'SIGKILL')));
      for (const m of members) rmSync(m.dataDir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(members.map((m) => waitServing(m)));
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}
