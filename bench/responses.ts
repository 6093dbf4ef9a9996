// `npm run bench:responses`: what vectors cost in a response (issue 30). A fresh server
// (BENCH_WORKERS workers), BENCH_N x BENCH_DIM random Cosine points with a small payload in
// BENCH_SHARDS shards (default 1, Qdrant's), then the
// median of BENCH_RUNS REST scrolls of every point (one request, limit BENCH_N) without vectors and
// with them, the same with vectors over gRPC, and, in this process, JSON.stringify of the same
// number of float32 values (as JavaScript numbers) and the shortest-float conversion of them
// (src/shared/float.ts) alone. The target: a scroll with vectors at most twice the scroll without
// plus plain JSON.stringify of the floats.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-grpc';
import { callOk, cleanups, envInt, progress, rng, runBench, stopAll } from './common.js';
import { fmt, table } from './lib/report.js';
import { startQuiver, stopQuiver } from './lib/server.js';
import { float32ToNumber } from '../src/shared/float.js';

const CFG = {
  n: envInt('BENCH_N', 5000),
  dim: envInt('BENCH_DIM', 128),
  runs: envInt('BENCH_RUNS', 9),
  workers: envInt('BENCH_WORKERS', availableParallelism()),
  // 1 is Qdrant's default: every vector read and formatted by one worker
  shards: envInt('BENCH_SHARDS', 1),
  timeoutS: envInt('BENCH_TIMEOUT_S', 600),
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(runs: number, once: () => Promise<unknown>): Promise<number> {
  await once(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await once();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-responses-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const q = await startQuiver({ dataDir: join(scratch, 'data'), workers: CFG.workers, scratch });
  const rows: [string, number][] = [];
  let bytes = { without: 0, with: 0 };
  try {
    const post = (method: string, path: string, body: unknown): Promise<unknown> => callOk(q.url, method, path, JSON.stringify(body));
    await post('PUT', '/collections/r', { vectors: { size: CFG.dim, distance: 'Cosine' }, shard_number: CFG.shards });
    const r = rng(1);
    progress(`ingest ${CFG.n} x ${CFG.dim}`);
    for (let i = 0; i < CFG.n; i += 500) {
      const points = Array.from({ length: Math.min(500, CFG.n - i) }, (_, k) => ({ id: i + k, vector: Array.from({ length: CFG.dim }, () => r() - 0.5), payload: { n: i + k } }));
      await post('PUT', '/collections/r/points?wait=true', { points });
    }
    const scroll = (withVector: boolean) => async (): Promise<number> => {
      const res = await fetch(`${q.url}/collections/r/points/scroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: CFG.n, with_payload: true, with_vector: withVector }) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`scroll answered ${res.status}: ${text.slice(0, 200)}`);
      return text.length;
    };
    bytes = { without: await scroll(false)(), with: await scroll(true)() };
    progress('REST scrolls');
    rows.push(['REST scroll, no vectors', await timed(CFG.runs, scroll(false))]);
    rows.push(['REST scroll, with vectors', await timed(CFG.runs, scroll(true))]);
    const grpc = new QdrantClient({ host: '127.0.0.1', port: q.grpcPort, checkCompatibility: false });
    progress('gRPC scrolls');
    rows.push(['gRPC scroll, with vectors', await timed(CFG.runs, () => grpc.api('points').scroll({ collectionName: 'r', limit: CFG.n, withVectors: { selectorOptions: { case: 'enable', value: true } } }))]);
  } finally {
    await stopQuiver(q);
  }
  await stopAll();
  // The yardstick, in this process: the same count of float32 values.
  const floats = new Float32Array(CFG.n * CFG.dim);
  const r = rng(2);
  for (let i = 0; i < floats.length; i++) floats[i] = r() - 0.5;
  const numbers = Array.from(floats);
  rows.push(['JSON.stringify of the floats', await timed(CFG.runs, async () => JSON.stringify(numbers))]);
  rows.push(['shortest-float conversion of the floats', await timed(CFG.runs, async () => numbers.map(float32ToNumber))]);
  const get = (label: string): number => rows.find(([l]) => l === label)![1];
  const target = 2 * get('REST scroll, no vectors') + get('JSON.stringify of the floats');
  const out = table(['measure', 'median ms'], rows.map(([l, ms]) => [l, fmt(ms, 1)]));
  process.stdout.write(
    `\nResponses with vectors: ${CFG.n} points x ${CFG.dim}, Cosine, ${CFG.shards} shard(s), ${CFG.workers} workers, median of ${CFG.runs}; bodies ${(bytes.without / 1e6).toFixed(1)} MB without vectors, ${(bytes.with / 1e6).toFixed(1)} MB with\n\n${out.join('\n')}\n\n` +
      `Target (issue 30): a scroll with vectors at most 2 x without + JSON.stringify of the floats = ${fmt(target, 1)} ms; measured ${fmt(get('REST scroll, with vectors'), 1)} ms (${(get('REST scroll, with vectors') / target).toFixed(2)}x the target)\n`,
  );
}

runBench(main, CFG.timeoutS);
