// The server's lifecycle: open storage, start workers, listen at once (answering 412 until every
// shard is loaded), and on SIGTERM/SIGINT stop intake, drain, stop workers and close LMDB.

import { ReplicaAwareCoordinators } from './coordinator/replica-aware.js';
import type { FastifyInstance } from 'fastify';
import { openAuthDb, openDb } from '../shared/db.js';
import { AuthService } from './auth/service.js';
import { loadHnswlib } from '../workers/index/hnswlib-loader.js';
import { ConfigError, type Config } from './config.js';
import { lockDataDir } from './data-lock.js';
import { Engine } from './engine.js';
import { Metrics } from './metrics.js';
import { startGrpcServer, type GrpcServer } from './grpc/server.js';
import { buildApp } from './http/app.js';
import { PiscinaDispatcher } from './router/dispatcher.js';
import { MemoryRelease } from '../shared/memory-release.js';

export interface RunningServer {
  app: FastifyInstance;
  engine: Engine;
  auth: AuthService;
  restPort: number;
  grpc: GrpcServer;
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  if (config.hnsw_build === 'native') {
    // Checked here too, so an unusable native build stops start-up instead of failing every
    // worker thread piscina starts.
    try {
      loadHnswlib({ mode: 'native' });
    } catch (e) {
      throw new ConfigError(e instanceof Error ? e.message : String(e));
    }
  }
  // Before LMDB opens: a second server on this dir stops here, naming the first one's pid.
  const lock = await lockDataDir(config.data_dir);
  const db = openDb(config.data_dir);
  const auth = await AuthService.open(openAuthDb(db.root), {
    jwtTtlSeconds: config.jwt_ttl_seconds,
    jwtSecret: config.jwt_secret,
    adminPassword: config.admin_password,
  });
  const dispatcher = new PiscinaDispatcher(config.workers, config.data_dir, config.hnsw_build, {
    everyWrites: config.graph_save_writes,
    everySeconds: config.graph_save_seconds,
  });
  const engine = new Engine(db, dispatcher, {
    defaults: { shard_number: config.default_shard_number, replication_factor: config.default_replication_factor },
    opIds: dispatcher.opIds,
    publishCatalog: (c) => dispatcher.publishCatalog(c),
  });
  const metrics = new Metrics(engine);
  const app = await buildApp(config, engine, auth, metrics, new ReplicaAwareCoordinators(engine, dispatcher));
  for (const note of auth.notes) app.log.info(note);
  engine.onBackgroundError = (err, what) => app.log.error({ err }, `failed ${what}; the next start resumes it`);
  dispatcher.on('workerError', (worker: number, err: unknown) => {
    app.log.error({ err, worker }, 'shard worker failed');
  });
  engine.onReplicaEvent = (level, msg, fields) => app.log[level](fields, msg);
  dispatcher.on('workerExit', (worker: number) => {
    metrics.workerRestart(worker);
    engine.workerRestarted(worker);
    app.log.error({ worker }, 'shard worker ended; a new thread reloads its shards from LMDB');
  });
  await app.listen({ host: config.host, port: config.rest_port });
  const address = app.server.address();
  const restPort = typeof address === 'object' && address !== null ? address.port : config.rest_port;
  app.log.info({ rest_port: restPort, workers: config.workers, data_dir: config.data_dir }, 'REST listening');
  const grpc = await startGrpcServer(config, engine, auth, app.log, metrics);
  app.log.info({ grpc_port: grpc.port, max_message_mb: config.grpc_max_message_mb }, 'gRPC listening');
  const t0 = performance.now();
  // This thread's start-up garbage (schemas compiled, protos loaded), and later bursts, go back
  // to the system when the thread is quiet (see memory-release.ts).
  const release = new MemoryRelease();
  const ready = engine.start().then(({ restoredShards, rebuiltShards, hnswBuild, collections }) => {
    release.collectSoon(200);
    for (const c of collections) {
      app.log.info(
        {
          collection: c.collection,
          shards: c.shards,
          points: c.points,
          graphs_loaded: c.graphsRead,
          graphs_rebuilt: c.graphsRebuilt,
          replayed_writes: c.replayedWrites,
          ...(c.rebuildReasons.length > 0 ? { rebuild_reasons: c.rebuildReasons } : {}),
        },
        'collection loaded',
      );
    }
    app.log.info(
      {
        rest_port: restPort,
        load_ms: Math.round(performance.now() - t0),
        hnsw_restored_shards: restoredShards,
        hnsw_rebuilt_shards: rebuiltShards,
        hnsw_build: hnswBuild?.description,
        ...(hnswBuild?.fallbackReason ? { hnsw_fallback_reason: hnswBuild.fallbackReason } : {}),
      },
      'engine ready',
    );
  });
  let closing: Promise<void> | null = null;
  return {
    app,
    engine,
    auth,
    restPort,
    grpc,
    ready,
    close: () => {
      closing ??= (async () => {
        release.stop();
        await Promise.all([grpc.close(), app.close()]);
        await ready.catch(() => undefined);
        await engine.close();
        await lock.release();
      })();
      return closing;
    },
  };
}
