// Server control for bench/run.ts: the built server in a child process (bench/common.ts
// startServer) with the thread-id preload (bench/lib/proc.ts), readiness timed by polling
// /readyz from spawn, and the three ways a run ends it (SIGTERM, kill -9, the run's own exit).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callOk, startServer, stopServer, tracked, type Server } from '../common.js';
import { processCpuMs, TID_PROBE_SOURCE } from './proc.js';

export interface Quiver {
  server: Server;
  url: string;
  pid: number;
  grpcPort: number;
  workers: number;
  /** where the preload writes the JS threads' ids */
  tidFile: string;
  /** spawn -> /readyz 200, in ms */
  readyMs: number;
  /**
   * CPU ms the whole process (every thread, GC and compiler threads too) had used when /readyz
   * first answered 200: what a start costs, which a busy machine's wall time hides.
   */
  readyCpuMs: number | null;
  /** the distinct 503 bodies /readyz gave while loading (progress messages) */
  readyzMessages: string[];
  /** the 'engine ready' log line's fields */
  engineReady: Record<string, unknown> | null;
}

export interface StartOptions {
  dataDir: string;
  workers: number;
  scratch: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  /** The server's entry script (another build, for A/B start-up timings); the repo's dist by default. */
  entry?: string;
}

let probeFile: string | null = null;
let starts = 0;

/** The gRPC port, from the server's 'gRPC listening' log line (logged right after REST's). */
export async function grpcPortOf(s: Server): Promise<number> {
  for (let i = 0; i < 400; i++) {
    for (const line of s.logs) {
      if (!line.includes('gRPC listening')) continue;
      const port = (JSON.parse(line) as { grpc_port?: unknown }).grpc_port;
      if (typeof port === 'number') return port;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the server logged no 'gRPC listening' line");
}

function engineReadyLine(s: Server): Record<string, unknown> | null {
  for (let i = s.logs.length - 1; i >= 0; i--) {
    const line = s.logs[i]!;
    if (!line.includes('"engine ready"')) continue;
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      return null;
    }
  }
  return null;
}

/** Starts a server and returns once /readyz answers 200 (timed from spawn). */
export async function startQuiver(o: StartOptions): Promise<Quiver> {
  probeFile ??= join(o.scratch, 'tid-probe.cjs');
  writeFileSync(probeFile, TID_PROBE_SOURCE);
  const tidFile = join(o.scratch, `tids-${++starts}.txt`);
  writeFileSync(tidFile, '');
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', `--require ${probeFile}`].join(' ').trim();
  const server = await startServer(o.dataDir, o.workers, {
    // every request logged at info would bill the JSON logging (and this process parsing it) to the search path
    SERVICE_ACCESS_LOG: process.env.BENCH_ACCESS_LOG === '1' ? 'true' : 'false',
    NODE_OPTIONS: nodeOptions,
    QUIVER_BENCH_TID_FILE: tidFile,
    ...(o.env ?? {}),
  }, o.entry);
  tracked.current = server;
  const messages = new Set<string>();
  const deadline = performance.now() + (o.readyTimeoutMs ?? 600_000);
  let readyMs = Number.NaN;
  let readyCpuMs: number | null = null;
  for (;;) {
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) throw new Error(`the server exited while loading:\n${server.logs.slice(-30).join('\n')}`);
    try {
      const r = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5000) });
      const text = await r.text();
      if (r.status === 200) {
        readyMs = performance.now() - server.spawnedAt;
        readyCpuMs = processCpuMs(server.pid);
        break;
      }
      if (messages.size < 50) messages.add(`${r.status} ${text.slice(0, 200)}`);
    } catch {
      // not answering yet
    }
    if (performance.now() > deadline) throw new Error(`/readyz did not answer 200 within ${o.readyTimeoutMs ?? 600_000} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const grpcPort = await grpcPortOf(server);
  // the log line may trail /readyz by a moment
  let engineReady = engineReadyLine(server);
  for (let i = 0; i < 40 && engineReady === null; i++) {
    await new Promise((r) => setTimeout(r, 25));
    engineReady = engineReadyLine(server);
  }
  return { server, url: server.url, pid: server.pid, grpcPort, workers: o.workers, tidFile, readyMs, readyCpuMs, readyzMessages: [...messages], engineReady };
}

/** SIGTERM and wait (SIGKILL after the grace). */
export async function stopQuiver(q: Quiver): Promise<{ ms: number; killed: boolean }> {
  const r = await stopServer(q.server, 60_000);
  return { ms: r.ms, killed: r.killed };
}

/** kill -9, and wait for the exit. */
export async function killQuiver(q: Quiver): Promise<void> {
  q.server.proc.kill('SIGKILL');
  await q.server.exited;
}

export interface CollectionParams {
  shardNumber: number;
  replicationFactor: number;
}

/** shard_number and replication_factor from GET /collections/{name}. */
export async function collectionParams(url: string, name: string): Promise<CollectionParams> {
  const info = (await callOk(url, 'GET', `/collections/${name}`)) as {
    result?: { config?: { params?: { shard_number?: unknown; replication_factor?: unknown } } };
  };
  const p = info.result?.config?.params;
  const sn = typeof p?.shard_number === 'number' ? p.shard_number : 1;
  const rf = typeof p?.replication_factor === 'number' ? p.replication_factor : 1;
  return { shardNumber: sn, replicationFactor: rf };
}

/** The collection info's memory figures, when the server reports any (issue 14). */
export async function collectionInfo(url: string, name: string): Promise<Record<string, unknown>> {
  const info = (await callOk(url, 'GET', `/collections/${name}`)) as { result?: Record<string, unknown> };
  return info.result ?? {};
}
