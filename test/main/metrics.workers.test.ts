// GET /metrics through a real server: Prometheus text with the process metrics, collections and
// points read from the engine at scrape time, and every REST response and gRPC call counted by
// route or method and outcome, with latency histograms. (Before-ready scrapes are checked in
// grpc-lifecycle.workers.test.ts, worker restarts in worker-crash.workers.test.ts, and the
// access rule in the auth matrix.)

import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient } from '../helpers/grpc.js';
import { sample, scrape } from '../helpers/metrics.js';
import parsePrometheus from 'parse-prometheus-text-format';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 2 });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const SEARCH = { method: 'POST', route: '/collections/:collection_name/points/search' };

describe('GET /metrics', () => {
  it('serves Prometheus text with version, readiness and process metrics', async () => {
    const r = await fetch(`${server.url}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await r.text();
    expect(sample(text, 'quiver_info', { version: '0.1.0', qdrant_api: '1.19.0' })).toBe(1);
    expect(sample(text, 'quiver_engine_ready')).toBe(1);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('counts collections and the points of each, as they change', async () => {
    for (const name of ['ma', 'mb']) await call(server.url, 'PUT', `/collections/${name}`, { vectors: { size: 2, distance: 'Dot' } });
    await call(server.url, 'PUT', '/collections/ma/points?wait=true', { points: Array.from({ length: 7 }, (_, i) => ({ id: i, vector: [1, i] })) });
    await call(server.url, 'PUT', '/collections/mb/points?wait=true', { points: Array.from({ length: 3 }, (_, i) => ({ id: i, vector: [i, 1] })) });
    let text = await scrape(server.url);
    expect(sample(text, 'quiver_collections')).toBe(2);
    expect(sample(text, 'quiver_points', { collection: 'ma' })).toBe(7);
    expect(sample(text, 'quiver_points', { collection: 'mb' })).toBe(3);

    await call(server.url, 'POST', '/collections/ma/points/delete?wait=true', { points: [0, 1] });
    await call(server.url, 'DELETE', '/collections/mb');
    text = await scrape(server.url);
    expect(sample(text, 'quiver_collections')).toBe(1);
    expect(sample(text, 'quiver_points', { collection: 'ma' })).toBe(5);
    expect(sample(text, 'quiver_points', { collection: 'mb' })).toBeUndefined();
  });

  it('counts REST responses by route template and status, with latencies', async () => {
    const before = await scrape(server.url);
    for (let i = 0; i < 5; i++) expect((await call(server.url, 'POST', '/collections/ma/points/search', { vector: [1, 0], limit: 2 })).status).toBe(200);
    expect((await call(server.url, 'POST', '/collections/nope/points/search', { vector: [1, 0], limit: 2 })).status).toBe(404);
    expect((await call(server.url, 'GET', '/no/such/route')).status).toBe(404);
    const after = await scrape(server.url);
    const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('quiver_rest_responses_total', { ...SEARCH, status: '200' })).toBe(5);
    expect(delta('quiver_rest_responses_total', { ...SEARCH, status: '404' })).toBe(1);
    expect(delta('quiver_rest_responses_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta('quiver_rest_response_duration_seconds_count', SEARCH)).toBe(6);
    expect(sample(after, 'quiver_rest_response_duration_seconds_sum', SEARCH)).toBeGreaterThan(0);
    expect(sample(after, 'quiver_rest_response_duration_seconds_bucket', { ...SEARCH, le: '+Inf' })).toBe(sample(after, 'quiver_rest_response_duration_seconds_count', SEARCH));
  });

  it('counts gRPC calls by method and final status code', async () => {
    const client = grpcClient(server);
    const before = await scrape(server.url);
    for (let i = 0; i < 3; i++) await client.api('points').count({ collectionName: 'ma' });
    expect((await failure(client.api('points').count({ collectionName: 'nope' }))).code).toBe(Code.NotFound);
    const after = await scrape(server.url);
    const delta = (labels: Record<string, string>) => (sample(after, 'quiver_grpc_responses_total', labels) ?? 0) - (sample(before, 'quiver_grpc_responses_total', labels) ?? 0);
    expect(delta({ method: '/qdrant.Points/Count', code: 'OK' })).toBe(3);
    expect(delta({ method: '/qdrant.Points/Count', code: 'NOT_FOUND' })).toBe(1);
    expect(sample(after, 'quiver_grpc_response_duration_seconds_count', { method: '/qdrant.Points/Count' })).toBeGreaterThanOrEqual(4);
  });

  it("serves Qdrant's metric names and labels beside Quiver's, so Qdrant dashboards read them", async () => {
    await call(server.url, 'PUT', '/collections/qm', { vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 3, distance: 'Euclid' } } });
    await call(server.url, 'PUT', '/collections/qm/points?wait=true', {
      points: [
        { id: 1, vector: { a: [1, 0], b: [1, 2, 3] } },
        { id: 2, vector: { a: [0, 1] } },
        { id: 3, vector: { b: [0, 0, 1] } },
      ],
    });
    const before = await scrape(server.url);
    for (let i = 0; i < 4; i++) await call(server.url, 'POST', '/collections/qm/points/count', {});
    expect((await call(server.url, 'POST', '/collections/nope/points/count', {})).status).toBe(404);
    const client = grpcClient(server);
    await client.api('points').count({ collectionName: 'qm' });
    expect((await failure(client.api('points').count({ collectionName: 'nope' }))).code).toBe(Code.NotFound);
    const text = await scrape(server.url);

    // The version GET / answers.
    const root = await call(server.url, 'GET', '/');
    // As Qdrant's own check reads it: app_info{name="qdrant",version="..."}.
    expect(text).toContain(`app_info{name="qdrant",version="${root.body.version}"} 1`);
    expect(sample(text, 'app_info', { name: 'qdrant', version: root.body.version })).toBe(1);
    expect(sample(text, 'cluster_enabled')).toBe(0);
    expect(sample(text, 'collections_total')).toBe(sample(text, 'quiver_collections'));
    expect(sample(text, 'collection_points', { id: 'qm' })).toBe(3);
    expect(sample(text, 'collection_vectors', { collection: 'qm', vector: 'a' })).toBe(2);
    expect(sample(text, 'collection_vectors', { collection: 'qm', vector: 'b' })).toBe(2);
    expect(sample(text, 'collections_vector_total')).toBeGreaterThanOrEqual(4);

    const COUNT = { method: 'POST', endpoint: '/collections/{collection_name}/points/count' };
    const delta = (name: string, labels: Record<string, string>) => (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('rest_responses_total', { ...COUNT, status: '200' })).toBe(4);
    expect(delta('rest_responses_total', { ...COUNT, status: '404' })).toBe(1);
    // No _fail_total families in Qdrant 1.19; a collection's info is not a counted endpoint.
    expect(text).not.toMatch(/_responses_fail_total/);
    expect(text).not.toMatch(/endpoint="\/collections\/\{collection_name\}"/);
    expect(delta('rest_responses_duration_seconds_count', { ...COUNT, status: '200' })).toBe(4);
    const avg = sample(text, 'rest_responses_avg_duration_seconds', { ...COUNT, status: '200' })!;
    expect(avg).toBeGreaterThan(0);
    expect(sample(text, 'rest_responses_min_duration_seconds', { ...COUNT, status: '200' })).toBeLessThanOrEqual(avg);
    expect(sample(text, 'rest_responses_max_duration_seconds', { ...COUNT, status: '200' })).toBeGreaterThanOrEqual(avg);
    // Qdrant reports timings of successful REST responses only.
    expect(sample(text, 'rest_responses_avg_duration_seconds', { ...COUNT, status: '404' })).toBeUndefined();

    // gRPC: by the numeric status code, timed for every status.
    const G = { endpoint: '/qdrant.Points/Count' };
    expect(delta('grpc_responses_total', { ...G, status: '0' })).toBe(1);
    expect(delta('grpc_responses_total', { ...G, status: '5' })).toBe(1);
    expect(delta('grpc_responses_duration_seconds_count', { ...G, status: '5' })).toBe(1);
    expect(sample(text, 'grpc_responses_max_duration_seconds', { ...G, status: '0' })).toBeGreaterThan(0);
  });

  it('Qdrant 1.19 families with their types, read by a Prometheus parser; per_collection=true labels requests by collection', async () => {
    for (let i = 0; i < 2; i++) await call(server.url, 'POST', '/collections/qm/points/count', {});
    const families = new Map(parsePrometheus(await scrape(server.url)).map((f) => [f.name, f]));
    const want: [string, string][] = [
      ['app_info', 'GAUGE'],
      ['app_status_recovery_mode', 'GAUGE'],
      ['cluster_enabled', 'GAUGE'],
      ['collections_total', 'GAUGE'],
      ['collections_vector_total', 'GAUGE'],
      ['collection_points', 'GAUGE'],
      ['collection_vectors', 'GAUGE'],
      ['collection_running_optimizations', 'GAUGE'],
      ['rest_responses_total', 'COUNTER'],
      ['rest_responses_avg_duration_seconds', 'GAUGE'],
      ['rest_responses_min_duration_seconds', 'GAUGE'],
      ['rest_responses_max_duration_seconds', 'GAUGE'],
      ['rest_responses_duration_seconds', 'HISTOGRAM'],
      ['grpc_responses_total', 'COUNTER'],
      ['grpc_responses_duration_seconds', 'HISTOGRAM'],
      ['memory_active_bytes', 'GAUGE'],
      ['memory_allocated_bytes', 'GAUGE'],
      ['memory_metadata_bytes', 'GAUGE'],
      ['memory_resident_bytes', 'GAUGE'],
      ['memory_retained_bytes', 'GAUGE'],
      ['process_threads', 'GAUGE'],
      ['process_open_mmaps', 'GAUGE'],
      ['system_max_mmaps', 'GAUGE'],
      ['process_open_fds', 'GAUGE'],
      ['process_max_fds', 'GAUGE'],
      ['process_minor_page_faults_total', 'COUNTER'],
      ['process_major_page_faults_total', 'COUNTER'],
    ];
    for (const [name, type] of want) expect(families.get(name)?.type, name).toBe(type);
    expect(Number(families.get('process_threads')!.metrics[0]!.value)).toBeGreaterThan(2);
    expect(Number(families.get('memory_resident_bytes')!.metrics[0]!.value)).toBeGreaterThan(1e6);
    const count = families.get('rest_responses_total')!.metrics.find((m) => m.labels?.endpoint === '/collections/{collection_name}/points/count' && m.labels.status === '200')!;
    expect(Object.keys(count.labels!).sort()).toEqual(['endpoint', 'method', 'status']);
    // Qdrant's buckets: 1 us to 50 s.
    const hist = families.get('rest_responses_duration_seconds')!.metrics[0]!;
    expect(Object.keys(hist.buckets!).filter((b) => b !== '+Inf').map(Number).sort((a, b) => a - b)).toEqual([1e-6, 5e-6, 1e-5, 5e-5, 1e-4, 5e-4, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 50]);

    const per = new Map(parsePrometheus(await (await fetch(`${server.url}/metrics?per_collection=true`)).text()).map((f) => [f.name, f]));
    const byCollection = per.get('rest_responses_total')!.metrics.find((m) => m.labels?.endpoint === '/collections/{collection_name}/points/count' && m.labels.collection === 'qm' && m.labels.status === '200');
    expect(Number(byCollection?.value)).toBeGreaterThanOrEqual(2);
    expect(per.get('rest_responses_total')!.metrics.every((m) => m.labels?.collection !== undefined)).toBe(true);
    expect(per.get('app_info')?.type).toBe('GAUGE');
  });

  it("GET /telemetry: Qdrant's document by details_level, requests from the same counts as the metrics", async () => {
    await call(server.url, 'POST', '/collections/qm/points/count', {});
    const root = await call(server.url, 'GET', '/');
    const t0 = (await call(server.url, 'GET', '/telemetry')).body.result;
    expect(t0.app.version).toBe(root.body.version);
    expect(t0.app.quiver_version).toBe('0.1.0');
    expect(t0.app.features).toBeUndefined();
    expect(t0.requests).toBeUndefined();
    expect(Object.keys(t0.collections)).toEqual(['number_of_collections']);
    expect(t0.cluster).toEqual({ enabled: false });

    const t1 = (await call(server.url, 'GET', '/telemetry?details_level=1')).body.result;
    expect(t1.app.features).toMatchObject({ recovery_mode: false, gpu: false });
    expect(t1.app.runtime_features).toMatchObject({ all: false });
    // Level 1: one aggregate per collection (Qdrant's key list, in its order).
    const agg = t1.collections.collections.find((c: { params: { vectors: object } }) => 'a' in c.params.vectors);
    expect(Object.keys(agg)).toEqual(['vectors', 'optimizers_status', 'params']);
    expect(agg).toMatchObject({ vectors: 4, optimizers_status: 'ok', params: { shard_number: 1, vectors: { a: { size: 2 }, b: { size: 3 } } } });
    const count = t1.requests.rest.responses['POST /collections/{collection_name}/points/count']['200'];
    expect(count.count).toBeGreaterThanOrEqual(1);
    expect(count.avg_duration_micros).toBeGreaterThan(0);
    expect(count.last_responded.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(t1.requests.grpc.responses['/qdrant.Points/Count']).toBeDefined();
    expect(t1.memory.resident_bytes).toBeGreaterThan(1e6);
    // Levels 2 to 4, as Qdrant's own telemetry check reads them: keys and their order.
    const qm = async (level: number) => {
      const t = (await call(server.url, 'GET', `/telemetry?details_level=${level}`)).body.result;
      return t.collections.collections.find((c: { id: string }) => c.id === 'qm');
    };
    const t2 = await qm(2);
    expect(Object.keys(t2)).toEqual(['id', 'init_time_ms', 'config']);
    expect(t2.config).toEqual((await call(server.url, 'GET', '/collections/qm')).body.result.config);
    const t3 = await qm(3);
    expect(Object.keys(t3)).toEqual(['id', 'init_time_ms', 'config', 'shards', 'transfers', 'resharding']);
    const shard = t3.shards[0];
    expect(Object.keys(shard)).toEqual(['id', 'key', 'local', 'remote', 'replicate_states']);
    expect(Object.keys(shard.local)).toEqual([
      'variant_name', 'status', 'total_optimized_points', 'vectors_size_bytes', 'payloads_size_bytes', 'num_points', 'num_vectors', 'num_vectors_by_name', 'optimizations', 'async_scorer',
    ]);
    // Two `a` rows of 2 float32 and two `b` rows of 3: 40 bytes; no payloads.
    expect(shard.local).toMatchObject({ status: 'green', vectors_size_bytes: 40, payloads_size_bytes: 0, num_points: 3, num_vectors: 4, num_vectors_by_name: { a: 2, b: 2 } });
    expect(Object.values(shard.replicate_states)).toEqual(['Active']);
    const t4 = await qm(4);
    const segment = t4.shards[0].local.segments[0];
    expect(Object.keys(segment)).toEqual(['info', 'config', 'vector_index_searches', 'payload_field_indices']);
    expect(segment.info).toMatchObject({ num_points: 3, num_vectors: 4, vectors_size_bytes: 40, vector_data: { a: { num_vectors: 2 }, b: { num_vectors: 2 } } });
    expect(segment.config.vector_data.b).toMatchObject({ size: 3, distance: 'Euclid', index: { type: 'hnsw' } });
    // A negative level does not read (Qdrant's usize): 400.
    expect((await call(server.url, 'GET', '/telemetry?details_level=-1')).status).toBe(400);
  });
});

