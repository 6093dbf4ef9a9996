// The metric families Qdrant 1.19's /metrics exposes on a single node, under Qdrant's names,
// labels and types, beside Quiver's own (quiver_*), so that dashboards and alerts written for
// Qdrant read a Quiver node unchanged:
//   app_info{name,version} (the version GET / answers), app_status_recovery_mode, cluster_enabled
//   collections_total, collections_vector_total, collection_points{id}, collection_vectors{collection,vector},
//   collection_running_optimizations{id}
//   rest_responses_total{method,endpoint,status}, rest_responses_{avg,min,max}_duration_seconds (status
//     200 only, as Qdrant), rest_responses_duration_seconds histogram; grpc_responses_* alike with
//     {endpoint,status} (the numeric gRPC code), timings for every status. Only the point operations
//     are counted, as Qdrant's whitelist, with endpoints as Qdrant writes them
//     (`/collections/{collection_name}/points`); `?per_collection=true` gives them a `collection` label.
//   memory_{active,allocated,metadata,resident,retained}_bytes (Qdrant's jemalloc figures, from V8's
//     and the kernel's here: qdrant-process.ts), process_threads, process_open_mmaps, system_max_mmaps,
//     process_{minor,major}_page_faults_total (process_open_fds and process_max_fds come from
//     prom-client's defaults, under the same names).

import client from 'prom-client';
import type { Engine } from './engine.js';
import { POINT_OPS } from '../shared/point-ops.js';
import { processFamilies } from './qdrant-process.js';

/** Qdrant's histogram bounds, in seconds (1 us to 50 s). */
const BUCKETS = [1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50];

/** Quiver's route template as Qdrant names it: `:param` is `{param}`. */
export function qdrantEndpoint(route: string): string {
  return route.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** The REST routes counted: the point operations (Qdrant's whitelist is its point routes). */
const COUNTED_ROUTES = new Set(Object.keys(POINT_OPS));

interface Timing {
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * One label set's running figures, in plain numbers: the hot path bumps them, and the counters
 * and gauges read them at scrape time (prom-client's inc hashes and checks the labels per call).
 */
interface Series<L extends string> {
  labels: Record<L, string>;
  total: number;
  /** When it last answered (epoch ms): telemetry's last_responded. */
  last: number;
  /** Qdrant's avg/min/max (status 200 only for REST). */
  t: Timing | null;
}

/** Series by a key built from the label values: the `_total` counter, the avg/min/max gauges and the histogram over them. */
class SeriesSet<L extends string> {
  readonly byKey = new Map<string, Series<L>>();
  readonly #seconds: client.Histogram<L>;

  constructor(prefix: string, help: string, labelNames: L[], registry: client.Registry) {
    const registers = [registry];
    const byKey = this.byKey;
    new client.Counter({
      name: `${prefix}_total`,
      help: `total number of responses through ${help}`,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const s of byKey.values()) this.inc(s.labels, s.total);
      },
    });
    const gauge = (stat: 'avg' | 'min' | 'max', read: (t: Timing) => number): void => {
      new client.Gauge({
        name: `${prefix}_${stat}_duration_seconds`,
        help: `${help}: ${stat === 'avg' ? 'average' : stat === 'min' ? 'minimum' : 'maximum'} response duration`,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const s of byKey.values()) if (s.t !== null) this.set(s.labels, read(s.t));
        },
      });
    };
    gauge('avg', (t) => t.sum / t.count);
    gauge('min', (t) => t.min);
    gauge('max', (t) => t.max);
    this.#seconds = new client.Histogram({ name: `${prefix}_duration_seconds`, help: `histogram of response durations in ${help}`, labelNames, buckets: BUCKETS, registers });
  }

  /** One response: counted, observed, and timed when `timed`. */
  record(key: string, labels: () => Record<L, string>, seconds: number, timed: boolean): void {
    let s = this.byKey.get(key);
    if (s === undefined) {
      s = { labels: labels(), total: 0, last: 0, t: null };
      this.byKey.set(key, s);
    }
    s.total++;
    s.last = Date.now();
    this.#seconds.observe(s.labels, seconds);
    if (!timed) return;
    const t = s.t;
    if (t === null) {
      s.t = { count: 1, sum: seconds, min: seconds, max: seconds };
      return;
    }
    t.count++;
    t.sum += seconds;
    if (seconds < t.min) t.min = seconds;
    if (seconds > t.max) t.max = seconds;
  }
}

/** Qdrant's OperationDurationStatistics. */
export interface DurationStats {
  count: number;
  avg_duration_micros?: number;
  min_duration_micros?: number;
  max_duration_micros?: number;
  total_duration_micros?: number;
  last_responded: string;
}

/** The request families twice: without a collection label (the default) and with one (`?per_collection=true`). */
interface RequestFamilies {
  registry: client.Registry;
  rest: SeriesSet<string>;
  grpc: SeriesSet<string>;
}

function requestFamilies(perCollection: boolean): RequestFamilies {
  const registry = new client.Registry();
  const extra = perCollection ? ['collection'] : [];
  return {
    registry,
    rest: new SeriesSet<string>('rest_responses', 'REST API', ['method', 'endpoint', 'status', ...extra], registry),
    grpc: new SeriesSet<string>('grpc_responses', 'gRPC API', ['endpoint', 'status', ...extra], registry),
  };
}

export class QdrantMetrics {
  readonly #global = requestFamilies(false);
  readonly #perCollection = requestFamilies(true);

  /**
   * `version`: the one GET / answers; `clusterMode`: the node runs in cluster mode (etcd and NATS
   * configured), as Qdrant's cluster_enabled reports.
   */
  constructor(registry: client.Registry, engine: Engine, version: string, clusterMode: boolean) {
    const registers = [registry];
    // The Qdrant server it answers as: Qdrant's name and API version, as Qdrant's own checks and
    // dashboards read them (Quiver's own name and version: quiver_info).
    new client.Gauge({ name: 'app_info', help: 'information about qdrant server', labelNames: ['name', 'version'], registers }).set({ name: 'qdrant', version }, 1);
    new client.Gauge({ name: 'app_status_recovery_mode', help: 'features enabled in qdrant server', registers }).set(0);
    new client.Gauge({ name: 'cluster_enabled', help: 'is cluster support enabled', registers }).set(clusterMode ? 1 : 0);
    new client.Gauge({
      name: 'collections_total',
      help: 'number of collections',
      registers,
      collect() {
        if (engine.ready) this.set(engine.list().length);
      },
    });

    // One fan-out per scrape feeds the vector, point and optimization families.
    let pending: Promise<{ name: string; points: number; vectors: Record<string, number>; optimizing: number }[]> | null = null;
    const sizes = () => {
      pending ??= (async () => {
        if (!engine.ready) return [];
        return Promise.all(
          engine.list().map(async (meta) => {
            const shards = await engine.fanOut(meta, { op: 'shardInfo' }).catch(() => []);
            const vectors: Record<string, number> = {};
            for (const s of shards) if (!s.secondary) for (const [v, n] of Object.entries(s.vectors)) vectors[v] = (vectors[v] ?? 0) + n;
            const primaries = shards.filter((s) => !s.secondary);
            return { name: meta.name, points: primaries.reduce((n, s) => n + s.points, 0), vectors, optimizing: primaries.filter((s) => s.rebuilding || s.catchingUp).length };
          }),
        );
      })().finally(() => setImmediate(() => (pending = null)));
      return pending;
    };
    new client.Gauge({
      name: 'collections_vector_total',
      help: 'total number of vectors in all collections',
      registers,
      async collect() {
        const all = await sizes();
        this.set(all.reduce((n, c) => n + Object.values(c.vectors).reduce((a, b) => a + b, 0), 0));
      },
    });
    const perCollection = (name: string, help: string, read: (c: Awaited<ReturnType<typeof sizes>>[number]) => number): void => {
      new client.Gauge({
        name,
        help,
        labelNames: ['id'],
        registers,
        async collect() {
          this.reset();
          for (const c of await sizes()) this.set({ id: c.name }, read(c));
        },
      });
    };
    perCollection('collection_points', 'approximate amount of points per collection', (c) => c.points);
    perCollection('collection_running_optimizations', 'number of currently running optimization tasks per collection', (c) => c.optimizing);
    new client.Gauge({
      name: 'collection_vectors',
      help: 'amount of vectors grouped by vector name',
      labelNames: ['collection', 'vector'],
      registers,
      async collect() {
        this.reset();
        for (const c of await sizes()) for (const [vector, n] of Object.entries(c.vectors)) this.set({ collection: c.name, vector }, n);
      },
    });
    processFamilies(registers);
  }

  /**
   * Telemetry's `requests`: per protocol, `METHOD /endpoint` (gRPC: the method path), then status,
   * then Qdrant's OperationDurationStatistics (durations in microseconds, where timed).
   */
  responses(): { rest: { responses: Record<string, Record<string, DurationStats>> }; grpc: { responses: Record<string, Record<string, DurationStats>> } } {
    const table = (set: SeriesSet<string>, key: (l: Record<string, string>) => string): Record<string, Record<string, DurationStats>> => {
      const out: Record<string, Record<string, DurationStats>> = {};
      for (const s of set.byKey.values()) {
        const t = s.t;
        (out[key(s.labels)] ??= {})[s.labels['status']!] = {
          count: s.total,
          ...(t === null
            ? {}
            : { avg_duration_micros: (t.sum / t.count) * 1e6, min_duration_micros: t.min * 1e6, max_duration_micros: t.max * 1e6, total_duration_micros: Math.round(t.sum * 1e6) }),
          last_responded: new Date(s.last).toISOString(),
        };
      }
      return out;
    };
    return {
      rest: { responses: table(this.#global.rest, (l) => `${l['method']} ${l['endpoint']}`) },
      grpc: { responses: table(this.#global.grpc, (l) => l['endpoint']!) },
    };
  }

  /** The request families to expose: with a `collection` label when `perCollection`. */
  requestRegistry(perCollection: boolean): client.Registry {
    return (perCollection ? this.#perCollection : this.#global).registry;
  }

  /** A REST response; counted when its route is a point operation. */
  rest(method: string, route: string, status: number, seconds: number, collection: string | undefined): void {
    if (!COUNTED_ROUTES.has(`${method} ${route}`)) return;
    const labels = { method, endpoint: qdrantEndpoint(route), status: String(status) };
    const timed = status === 200;
    this.#global.rest.record(`${method} ${status} ${route}`, () => labels, seconds, timed);
    this.#perCollection.rest.record(`${method} ${status} ${route} ${collection ?? ''}`, () => ({ ...labels, collection: collection ?? '' }), seconds, timed);
  }

  /** A gRPC call of the Points service, by its numeric status code. */
  grpc(endpoint: string, code: number, seconds: number, collection: string | undefined): void {
    if (!endpoint.startsWith('/qdrant.Points/')) return;
    const labels = { endpoint, status: String(code) };
    this.#global.grpc.record(`${code} ${endpoint}`, () => labels, seconds, true);
    this.#perCollection.grpc.record(`${code} ${endpoint} ${collection ?? ''}`, () => ({ ...labels, collection: collection ?? '' }), seconds, true);
  }
}
