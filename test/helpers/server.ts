// Starts the real built server (node dist/src/main/index.js) in a child process on ephemeral
// loopback ports with a temp data dir, and stops it with a signal. Tests talk to it over HTTP
// (url, port) and gRPC (grpcUrl, grpcPort).

import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { rng } from './random.js';

export { rng };

export const ENTRY = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'main', 'index.js');

export interface TestServer {
  url: string;
  port: number;
  /** `http://127.0.0.1:<grpcPort>`, the form @qdrant/js-client-grpc takes as `url`. */
  grpcUrl: string;
  grpcPort: number;
  dataDir: string;
  proc: ChildProcess;
  /** Resolves when the engine has loaded every shard. */
  ready: Promise<void>;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  dataDir?: string;
  shards?: number;
  env?: Record<string, string>;
  /** Wait for 'engine ready' before resolving (default true). */
  waitReady?: boolean;
  /**
   * How long to wait for the ports and, with waitReady, for 'engine ready' (default 90 s). Past it
   * the server is killed and the start fails with its log, so a hung start-up names its last step
   * instead of running into a test hook's timeout.
   */
  startTimeoutMs?: number;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'quiver-test-'));
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const proc = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      SERVICE_HOST: '127.0.0.1',
      SERVICE_REST_PORT: '0',
      SERVICE_GRPC_PORT: '0',
      // Cluster mode's internal port too: its default (6575) is shared by every test file at once.
      SERVICE_CLUSTER_PORT: '0',
      SERVICE_DATA_DIR: dataDir,
      SERVICE_SHARDS: String(opts.shards ?? 2),
      SERVICE_LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const timeoutMs = opts.startTimeoutMs ?? 90_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, rej) => {
    timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`server not ${opts.waitReady === false ? 'listening' : 'ready'} after ${timeoutMs} ms; its log:\n${logs.slice(-60).join('\n')}`));
    }, timeoutMs);
  });
  timedOut.catch(() => undefined);
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((res) => (onReady = res));
  // Resolves once both ports are known: the server logs 'REST listening' and 'gRPC listening'.
  const listening = new Promise<{ port: number; grpcPort: number }>((res, rej) => {
    let rest: number | null = null;
    let grpc: number | null = null;
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (line) => {
      logs.push(line);
      try {
        const rec = JSON.parse(line) as { msg?: string; rest_port?: number; grpc_port?: number };
        if (rec.msg === 'REST listening' && typeof rec.rest_port === 'number') rest = rec.rest_port;
        if (rec.msg === 'gRPC listening' && typeof rec.grpc_port === 'number') grpc = rec.grpc_port;
        if (rest !== null && grpc !== null) res({ port: rest, grpcPort: grpc });
        if (rec.msg === 'engine ready') onReady();
      } catch {
        // not a log record
      }
    });
    createInterface({ input: proc.stderr! }).on('line', (line) => logs.push(line));
    void exited.then((code) => rej(new Error(`server exited with ${code} before listening:\n${logs.join('\n')}`)));
  });
  let port: number;
  let grpcPort: number;
  try {
    ({ port, grpcPort } = await Promise.race([listening, timedOut]));
    if (opts.waitReady !== false) {
      const died = exited.then((code) => Promise.reject(new Error(`server exited with ${code} before ready:\n${logs.slice(-60).join('\n')}`)));
      await Promise.race([ready, timedOut, died]);
    }
  } finally {
    clearTimeout(timer);
  }
  // A server given SERVICE_ENABLE_TLS answers https only (call() trusts the CA given to trustCa).
  const scheme = opts.env?.['SERVICE_ENABLE_TLS'] === 'true' ? 'https' : 'http';
  const server: TestServer = {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    grpcUrl: `${scheme}://127.0.0.1:${grpcPort}`,
    grpcPort,
    dataDir,
    proc,
    ready,
    logs,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
  return server;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The CA call() trusts for https bases (the test's own, made with bench/lib/certs.ts). */
let trustedCa: Buffer | undefined;
export function trustCa(pem: Buffer | undefined): void {
  trustedCa = pem;
}

/** An https request trusting trustedCa (fetch cannot be given a CA): status and text. */
function httpsCall(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((res, rej) => {
    const req = httpsRequest(url, { method, headers, ...(trustedCa === undefined ? {} : { ca: trustedCa }) }, (r) => {
      let text = '';
      r.on('data', (d: Buffer) => (text += d.toString()));
      r.on('end', () => res({ status: r.statusCode ?? 0, text }));
    });
    req.on('error', rej);
    req.end(body);
  });
}

/** fetch with a JSON body (https through trustCa's CA); returns status and parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const sent = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const allHeaders = body === undefined ? headers : { 'content-type': 'application/json', ...headers };
  let status: number;
  let text: string;
  if (base.startsWith('https:')) {
    ({ status, text } = await httpsCall(base + path, method, allHeaders, sent));
  } else {
    const res = await fetch(base + path, { method, headers: allHeaders, ...(sent === undefined ? {} : { body: sent }) });
    status = res.status;
    text = await res.text();
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text answer
  }
  return { status, body: parsed };
}

export function randomVectors(n: number, dim: number, seed: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: dim }, () => r() * 2 - 1));
}
