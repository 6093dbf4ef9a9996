// `npm run bench:payloads`: what on_disk_payload saves and costs (docs/storage.md, "Payloads on
// disk"), through the REST API. For each of payloads in memory and on disk, with the filtered keys
// unindexed and then indexed: a fresh server (BENCH_WORKERS workers), BENCH_N x BENCH_DIM random
// points each with a ~420-byte JSON payload (a 10-value keyword, a counter, text, tags), then
// RssAnon growth over the server's RssAnon before the collection existed (both after
// BENCH_SETTLE_MS idle), and the mean latency of BENCH_QUERIES sequential queries of each kind:
// plain, with payloads, filtered on a key 10% of the points match, on a range 1% match; and one
// exact filtered count. Sequential single queries: the figures compare the two storages on the
// same machine, they are not throughput.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { callOk, cleanups, envInt, progress, rng, runBench, stopAll } from './common.js';
import { statusBytes } from './lib/proc.js';
import { fmt, table } from './lib/report.js';
import { startQuiver, stopQuiver } from './lib/server.js';

const CFG = {
  n: envInt('BENCH_N', 50_000),
  dim: envInt('BENCH_DIM', 128),
  queries: envInt('BENCH_QUERIES', 200),
  workers: envInt('BENCH_WORKERS', availableParallelism()),
  settleMs: envInt('BENCH_SETTLE_MS', 8000),
  timeoutS: envInt('BENCH_TIMEOUT_S', 1800),
};
const MiB = 1048576;
const COLORS = ['red', 'green', 'blue', 'cyan', 'pink', 'gray', 'navy', 'teal', 'plum', 'gold'];

interface Result {
  label: string;
  anonGrowth: number;
  ms: Record<string, number>;
}

function payload(i: number): Record<string, unknown> {
  return { color: COLORS[i % COLORS.length], n: i, text: 'lorem ipsum dolor sit amet '.repeat(12), tags: ['a', 'b', 'c'] };
}

let scratch = '';

async function measure(onDisk: boolean, indexed: boolean, jsonBytes: { total: number }): Promise<Result> {
  const label = `payloads ${onDisk ? 'on disk' : 'in memory'}, filtered keys ${indexed ? 'indexed' : 'unindexed'}`;
  const q = await startQuiver({ dataDir: join(scratch, label.replace(/\W+/g, '-')), workers: CFG.workers, scratch });
  try {
    await new Promise((r) => setTimeout(r, CFG.settleMs));
    const anon = (): number => statusBytes(readFileSync(`/proc/${q.pid}/status`, 'utf8'), 'RssAnon');
    const before = anon();
    const post = (method: string, path: string, body: unknown): Promise<unknown> => callOk(q.url, method, path, JSON.stringify(body));
    await post('PUT', '/collections/p', { vectors: { size: CFG.dim, distance: 'Cosine' }, on_disk_payload: onDisk });
    const r = rng(1);
    const vector = (): number[] => Array.from({ length: CFG.dim }, () => r() - 0.5);
    progress(`${label}: ingest ${CFG.n} x ${CFG.dim}`);
    jsonBytes.total = 0;
    for (let i = 0; i < CFG.n; i += 500) {
      const points = [];
      for (let k = i; k < Math.min(CFG.n, i + 500); k++) {
        const p = payload(k);
        jsonBytes.total += JSON.stringify(p).length;
        points.push({ id: k, vector: vector(), payload: p });
      }
      await post('PUT', '/collections/p/points?wait=true', { points });
    }
    if (indexed) {
      await post('PUT', '/collections/p/index?wait=true', { field_name: 'color', field_schema: 'keyword' });
      await post('PUT', '/collections/p/index?wait=true', { field_name: 'n', field_schema: 'integer' });
    }
    await new Promise((res) => setTimeout(res, CFG.settleMs));
    const growth = anon() - before;
    const time = async (body: () => unknown, n = CFG.queries): Promise<number> => {
      const t = performance.now();
      for (let i = 0; i < n; i++) await post('POST', '/collections/p/points/query', body());
      return (performance.now() - t) / n;
    };
    const ms: Record<string, number> = {
      plain: await time(() => ({ query: vector(), limit: 10 })),
      'with payload': await time(() => ({ query: vector(), limit: 10, with_payload: true })),
      'filter 10%': await time(() => ({ query: vector(), limit: 10, filter: { must: [{ key: 'color', match: { value: 'red' } }] } })),
      'filter 1%': await time(() => ({ query: vector(), limit: 10, filter: { must: [{ key: 'n', range: { lt: CFG.n / 100 } }] } })),
    };
    const t = performance.now();
    await post('POST', '/collections/p/points/count', { filter: { must: [{ key: 'color', match: { value: 'red' } }] }, exact: true });
    ms['count 10%'] = performance.now() - t;
    progress(`  RssAnon +${(growth / MiB).toFixed(0)} MiB; ms a query: ${Object.entries(ms).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
    return { label, anonGrowth: growth, ms };
  } finally {
    await stopQuiver(q);
  }
}

async function main(): Promise<void> {
  scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-payloads-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const json = { total: 0 };
  const results: Result[] = [];
  for (const indexed of [false, true]) for (const onDisk of [false, true]) results.push(await measure(onDisk, indexed, json));
  await stopAll();
  const kinds = Object.keys(results[0]!.ms);
  const out = table(
    ['configuration', 'RssAnon growth', ...kinds.map((k) => `${k} ms`)],
    results.map((r) => [r.label, `${(r.anonGrowth / MiB).toFixed(0)} MiB`, ...kinds.map((k) => fmt(r.ms[k]!, 2))]),
  );
  process.stdout.write(`\nPayload storage bench: ${CFG.n} x ${CFG.dim} random points, Cosine, ${CFG.workers} workers, payloads' JSON ${(json.total / MiB).toFixed(0)} MiB\n\n${out.join('\n')}\n`);
}

runBench(main, CFG.timeoutS);
