// The metric families Qdrant's /metrics exposes, under Qdrant's names and labels, beside Quiver's
// own, so that dashboards and alerts written for Qdrant read a Quiver node unchanged:
//   app_info{name,version}, app_status_recovery_mode, cluster_enabled
//   collections_total, collections_vector_total, collection_points{id}, collection_vectors{collection,vector}
//   rest_responses_{total,fail_total}{method,endpoint,status}, rest_responses_{avg,min,max}_duration_seconds
//     (status 200 only, as Qdrant), rest_responses_duration_seconds histogram{method,endpoint,status}
//   grpc_responses_{total,fail_total,avg,min,max}{endpoint}, grpc_responses_duration_seconds{endpoint}
// Endpoints are route templates written as Qdrant writes them (`/collections/{name}/points`).
// A REST response fails when it is a 5xx; a gRPC call when its code is not OK.

import client from 'prom-client';
import type { Engine } from './engine.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10];

/** Quiver's route template as Qdrant names it: `:collection_name` is `{name}`, other params `{param}`. */
export function qdrantEndpoint(route: string): string {
  return route.replace(/:collection_name\b/g, '{name}').replace(/:([A-Za-z_]+)/g, '{$1}');
}

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
  fail: number;
  /** Qdrant's avg/min/max (status 200 only for REST). */
  t: Timing | null;
}

/** Series by a key built from the label values; counters and the avg/min/max gauges over them. */
class SeriesSet<L extends string> {
  readonly byKey = new Map<string, Series<L>>();

  get(key: string, labels: () => Record<L, string>): Series<L> {
    let s = this.byKey.get(key);
    if (s === undefined) {
      s = { labels: labels(), total: 0, fail: 0, t: null };
      this.byKey.set(key, s);
    }
    return s;
  }

  static time(s: Series<string>, seconds: number): void {
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

  counters(prefix: string, help: string, labelNames: L[], registers: client.Registry[]): void {
    const byKey = this.byKey;
    const counter = (name: string, what: string, read: (s: Series<L>) => number): void => {
      new client.Counter({
        name,
        help: what,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const s of byKey.values()) {
            const n = read(s);
            if (n > 0) this.inc(s.labels, n);
          }
        },
      });
    };
    counter(`${prefix}_total`, `total number of responses through ${help}`, (s) => s.total);
    counter(`${prefix}_fail_total`, `total number of failed responses through ${help}`, (s) => s.fail);
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
  }
}

export class QdrantMetrics {
  readonly #rest = new SeriesSet<'method' | 'endpoint' | 'status'>();
  readonly #restSeconds: client.Histogram<'method' | 'endpoint' | 'status'>;
  readonly #grpc = new SeriesSet<'endpoint'>();
  readonly #grpcSeconds: client.Histogram<'endpoint'>;

  /** `clusterMode`: the node runs in cluster mode (etcd and NATS configured), as Qdrant's cluster_enabled reports. */
  constructor(registry: client.Registry, engine: Engine, version: string, clusterMode: boolean) {
    const registers = [registry];
    new client.Gauge({ name: 'app_info', help: 'information about the server', labelNames: ['name', 'version'], registers }).set({ name: 'quiver', version }, 1);
    new client.Gauge({ name: 'app_status_recovery_mode', help: 'whether the server started in recovery mode', registers }).set(0);
    new client.Gauge({ name: 'cluster_enabled', help: 'whether cluster support is enabled', registers }).set(clusterMode ? 1 : 0);
    new client.Gauge({
      name: 'collections_total',
      help: 'number of collections',
      registers,
      collect() {
        if (engine.ready) this.set(engine.list().length);
      },
    });

    // One fan-out per scrape feeds the three vector and point families.
    let pending: Promise<{ name: string; points: number; vectors: Record<string, number> }[]> | null = null;
    const sizes = () => {
      pending ??= (async () => {
        if (!engine.ready) return [];
        const all = await Promise.all(
          engine.list().map(async (meta) => {
            const size = await engine.collectionSize(meta).catch(() => ({ points: 0, vectors: {} }));
            return { name: meta.name, ...size };
          }),
        );
        return all;
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
    new client.Gauge({
      name: 'collection_points',
      help: 'number of points per collection',
      labelNames: ['id'],
      registers,
      async collect() {
        this.reset();
        for (const c of await sizes()) this.set({ id: c.name }, c.points);
      },
    });
    new client.Gauge({
      name: 'collection_vectors',
      help: 'number of vectors per collection and vector name',
      labelNames: ['collection', 'vector'],
      registers,
      async collect() {
        this.reset();
        for (const c of await sizes()) for (const [vector, n] of Object.entries(c.vectors)) this.set({ collection: c.name, vector }, n);
      },
    });

    const rest: ('method' | 'endpoint' | 'status')[] = ['method', 'endpoint', 'status'];
    this.#rest.counters('rest_responses', 'REST API', rest, registers);
    this.#restSeconds = new client.Histogram({
      name: 'rest_responses_duration_seconds',
      help: 'histogram of response durations in REST API',
      labelNames: rest,
      buckets: BUCKETS,
      registers,
    });
    this.#grpc.counters('grpc_responses', 'gRPC API', ['endpoint'], registers);
    this.#grpcSeconds = new client.Histogram({
      name: 'grpc_responses_duration_seconds',
      help: 'histogram of response durations in gRPC API',
      labelNames: ['endpoint'],
      buckets: BUCKETS,
      registers,
    });
  }

  rest(method: string, route: string, status: number, seconds: number): void {
    const s = this.#rest.get(`${method} ${status} ${route}`, () => ({ method, endpoint: qdrantEndpoint(route), status: String(status) }));
    s.total++;
    if (status >= 500) s.fail++;
    this.#restSeconds.observe(s.labels, seconds);
    if (status === 200) SeriesSet.time(s, seconds);
  }

  grpc(endpoint: string, ok: boolean, seconds: number): void {
    const s = this.#grpc.get(endpoint, () => ({ endpoint }));
    s.total++;
    if (!ok) s.fail++;
    this.#grpcSeconds.observe(s.labels, seconds);
    SeriesSet.time(s, seconds);
  }
}
