// What vectors cost in a response (issue 30), as a phase of `npm run bench` and alone as
// `npm run bench:responses`. A fresh server, n x dim random Cosine points with a small payload in
// `shards` shards (default 1, Qdrant's), then the median of `runs` REST scrolls of every point (one
// request, limit n) without vectors and with them, the same with vectors over gRPC, `quiver export`
// of the collection (points/s, the CLI's own pages of 256), and, in this process, JSON.stringify of
// the same number of float32 values (as JavaScript numbers) and the shortest-float conversion of
// them (src/shared/float.ts) alone. The target: a scroll with vectors at most twice the scroll
// without plus plain JSON.stringify of the floats.

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-grpc';
import { callOk, envInt, progress, REPO, rng } from '../common.js';
import { fmt, table } from '../lib/report-format.js';
import { startQuiver, stopQuiver } from '../lib/server.js';
import { float32ToNumber } from '../../src/shared/float.js';

export interface ResponsesConfig {
  n: number;
  dim: number;
  runs: number;
  workers: number;
  shards: number;
}

export function responsesConfig(workers: number): ResponsesConfig {
  return { n: envInt('BENCH_RESP_N', 5000), dim: envInt('BENCH_RESP_DIM', 128), runs: envInt('BENCH_RESP_RUNS', 9), workers, shards: envInt('BENCH_RESP_SHARDS', 1) };
}

export interface ResponsesFigures {
  config: ResponsesConfig;
  /** Median ms of each measure, by label. */
  ms: Record<string, number>;
  bytes: { without: number; with: number };
  /** `quiver export` of the collection, points/s (one run, after a warm-up scroll). */
  exportPointsPerS: number;
  targetMs: number;
}

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

/** `quiver export` (the built CLI) of collection `name` to a file: its wall time in ms. */
function exportMs(url: string, name: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [join(REPO, 'dist', 'src', 'cli', 'index.js'), '--url', url, 'export', '-c', name, file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`quiver export exited ${code}: ${err.slice(-500)}`))));
  });
}

export async function responsesPhase(scratch: string, c: ResponsesConfig): Promise<ResponsesFigures> {
  const dir = mkdtempSync(join(scratch, 'responses-'));
  const q = await startQuiver({ dataDir: join(dir, 'data'), workers: c.workers, scratch: dir });
  const ms: Record<string, number> = {};
  let bytes = { without: 0, with: 0 };
  let exportPointsPerS = 0;
  try {
    const post = (method: string, path: string, body: unknown): Promise<unknown> => callOk(q.url, method, path, JSON.stringify(body));
    await post('PUT', '/collections/r', { vectors: { size: c.dim, distance: 'Cosine' }, shard_number: c.shards });
    const r = rng(1);
    progress(`responses: ingest ${c.n} x ${c.dim}`);
    for (let i = 0; i < c.n; i += 500) {
      const points = Array.from({ length: Math.min(500, c.n - i) }, (_, k) => ({ id: i + k, vector: Array.from({ length: c.dim }, () => r() - 0.5), payload: { n: i + k } }));
      await post('PUT', '/collections/r/points?wait=true', { points });
    }
    const scroll = (withVector: boolean) => async (): Promise<number> => {
      const res = await fetch(`${q.url}/collections/r/points/scroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: c.n, with_payload: true, with_vector: withVector }) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`scroll answered ${res.status}: ${text.slice(0, 200)}`);
      return text.length;
    };
    bytes = { without: await scroll(false)(), with: await scroll(true)() };
    progress('responses: REST scrolls');
    ms['REST scroll, no vectors'] = await timed(c.runs, scroll(false));
    ms['REST scroll, with vectors'] = await timed(c.runs, scroll(true));
    const grpc = new QdrantClient({ host: '127.0.0.1', port: q.grpcPort, checkCompatibility: false });
    progress('responses: gRPC scrolls');
    ms['gRPC scroll, with vectors'] = await timed(c.runs, () => grpc.api('points').scroll({ collectionName: 'r', limit: c.n, withVectors: { selectorOptions: { case: 'enable', value: true } } }));
    progress('responses: quiver export');
    exportPointsPerS = (c.n / (await exportMs(q.url, 'r', join(dir, 'export.jsonl')))) * 1000;
  } finally {
    await stopQuiver(q);
  }
  // The yardstick, in this process: the same count of float32 values.
  const floats = new Float32Array(c.n * c.dim);
  const r = rng(2);
  for (let i = 0; i < floats.length; i++) floats[i] = r() - 0.5;
  const numbers = Array.from(floats);
  ms['JSON.stringify of the floats'] = await timed(c.runs, async () => JSON.stringify(numbers));
  ms['shortest-float conversion of the floats'] = await timed(c.runs, async () => numbers.map(float32ToNumber));
  const targetMs = 2 * ms['REST scroll, no vectors']! + ms['JSON.stringify of the floats']!;
  return { config: c, ms, bytes, exportPointsPerS, targetMs };
}

export function responsesReport(f: ResponsesFigures): string[] {
  const c = f.config;
  const withMs = f.ms['REST scroll, with vectors']!;
  return [
    `Responses with vectors: ${c.n} points x ${c.dim}, Cosine, ${c.shards} shard(s), ${c.workers} workers, median of ${c.runs}; bodies ${(f.bytes.without / 1e6).toFixed(1)} MB without vectors, ${(f.bytes.with / 1e6).toFixed(1)} MB with`,
    '',
    ...table(['measure', 'median ms'], Object.entries(f.ms).map(([l, ms]) => [l, fmt(ms, 1)])),
    `quiver export (JSONL, pages of 256): ${fmt(f.exportPointsPerS)} points/s`,
    '',
    `Target (issue 30): a scroll with vectors at most 2 x without + JSON.stringify of the floats = ${fmt(f.targetMs, 1)} ms; measured ${fmt(withMs, 1)} ms (${(withMs / f.targetMs).toFixed(2)}x the target)`,
  ];
}
