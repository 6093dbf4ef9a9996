// The built server in a child process (loopback, ephemeral ports, the data dir given): started
// until it listens, its log lines kept, and stopped with SIGTERM then SIGKILL. Each one started is
// in the run's set of live children (bench/lib/lifecycle.ts), stopped on the way out.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ENTRY } from './env.js';
import { live } from './lifecycle.js';

export interface Server {
  proc: ChildProcess;
  url: string;
  pid: number;
  logs: string[];
  problems: string[];
  spawnedAt: number;
  listeningMs: number;
  ready: Promise<{ readyMs: number; loadMs: number | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the built server (dist/src/main/index.js) on 127.0.0.1, ephemeral ports, `shards`
 * workers; `extraEnv` is added to (and wins over) the environment.
 */
export function startServer(dataDir: string, shards: number, extraEnv: Record<string, string> = {}, entry = ENTRY): Promise<Server> {
  const spawnedAt = performance.now();
  // BENCH_NODE_ARGS: node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (not allowed in NODE_OPTIONS)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const proc = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      SERVICE_HOST: '127.0.0.1',
      SERVICE_REST_PORT: '0',
      SERVICE_GRPC_PORT: '0',
      SERVICE_DATA_DIR: dataDir,
      SERVICE_SHARDS: String(shards),
      SERVICE_LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  const logs: string[] = [];
  const problems: string[] = [];
  const keep = (line: string): void => {
    logs.push(line);
    if (logs.length > 2000) logs.splice(0, logs.length - 2000);
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.once('exit', (code, signal) => {
      live.delete(proc);
      res({ code, signal });
    }),
  );
  let onReady: (v: { readyMs: number; loadMs: number | null }) => void = () => undefined;
  const ready = new Promise<{ readyMs: number; loadMs: number | null }>((res, rej) => {
    onReady = res;
    void exited.then(({ code, signal }) => rej(new Error(`server exited (code ${code}, signal ${signal}) before 'engine ready'`)));
  });
  ready.catch(() => undefined);
  return new Promise<Server>((res, rej) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      keep(line);
      let rec: { msg?: unknown; level?: unknown; rest_port?: unknown; load_ms?: unknown };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        problems.push(`stdout (not JSON): ${line}`);
        return;
      }
      if (typeof rec.level === 'number' && rec.level >= 40) problems.push(line);
      if (rec.msg === 'REST listening' && typeof rec.rest_port === 'number') {
        res({
          proc,
          url: `http://127.0.0.1:${rec.rest_port}`,
          pid: proc.pid!,
          logs,
          problems,
          spawnedAt,
          listeningMs: performance.now() - spawnedAt,
          ready,
          exited,
        });
      }
      if (rec.msg === 'engine ready') {
        onReady({ readyMs: performance.now() - spawnedAt, loadMs: typeof rec.load_ms === 'number' ? rec.load_ms : null });
      }
    });
    createInterface({ input: proc.stderr! }).on('line', (line) => {
      keep(line);
      problems.push(`stderr: ${line}`);
    });
    void exited.then(({ code, signal }) =>
      rej(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${logs.slice(-40).join('\n')}`)),
    );
  });
}

/** SIGTERM, then SIGKILL after graceMs. Resolves with how it ended and how long it took. */
export async function stopServer(
  s: Server,
  graceMs = 30_000,
): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean }> {
  const t0 = performance.now();
  if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), graceMs)));
  const first = await Promise.race([s.exited, forced]);
  clearTimeout(timer);
  if (first === 'timeout') {
    s.proc.kill('SIGKILL');
    const r = await s.exited;
    return { ms: performance.now() - t0, ...r, killed: true };
  }
  return { ms: performance.now() - t0, ...first, killed: false };
}
