// An in-process Quiver for fast tests: Engine, AuthService, Metrics and the fastify app built
// over the InProcessDispatcher (no worker threads, no child process, no listening socket) in a
// temp data dir. Tests call service functions with `engine` or send requests with `app.inject`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AuthService } from '../../src/main/auth/service.js';
import { loadConfig, type Config } from '../../src/main/config.js';
import { Engine } from '../../src/main/engine.js';
import { buildApp } from '../../src/main/http/app.js';
import { Metrics } from '../../src/main/metrics.js';
import { InProcessDispatcher } from '../../src/main/router/in-process-dispatcher.js';
import { openAuthDb, openDb } from '../../src/shared/db.js';

export interface InProcessQuiver {
  app: FastifyInstance;
  engine: Engine;
  auth: AuthService;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts an engine (ready, auth disabled) over `workers` in-process workers in a new temp dir. */
export async function startInProcess(opts: { workers?: number; dataDir?: string } = {}): Promise<InProcessQuiver> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'quiver-inproc-'));
  // Only config/default.json and these values: the variables of the shell running the tests do not leak in.
  const config = loadConfig({ SERVICE_DATA_DIR: dataDir, SERVICE_SHARDS: String(opts.workers ?? 2), SERVICE_LOG_LEVEL: 'silent' });
  const db = openDb(config.data_dir);
  const auth = await AuthService.open(openAuthDb(db.root), { jwtTtlSeconds: config.jwt_ttl_seconds });
  const engine = new Engine(db, new InProcessDispatcher(config.workers, config.data_dir));
  const app = await buildApp(config, engine, auth, new Metrics(engine));
  await engine.start();
  await app.ready();
  let closing: Promise<void> | null = null;
  return {
    app,
    engine,
    auth,
    config,
    dataDir,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await engine.close();
        if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** `app.inject` with a JSON body, answering the status and the parsed envelope. */
export async function inject(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({
    method,
    url,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
}
