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

/** Average, minimum and maximum per label set, read by gauges at scrape time. */
class Timings {
  readonly #byKey = new Map<string, { labels: Record<string, string>; t: Timing }>();

  observe(labels: Record<string, string>, seconds: number): void {
    const key = Object.values(labels).join('\u0000');
    const e = this.#byKey.get(key);
    if (e === undefined) {
      this.#byKey.set(key, { labels, t: { count: 1, sum: seconds, min: seconds, max: seconds } });
      return;
    }
    e.t.count++;
    e.t.sum += seconds;
    e.t.min = Math.min(e.t.min, seconds);
    e.t.max = Math.max(e.t.max, seconds);
  }

  gauges(prefix: string, help: string, labelNames: string[], registers: client.Registry[]): void {
    const each = (stat: 'avg' | 'min' | 'max', read: (t: Timing) => number): void => {
      const byKey = this.#byKey;
      new client.Gauge({
        name: `${prefix}_${stat}_duration_seconds`,
        help: `${help}: ${stat === 'avg' ? 'average' : stat === 'min' ? 'minimum' : 'maximum'} response duration`,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const { labels, t } of byKey.values()) this.set(labels, read(t));
        },
      });
    };
    each('avg', (t) => t.sum / t.count);
    each('min', (t) => t.min);
    each('max', (t) => t.max);
  }
}

export class QdrantMetrics {
  readonly #restTotal: client.Counter<'method' | 'endpoint' | 'status'>;
  readonly #restFail: client.Counter<'method' | 'endpoint' | 'status'>;
  readonly #restSeconds: client.Histogram<'method' | 'endpoint' | 'status'>;
  readonly #restTimings = new Timings();
  readonly #grpcTotal: client.Counter<'endpoint'>;
  readonly #grpcFail: client.Counter<'endpoint'>;
  readonly #grpcSeconds: client.Histogram<'endpoint'>;
  readonly #grpcTimings = new Timings();

  constructor(registry: client.Registry, engine: Engine, version: string) {
    const registers = [registry];
    new client.Gauge({ name: 'app_info', help: 'information about the server', labelNames: ['name', 'version'], registers }).set({ name: 'quiver', version }, 1);
    new client.Gauge({ name: 'app_status_recovery_mode', help: 'whether the server started in recovery mode', registers }).set(0);
    new client.Gauge({ name: 'cluster_enabled', help: 'whether cluster support is enabled', registers }).set(0);
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

    const rest = ['method', 'endpoint', 'status'] as const;
    this.#restTotal = new client.Counter({ name: 'rest_responses_total', help: 'total number of responses through REST API', labelNames: rest, registers });
    this.#restFail = new client.Counter({ name: 'rest_responses_fail_total', help: 'total number of failed responses through REST API', labelNames: rest, registers });
    this.#restSeconds = new client.Histogram({
      name: 'rest_responses_duration_seconds',
      help: 'histogram of response durations in REST API',
      labelNames: rest,
      buckets: BUCKETS,
      registers,
    });
    this.#restTimings.gauges('rest_responses', 'REST API', [...rest], registers);
    this.#grpcTotal = new client.Counter({ name: 'grpc_responses_total', help: 'total number of responses through gRPC API', labelNames: ['endpoint'], registers });
    this.#grpcFail = new client.Counter({ name: 'grpc_responses_fail_total', help: 'total number of failed responses through gRPC API', labelNames: ['endpoint'], registers });
    this.#grpcSeconds = new client.Histogram({
      name: 'grpc_responses_duration_seconds',
      help: 'histogram of response durations in gRPC API',
      labelNames: ['endpoint'],
      buckets: BUCKETS,
      registers,
    });
    this.#grpcTimings.gauges('grpc_responses', 'gRPC API', ['endpoint'], registers);
  }

  rest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, endpoint: qdrantEndpoint(route), status: String(status) };
    this.#restTotal.inc(labels);
    if (status >= 500) this.#restFail.inc(labels);
    this.#restSeconds.observe(labels, seconds);
    if (status === 200) this.#restTimings.observe(labels, seconds);
  }

  grpc(endpoint: string, ok: boolean, seconds: number): void {
    const labels = { endpoint };
    this.#grpcTotal.inc(labels);
    if (!ok) this.#grpcFail.inc(labels);
    this.#grpcSeconds.observe(labels, seconds);
    this.#grpcTimings.observe(labels, seconds);
  }
}
