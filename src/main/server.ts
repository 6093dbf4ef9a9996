// The server's lifecycle: open storage, start workers, listen at once (answering 412 until every
// shard is loaded), and on SIGTERM/SIGINT stop intake, drain, stop workers and close LMDB.

import type { FastifyInstance } from 'fastify';
import { openDb } from '../shared/db.js';
import type { Config } from './config.js';
import { Engine } from './engine.js';
import { buildApp } from './http/app.js';
import { PiscinaDispatcher } from './router/dispatcher.js';

export interface RunningServer {
  app: FastifyInstance;
  engine: Engine;
  restPort: number;
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const db = openDb(config.data_dir);
  const dispatcher = new PiscinaDispatcher(config.workers, config.data_dir);
  const engine = new Engine(db, dispatcher);
  const app = await buildApp(config, engine);
  dispatcher.on('workerError', (worker: number, err: unknown) => {
    app.log.error({ err, worker }, 'shard worker failed; a new one reloads its shards from LMDB');
  });
  await app.listen({ host: config.host, port: config.rest_port });
  const address = app.server.address();
  const restPort = typeof address === 'object' && address !== null ? address.port : config.rest_port;
  app.log.info({ rest_port: restPort, workers: config.workers, data_dir: config.data_dir }, 'REST listening');
  const t0 = performance.now();
  const ready = engine.start().then(() => {
    app.log.info({ rest_port: restPort, load_ms: Math.round(performance.now() - t0) }, 'engine ready');
  });
  let closing: Promise<void> | null = null;
  return {
    app,
    engine,
    restPort,
    ready,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await ready.catch(() => undefined);
        await engine.close();
      })();
      return closing;
    },
  };
}
