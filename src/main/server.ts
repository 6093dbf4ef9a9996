// The server's lifecycle: open storage, start workers, listen at once (answering 412 until every
// shard is loaded), and on SIGTERM/SIGINT stop intake, drain, stop workers and close LMDB.

import type { FastifyInstance } from 'fastify';
import type { AuthService } from './auth/service.js';
import { loadHnswlib } from '../workers/index/hnswlib-loader.js';
import { clusterEnabled, clusterNats, ConfigError, type Config } from './config.js';
import type { ClusterNode } from './cluster/node.js';
import { checkPorts, FreshDataDir, listenFailure } from './startup-checks.js';
import { lockDataDir, type DataDirLock } from './data-lock.js';
import type { Engine, EngineEvents } from './engine.js';
import type { GrpcServer } from './grpc/server.js';
import { PiscinaDispatcher } from './router/dispatcher.js';
import type { WriteLog } from '../shared/cluster/logged-writes.js';
import type { ShardSnapshots } from './cluster/snapshots.js';
import { StartupClock } from '../shared/startup-clock.js';

/**
 * The modules only the main thread's serving needs (fastify and the route schemas, gRPC and its
 * protos, auth, LMDB): loaded once the workers are spawned, so that the workers' own start-up
 * (their modules, then their shards) runs beside this thread's rather than after it.
 */
async function serving() {
  const [db, authService, engine, metrics, grpc, app, replicaAware] = await Promise.all([
    import('../shared/db.js'),
    import('./auth/service.js'),
    import('./engine.js'),
    import('./metrics.js'),
    import('./grpc/server.js'),
    import('./http/app.js'),
    import('./coordinator/replica-aware.js'),
  ]);
  return { ...db, ...authService, ...engine, ...metrics, ...grpc, ...app, ...replicaAware };
}
import { fixMmapThreshold } from '../shared/malloc-trim.js';
import { MemoryRelease } from '../shared/memory-release.js';
import { startLatencyProbe } from '../shared/latency-probe.js';
import { internalTlsFiles, readTlsPair, TlsFileError, tlsFiles, watchTlsPair, type TlsFiles } from '../shared/tls.js';
import type { Server as TlsServer } from 'node:tls';

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
  // Start-up marks, logged at ready in one 'start-up' line with the workers' (see startup-clock.ts).
  const clock = new StartupClock();
  clock.mark('config loaded');
  if (config.hnsw_build === 'native') {
    // Checked here too, so an unusable native build stops start-up instead of failing every
    // worker thread piscina starts.
    try {
      loadHnswlib({ mode: 'native' });
    } catch (e) {
      throw new ConfigError(e instanceof Error ? e.message : String(e));
    }
  }
  // TLS files that do not load stop start-up with one line, before anything is opened (tls.ts).
  for (const files of [tlsFiles(config), internalTlsFiles(config)]) {
    if (files === null) continue;
    try {
      readTlsPair(files);
    } catch (e) {
      throw e instanceof TlsFileError ? new ConfigError(e.message) : e;
    }
  }
  // Process-wide, before the worker threads allocate anything (see malloc-trim.ts).
  fixMmapThreshold();
  const nats = clusterNats(config);
  // Before anything is opened or created: a data dir this process cannot use, or a port taken,
  // stops start-up with one line (startup-checks.ts).
  const fresh = new FreshDataDir(config.data_dir);
  await checkPorts(config, nats === null ? null : config.cluster.port);
  // Before LMDB opens: a second server on this dir stops here, naming the first one's pid.
  const lock = await lockDataDir(config.data_dir);
  fresh.locked();
  let writeLog: WriteLog | null = null;
  if (nats !== null) {
    // Cluster mode: its modules load only here. An unreachable NATS stops start-up, named.
    try {
      writeLog = await openWriteLog(nats, config.cluster.stream_replicas);
    } catch (err) {
      fresh.takeBack();
      await lock.release();
      throw err;
    }
  }
  // Cluster mode: worker 0 serves the internal port, and reads the lease the etcd thread writes.
  const internal = nats === null ? null : { host: config.host, port: config.cluster.port, leaseExpiry: new SharedArrayBuffer(8), bound: new SharedArrayBuffer(8) };
  // First, so the workers load their modules and shards while this thread loads its own.
  const dispatcher = new PiscinaDispatcher(
    config.workers,
    config.data_dir,
    config.hnsw_build,
    { everyWrites: config.graph_save_writes, everySeconds: config.graph_save_seconds },
    undefined,
    nats === null || internal === null
      ? undefined
      : { nats, streamReplicas: config.cluster.stream_replicas, hedgeMs: config.cluster.hedge_ms, maxMessageBytes: Math.floor(config.grpc_max_message_mb * 1024 * 1024), internal, ...tlsInit(config) },
    config.slow_query_secs,
    config.live_recall_fraction,
  );
  clock.mark('workers spawned');
  try {
    return await serve(config, clock, lock, dispatcher, writeLog, internal);
  } catch (err) {
    // A setting only start-up can check (the auth secrets) failed: the workers stop with it.
    await dispatcher.close().catch(() => undefined);
    await writeLog?.close().catch(() => undefined);
    // A start that never served leaves nothing behind in a dir it created or found empty.
    fresh.takeBack();
    await lock.release();
    throw err;
  }
}

/**
 * Cluster mode: the control plane's state, pushed whole to the coordinating workers. A change of
 * assignments, peers or this node's lease standing goes on the next turn (a burst of etcd events
 * is one push); the nodes' status reports alone (every node's, twice a second under writes: only
 * the replicas' positions move, which orders reads) at most every STATUS_PUSH_MS.
 */
function publishClusterState(cluster: ClusterNode, dispatcher: PiscinaDispatcher): void {
  let version = 0;
  let timer: NodeJS.Timeout | null = null;
  let immediate = false;
  let seen = '';
  const push = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    immediate = false;
    dispatcher.publishClusterState({ ...cluster.state.snapshot(), version: ++version, notServingReason: cluster.notServingReason() });
  };
  const soon = (): void => {
    if (immediate) return;
    immediate = true;
    setImmediate(push);
  };
  /** What a worker must see at once: the assignments' version and the live peers. */
  const shape = (): string => `${cluster.state.assignVersion}|${cluster.state.peers().map((p) => `${p.id}@${p.advertise}`).join(',')}`;
  cluster.state.onChange(() => {
    const now = shape();
    if (now !== seen) {
      seen = now;
      soon();
    } else if (timer === null && !immediate) {
      timer = setTimeout(push, STATUS_PUSH_MS);
      timer.unref();
    }
  });
  cluster.onServingChange(soon);
  seen = shape();
  push();
}

/** How often status-only changes of the cluster state reach the workers at most (ms). */
const STATUS_PUSH_MS = 250;

async function startCluster(config: Config, leaseExpiry: SharedArrayBuffer | undefined): Promise<ClusterNode> {
  const [{ ClusterNode }, { readOrCreateNodeId }] = await Promise.all([import('./cluster/node.js'), import('./cluster/node-id.js')]);
  return ClusterNode.start(config, readOrCreateNodeId(config.data_dir), undefined, leaseExpiry);
}

/** The control plane joined to the Engine (cluster mode): etcd's catalog mirrored in, this node's replicas followed. */
async function joinCluster(cluster: ClusterNode, writeLog: WriteLog) {
  const [{ CatalogSync }, { ReplicaFollow }] = await Promise.all([import('./cluster/catalog-sync.js'), import('./cluster/replica-follow.js')]);
  let follow: InstanceType<typeof ReplicaFollow> | null = null;
  const sync = new CatalogSync(cluster, (meta) => follow?.placed(meta) ?? Promise.resolve());
  // The status report carries the catalog revision applied here: a create elsewhere waits for it.
  sync.onApplied(() => follow?.kick());
  return {
    sync,
    /** Starts following once the Engine exists; `hooks` is where snapshots plug in (prepareReplica). */
    follow: (engine: Engine, hooks = {}) => {
      follow = new ReplicaFollow(cluster.state, engine, writeLog, (st) => cluster.report(st), cluster.log, hooks, () => sync.appliedRev);
      return follow;
    },
  };
}

/** Connects to the shards' write logs on NATS (cluster mode); ConfigError when NATS cannot be used. */
async function openWriteLog(servers: string[], replicas: number): Promise<WriteLog> {
  const [{ ShardLog, ShardLogUnreachable }, { LoggedWrites }] = await Promise.all([import('../shared/cluster/shard-log.js'), import('../shared/cluster/logged-writes.js')]);
  try {
    return new LoggedWrites(await ShardLog.open({ servers, replicas }));
  } catch (err) {
    if (err instanceof ShardLogUnreachable) throw new ConfigError(err.message);
    throw err;
  }
}

/**
 * Cluster mode: opens the shards' snapshot store (cluster/snapshots.ts). Its schedule (config
 * `cluster.snapshot_*`) is started once the shards are loaded; prepareReplica serves at once.
 */
async function openSnapshots(config: Config, engine: Engine, dispatcher: PiscinaDispatcher, cluster: ClusterNode, log: FastifyInstance['log']): Promise<ShardSnapshots> {
  const { ShardSnapshots, EtcdSnapshotPointers, SnapshotBucketUnavailable } = await import('./cluster/snapshots.js');
  return ShardSnapshots.open({
    servers: config.cluster.nats,
    replicas: config.cluster.stream_replicas,
    dataDir: config.data_dir,
    workers: dispatcher,
    pointers: new EtcdSnapshotPointers(config.cluster.etcd),
    collections: () => engine.list().map((m) => ({ id: m.id, shards: m.config.shard_number })),
    state: cluster.state,
    every: { entries: config.cluster.snapshot_entries, minutes: config.cluster.snapshot_minutes },
    log,
  }).catch((err: unknown) => {
    throw err instanceof SnapshotBucketUnavailable ? new ConfigError(err.message) : err;
  });
}

async function serve(
  config: Config,
  clock: StartupClock,
  lock: DataDirLock,
  dispatcher: PiscinaDispatcher,
  writeLog: WriteLog | null,
  internal: { leaseExpiry: SharedArrayBuffer; bound: SharedArrayBuffer } | null,
): Promise<RunningServer> {
  const { openDb, openAuthDb, AuthService, Engine, HandedOffWrites, localPoints, loggedPoints, clusterPoints, Metrics, startGrpcServer, warmServices, buildApp, ReplicaAwareCoordinators } = await serving();
  clock.mark('modules loaded');
  const db = openDb(config.data_dir);
  clock.mark('lmdb opened');
  // Cluster mode only, and only then are its modules loaded: etcd must answer within a bounded
  // time or start-up is refused naming the endpoints (exit 2, as a bad setting).
  const cluster = clusterEnabled(config) ? await startCluster(config, internal?.leaseExpiry) : null;
  // Cluster mode (issue 16): both switches are set, so the write log is open too.
  const joined = cluster !== null && writeLog !== null ? await joinCluster(cluster, writeLog) : null;
  // Cluster mode: each shard's requests reach its replicas on any node (src/main/cluster/data-plane.ts).
  const dataPlane = cluster !== null && writeLog !== null ? (await import('./cluster/data-plane.js')).openDataPlane(config, cluster.state, writeLog) : null;
  const auth = await AuthService.open(openAuthDb(db.root), {
    jwtTtlSeconds: config.jwt_ttl_seconds,
    jwtSecret: config.jwt_secret,
    adminPassword: config.admin_password,
    // Cluster mode: API keys, the auth switch and the admin live in etcd, shared by every node.
    replica: cluster?.link,
  });
  clock.mark('auth opened');
  // The Engine reports to the app's logger, which buildApp makes once the Engine exists: its
  // events read it as they fire (none fires before engine.start(), long after it is set).
  let log: FastifyInstance['log'] | null = null;
  const events: EngineEvents = {
    backgroundError: (err, what) => log?.error({ err }, `failed ${what}; the next start resumes it`),
    replicaEvent: (level, msg, fields) => log?.[level](fields, msg),
  };
  // Written by the worker coordinators' hand-offs, waited for by the Engine's copies being built.
  const handedOffWrites = new HandedOffWrites();
  // How point calls reach the shards, fixed for the process: each shard's replicas on any node,
  // through the shards' write logs on this node, or straight to this process's workers.
  const points = dataPlane !== null && writeLog !== null ? clusterPoints(dataPlane.shards, writeLog) : writeLog !== null ? loggedPoints(writeLog) : localPoints();
  const engine = new Engine(db, dispatcher, {
    defaults: { shard_number: config.default_shard_number, replication_factor: config.default_replication_factor },
    opIds: dispatcher.opIds,
    publishCatalog: (c) => dispatcher.publishCatalog(c),
    points,
    ...(joined === null ? {} : { clusterCatalog: joined.sync }),
    events,
    handedOffWrites,
  });
  // Hedged reads: the coordinating workers' (every point request's), and this thread's engine's (none in production).
  const metrics = new Metrics(engine, cluster === null ? null : { hedgedReads: () => (dataPlane?.shards.hedgedReads ?? 0) + dispatcher.hedgedReads() });
  if (cluster !== null) publishClusterState(cluster, dispatcher);
  // A Qdrant JWT's value_exists claim: a count on this engine, as any read of the collection.
  auth.checkValueExistsWith(async (collection, matches) => {
    const meta = engine.collection(collection);
    const filter = { must: matches.map((m) => ({ key: m.key, match: { value: m.value } })) };
    const counts = await engine.fanOut(meta, { op: 'count', filter, exact: true });
    return counts.some((c) => c > 0);
  });
  dispatcher.setOwners((name) => engine.copyHolders(name));
  dispatcher.setCallRouter((w) => engine.routeCall(w));
  // One set for REST and gRPC hand-offs, so both route a collection's requests alike: point
  // requests are coordinated in a worker in every mode (docs/request-path.md).
  const coordinators = new ReplicaAwareCoordinators(engine, dispatcher, handedOffWrites);
  const app = await buildApp(config, engine, auth, metrics, coordinators, cluster);
  if (cluster !== null) cluster.log = app.log;
  writeLog?.setLog(app.log);
  clock.mark('routes built');
  for (const note of auth.notes) app.log.info(note);
  log = app.log;
  dispatcher.on('workerError', (worker: number, err: unknown) => {
    app.log.error({ err, worker }, 'shard worker failed');
  });
  dispatcher.on('workerExit', (worker: number) => {
    metrics.workerRestart(worker);
    engine.workerRestarted(worker);
    app.log.error({ worker }, 'shard worker ended; a new thread reloads its shards from LMDB');
  });
  // A port taken since checkPorts stops start-up the same way.
  await app.listen({ host: config.host, port: config.rest_port }).catch((err: unknown) => {
    throw listenFailure(err, 'REST (SERVICE_REST_PORT)', config.host, config.rest_port) ?? err;
  });
  clock.mark('rest listening');
  dispatcher.markListening();
  const address = app.server.address();
  const restPort = typeof address === 'object' && address !== null ? address.port : config.rest_port;
  app.log.info({ rest_port: restPort, workers: config.workers, data_dir: config.data_dir }, 'REST listening');
  const grpc = await startGrpcServer(config, engine, auth, app.log, metrics, coordinators, cluster).catch(async (err: unknown) => {
    await app.close();
    throw listenFailure(err, 'gRPC (SERVICE_GRPC_PORT)', config.host, config.grpc_port) ?? err;
  });
  app.log.info({ grpc_port: grpc.port, max_message_mb: config.grpc_max_message_mb, tls: config.enable_tls }, 'gRPC listening');
  // A renewed certificate reaches new REST connections here; gRPC watches the files itself.
  const tls = tlsFiles(config);
  const stopTls =
    tls === null
      ? () => undefined
      : watchTlsPair(
          tls,
          (pair) => {
            (app.server as unknown as TlsServer).setSecureContext(pair);
            app.log.info({ cert: tls.cert }, 'TLS certificate loaded again');
          },
          (message) => app.log.error({ cert: tls.cert }, `TLS certificate not loaded again, the last one kept: ${message}`),
        );
  clock.mark('grpc listening');
  if (cluster !== null) {
    // The internal port answers before the node is published: peers dial what they read there.
    if (dataPlane !== null && internal !== null) app.log.info({ cluster_port: (await dataPlane.listen(internal.bound)).port }, 'internal port listening');
    await cluster.register({ rest: restPort, grpc: grpc.port });
    app.log.info({ node_id: cluster.nodeId, advertise: config.cluster.advertise }, 'cluster: joined');
  }
  const t0 = performance.now();
  // This thread's start-up garbage (schemas compiled, protos loaded), and later bursts, go back
  // to the system when the thread is quiet (see memory-release.ts).
  const release = new MemoryRelease();
  startLatencyProbe('main');
  // Cluster mode: a replica new to this node restores the shard's snapshot before it follows.
  const snapshots = joined === null || cluster === null ? null : await openSnapshots(config, engine, dispatcher, cluster, app.log);
  const follow = joined === null ? null : joined.follow(engine, snapshots === null ? {} : { prepareReplica: async (c: number, s: number) => void (await snapshots.prepareReplica(c, s)) });
  const started = engine.start().then(async (r) => {
    if (joined === null || follow === null) return r;
    // The local catalog catches up with etcd's before the node calls itself ready.
    joined.sync.attach(engine);
    follow.start();
    await joined.sync.synced;
    return r;
  });
  const ready = started.then(({ restoredShards, rebuiltShards, hnswBuild, collections, startup }) => {
    clock.mark('shards ready');
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
    // Where start-up spent its time: [mark, wall ms since the process started, the thread's CPU ms].
    app.log.info({ ready_ms: Math.round(clock.now()), main: clock.marks, workers: startup.workers, shards: startup.shards }, 'start-up');
    // The gRPC messages' types, parsed off the way to ready (see grpc/services.ts).
    setImmediate(() => warmServices());
  });
  // The shards' periodic snapshots, once they are loaded.
  if (snapshots !== null) void ready.then(() => snapshots.start()).catch(() => undefined);
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
        stopTls();
        // Leave the cluster first, so the other nodes stop routing here before intake stops.
        follow?.stop();
        await cluster?.close();
        await Promise.all([grpc.close(), app.close(), dataPlane?.close()]);
        await ready.catch(() => undefined);
        await snapshots?.close();
        await engine.close();
        await lock.release();
      })();
      return closing;
    },
  };
}

/** The internal port's TLS files for the workers (cluster.enable_tls), or nothing. */
function tlsInit(config: Config): { tls?: Required<TlsFiles> } {
  const files = internalTlsFiles(config);
  return files === null ? {} : { tls: files };
}
