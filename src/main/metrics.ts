// Prometheus metrics (prom-client), served at GET /metrics: what an operator needs to watch a
// running Quiver. Requests by transport, route or method, and outcome; latency histograms;
// collections, points and estimated memory per collection and kind (read from the engine at
// scrape time, so they are never stale); the process's RssAnon; engine readiness; shard worker
// restarts; shard requests per worker and op; and Node's own process metrics. Qdrant's own
// metric names are served beside these (qdrant-metrics.ts).
//
// Labels are bounded: REST routes are the registered templates (`/collections/:collection_name`),
// gRPC methods the service paths; per-collection labels are on the points gauges (here and
// Qdrant's collection_points / collection_vectors), one series per collection.

import client from 'prom-client';
import type { Engine } from './engine.js';
import type { LiveRecallFigures } from './engine/sizes.js';
import { MEMORY_KINDS } from '../shared/shard-results.js';
import { processMemory } from './process-memory.js';
import { QdrantMetrics } from './qdrant-metrics.js';
import { QDRANT_API_VERSION, QUIVER_VERSION } from './version.js';

/** What a node in cluster mode adds to its metrics (absent: a single node). */
export interface ClusterMetrics {
  /** Reads sent to a second replica past the hedge deadline (ClusterShards.hedgedReads; 0 with no data plane). */
  hedgedReads(): number;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new client.Registry();
  /** REST responses by `method status route`: counted in plain numbers, read at scrape time. */
  readonly #rest = new Map<string, { total: number; byStatus: { method: string; route: string; status: string }; byRoute: { method: string; route: string } }>();
  readonly #restSeconds: client.Histogram<'method' | 'route'>;
  /** gRPC calls by `code method`, counted the same way as #rest. */
  readonly #grpc = new Map<string, { total: number; byCode: { method: string; code: string }; byMethod: { method: string } }>();
  readonly #grpcSeconds: client.Histogram<'method'>;
  readonly #workerRestarts: client.Counter<'worker'>;
  /** Hand-offs per coordinating worker (index), counted on the hot path, read at scrape time. */
  readonly #coordinated: number[] = [];
  readonly #mainBodies: client.Counter;
  readonly #qdrant: QdrantMetrics;

  constructor(engine: Engine, cluster: ClusterMetrics | null = null) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    // app_info carries the version GET / answers (Qdrant's API version); quiver_info has Quiver's.
    this.#qdrant = new QdrantMetrics(this.registry, engine, QDRANT_API_VERSION, cluster !== null);
    if (cluster !== null) {
      new client.Counter({
        name: 'quiver_cluster_hedged_reads_total',
        help: 'Shard reads sent to a second replica because the first had not answered within the hedge deadline (cluster.hedge_ms)',
        registers,
        collect() {
          this.reset();
          this.inc(cluster.hedgedReads());
        },
      });
    }
    new client.Gauge({ name: 'quiver_info', help: 'Quiver version and the Qdrant API version it speaks', labelNames: ['version', 'qdrant_api'], registers }).set(
      { version: QUIVER_VERSION, qdrant_api: QDRANT_API_VERSION },
      1,
    );
    const rest = this.#rest;
    new client.Counter({
      name: 'quiver_rest_responses_total',
      help: 'REST responses',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        this.reset();
        for (const r of rest.values()) this.inc(r.byStatus, r.total);
      },
    });
    this.#restSeconds = new client.Histogram({
      name: 'quiver_rest_response_duration_seconds',
      help: 'REST time from request to response',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const grpc = this.#grpc;
    new client.Counter({
      name: 'quiver_grpc_responses_total',
      help: 'gRPC calls by final status code',
      labelNames: ['method', 'code'],
      registers,
      collect() {
        this.reset();
        for (const r of grpc.values()) this.inc(r.byCode, r.total);
      },
    });
    this.#grpcSeconds = new client.Histogram({
      name: 'quiver_grpc_response_duration_seconds',
      help: 'gRPC time from call to status',
      labelNames: ['method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#workerRestarts = new client.Counter({ name: 'quiver_worker_restarts_total', help: 'Shard worker threads that ended and were replaced', labelNames: ['worker'], registers });
    const coordinated = this.#coordinated;
    new client.Counter({
      name: 'quiver_coordinated_requests_total',
      help: 'Point requests handed off (raw REST body or gRPC message) to a coordinating worker, by that worker',
      labelNames: ['worker'],
      registers,
      collect() {
        this.reset();
        coordinated.forEach((n, worker) => {
          if (n > 0) this.inc({ worker: String(worker) }, n);
        });
      },
    });
    this.#mainBodies = new client.Counter({
      name: 'quiver_main_thread_json_bodies_total',
      help: 'JSON request bodies parsed on the main thread (the bodies of handed-off routes are parsed by their coordinating worker)',
      registers,
    });
    new client.Gauge({
      name: 'quiver_engine_ready',
      help: '1 once every shard is loaded, 0 while loading',
      registers,
      collect() {
        this.set(engine.ready ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'quiver_hnsw_build_info',
      help: 'The hnswlib-node build the shard workers loaded: native (compiled at install for this CPU, with its flags) or portable (npm)',
      labelNames: ['build', 'flags'],
      registers,
      collect() {
        this.reset();
        const b = engine.hnswBuild;
        if (b !== null) this.set({ build: b.kind, flags: b.flags }, 1);
      },
    });
    new client.Counter({
      name: 'quiver_worker_requests_total',
      help: 'Shard requests served by each worker, by op, whichever thread sent them: with replication_factor > 1, how reads spread over the copies',
      labelNames: ['worker', 'op'],
      registers,
      collect() {
        // Counted by each worker as it serves (by the router, without worker threads); copied at scrape time (the hot path keeps plain numbers).
        this.reset();
        for (const { worker, op, count } of engine.sentCounts()) this.inc({ worker: String(worker), op }, count);
      },
    });
    // Live recall (src/workers/service/live-recall.ts), read from the workers at scrape time, once
    // for both families (prom-client collects them concurrently: they share the scrape's answer).
    let recallAsked: ReturnType<Engine['liveRecall']> | null = null;
    const recallNow = (): ReturnType<Engine['liveRecall']> => {
      if (recallAsked === null) {
        const asked = engine.liveRecall().catch(() => []);
        recallAsked = asked;
        // Shared while it is asked; the next scrape asks again.
        void asked.finally(() => {
          if (recallAsked === asked) recallAsked = null;
        });
      }
      return recallAsked;
    };
    const liveRecall = (name: string, help: string, pick: (r: LiveRecallFigures) => number | null, kind: 'gauge' | 'counter'): void => {
      const config = {
        name,
        help,
        labelNames: ['collection', 'filtered'] as const,
        registers,
        async collect(this: client.Gauge<'collection' | 'filtered'> | client.Counter<'collection' | 'filtered'>) {
          this.reset();
          if (!engine.ready) return;
          for (const r of await recallNow()) {
            const value = pick(r);
            if (value === null) continue;
            const labels = { collection: r.collection, filtered: String(r.filtered) };
            if (this instanceof client.Gauge) this.set(labels, value);
            else this.inc(labels, value);
          }
        },
      };
      if (kind === 'gauge') new client.Gauge(config);
      else new client.Counter(config);
    };
    liveRecall('quiver_live_recall', 'Mean recall@k of the recent approximate searches checked exactly in the background (live_recall_fraction), per collection, filtered searches apart', (r) => r.recall, 'gauge');
    liveRecall('quiver_live_recall_samples_total', 'Approximate searches checked exactly for live recall since start, per collection, filtered searches apart', (r) => r.samples, 'counter');
    liveRecall(
      'quiver_live_recall_skipped_total',
      'Approximate searches picked for a live recall check since start but not checked (no room among the checks waiting under their time budget, the check failed, or no point matched), per collection, filtered searches apart',
      (r) => r.skipped,
      'counter',
    );
    new client.Gauge({
      name: 'quiver_collections',
      help: 'Collections (those being dropped excluded)',
      registers,
      collect() {
        if (engine.ready) this.set(engine.list().length);
      },
    });
    new client.Gauge({
      name: 'quiver_points',
      help: 'Points per collection',
      labelNames: ['collection'],
      registers,
      async collect() {
        this.reset();
        if (!engine.ready) return;
        const counts = await Promise.all(
          engine.list().map(async (meta) => {
            const n = await engine.pointCount(meta).catch(() => undefined);
            return [meta.name, n] as const;
          }),
        );
        for (const [name, n] of counts) if (n !== undefined) this.set({ collection: name }, n);
      },
    });
    // Background graph saves (graph-snapshots.ts): how many happened since start, and how many
    // writes a crash now would replay into the saved graphs.
    const graphGauge = (name: string, help: string, pick: (g: { saves: number; unsaved: number }) => number): void => {
      new client.Gauge({
        name,
        help,
        labelNames: ['collection'],
        registers,
        async collect() {
          this.reset();
          if (!engine.ready) return;
          const all = await Promise.all(engine.list().map(async (meta) => [meta.name, await engine.graphSaves(meta).catch(() => undefined)] as const));
          for (const [collection, g] of all) if (g !== undefined) this.set({ collection }, pick(g));
        },
      });
    };
    graphGauge('quiver_graph_saves', 'HNSW graph saves per collection since start, summed over its shards', (g) => g.saves);
    graphGauge('quiver_graph_unsaved_writes', 'Writes per collection not yet covered by a saved HNSW graph (replayed at a start after a crash)', (g) => g.unsaved);
    new client.Gauge({
      name: 'quiver_collection_memory_bytes',
      help: 'Estimated bytes a collection holds in memory, by kind: vectors (outside graphs), graph (HNSW with its vectors), payload_index, ids',
      labelNames: ['collection', 'kind'],
      registers,
      async collect() {
        this.reset();
        if (!engine.ready) return;
        const all = await Promise.all(engine.list().map(async (meta) => [meta.name, await engine.collectionMemory(meta).catch(() => undefined)] as const));
        for (const [name, m] of all) if (m !== undefined) for (const kind of MEMORY_KINDS) this.set({ collection: name, kind }, m[kind]);
      },
    });
    new client.Gauge({
      name: 'quiver_process_rss_anon_bytes',
      help: 'Anonymous resident memory of the process (RssAnon: LMDB file pages not counted)',
      registers,
      collect() {
        const m = processMemory().rss_anon_bytes;
        if (m !== null) this.set(m);
      },
    });
  }

  rest(method: string, route: string, status: number, seconds: number, collection?: string): void {
    const key = `${method} ${status} ${route}`;
    let r = this.#rest.get(key);
    if (r === undefined) {
      r = { total: 0, byStatus: { method, route, status: String(status) }, byRoute: { method, route } };
      this.#rest.set(key, r);
    }
    r.total++;
    this.#restSeconds.observe(r.byRoute, seconds);
    this.#qdrant.rest(method, route, status, seconds, collection);
  }

  /** A gRPC call's final status, by name (Quiver's series) and by number (Qdrant's). */
  grpc(method: string, code: string, numeric: number, seconds: number, collection: string | undefined): void {
    const key = `${code} ${method}`;
    let r = this.#grpc.get(key);
    if (r === undefined) {
      r = { total: 0, byCode: { method, code }, byMethod: { method } };
      this.#grpc.set(key, r);
    }
    r.total++;
    this.#grpcSeconds.observe(r.byMethod, seconds);
    this.#qdrant.grpc(method, numeric, seconds, collection);
  }

  coordinated(worker: number): void {
    this.#coordinated[worker] = (this.#coordinated[worker] ?? 0) + 1;
  }

  mainThreadBody(): void {
    this.#mainBodies.inc();
  }

  workerRestart(worker: number): void {
    this.#workerRestarts.inc({ worker: String(worker) });
  }

  /** Telemetry's `requests` (QdrantMetrics.responses). */
  responses(): ReturnType<QdrantMetrics['responses']> {
    return this.#qdrant.responses();
  }

  /** The exposition text and its content type; Qdrant's request families with a `collection` label when `perCollection`. */
  async scrape(perCollection = false): Promise<{ body: string; contentType: string }> {
    const all = client.Registry.merge([this.registry, this.#qdrant.requestRegistry(perCollection)]);
    return { body: await all.metrics(), contentType: this.registry.contentType };
  }
}
