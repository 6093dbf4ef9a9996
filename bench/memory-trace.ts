// `node dist/bench/memory-trace.js`: RssAnon of the server sampled every 100 ms through an ingest
// and after it, to find what the "right after ingest" figure of `npm run bench` (memory phase)
// holds that the settled one does not. The same dataset, batches and concurrency as bench/run.ts;
// SERVICE_* variables reach the server, so a suspect (say SERVICE_GRAPH_SAVE_WRITES=0) is toggled
// from the command line. Prints a line per 500 ms and the figures the bench computes, as JSON last.
//
// BENCH_N (100000), BENCH_DIM (128), BENCH_TRACE_AFTER_MS (5000): how long to sample after ingest.
// BENCH_ENTRY: another build's dist/src/main/index.js (inside the repo), for before/after.
// BENCH_TRACE_DIR: ingest into this data dir and keep it (for restart-times.ts); with
// BENCH_KILL_AT (a share of the batches, as bench/run.ts's crash phase) the server is killed
// with kill -9 once that many batches are acknowledged, and nothing else is measured.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { envInt, progress, stopAll } from './common.js';
import { Batches, countPoints, createCollection, ingest } from './lib/client.js';
import { makeDataset } from './lib/dataset.js';
import { memoryOf, processCpuMs } from './lib/proc.js';
import { killQuiver, startQuiver, stopQuiver } from './lib/server.js';

const N = envInt('BENCH_N', 100_000);
const DIM = envInt('BENCH_DIM', 128);
const AFTER_MS = envInt('BENCH_TRACE_AFTER_MS', 5000, 0);
const MiB = 1048576;
const KEEP = process.env.BENCH_TRACE_DIR;
const KILL_AT = process.env.BENCH_KILL_AT === undefined ? null : Number(process.env.BENCH_KILL_AT);

interface ThreadHeap {
  thread: string;
  heap_total_bytes: number;
  external_bytes: number;
  array_buffers_bytes: number;
}

async function threads(url: string): Promise<string> {
  const r = await fetch(`${url}/telemetry`);
  if (r.status !== 200) return `telemetry ${r.status}`;
  const body = (await r.json()) as { result?: { process_memory?: { threads?: ThreadHeap[] } } };
  return (body.result?.process_memory?.threads ?? [])
    .map((t) => `${t.thread}: heap ${(t.heap_total_bytes / MiB).toFixed(0)} ext ${(t.external_bytes / MiB).toFixed(0)} ab ${(t.array_buffers_bytes / MiB).toFixed(0)}`)
    .join('; ');
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-memtrace-'));
  try {
    const ds = makeDataset({ n: N, queries: 1, dim: DIM, clusters: 100, sigma: 0.3, seed: 1 });
    const batches = new Batches(ds, 1000);
    for (let b = 0; b < batches.count; b++) batches.body(b);
    const entry = process.env.BENCH_ENTRY;
    const q = await startQuiver({ dataDir: KEEP ?? join(scratch, 'data'), workers: availableParallelism(), scratch, ...(entry === undefined ? {} : { entry }) });
    await new Promise((r) => setTimeout(r, 500));
    const empty = memoryOf(q.pid).rssAnon;
    await createCollection(q.url, 'trace', DIM, 16, 100, {});
    const samples: [number, number][] = [];
    const t0 = performance.now();
    if (KILL_AT !== null) {
      const part = await ingest(q.url, 'trace', batches, 4, 0, batches.count, Math.max(1, Math.floor(batches.count * KILL_AT)));
      await killQuiver(q);
      progress(`killed with ${part.acked.length} batches acknowledged`);
      return;
    }
    const timer = setInterval(() => samples.push([performance.now() - t0, memoryOf(q.pid).rssAnon]), 100);
    // BENCH_TRACE_THREADS=1: each thread's heap and external memory every 500 ms beside RssAnon.
    const threadTimer =
      process.env.BENCH_TRACE_THREADS === '1'
        ? setInterval(() => {
            const t = performance.now() - t0;
            const anon = memoryOf(q.pid).rssAnon;
            void threads(q.url).then((h) => progress(`${(t / 1000).toFixed(1)} s: RssAnon +${((anon - empty) / MiB).toFixed(0)} MiB; ${h}`));
          }, 500)
        : null;
    const cpu0 = processCpuMs(q.pid) ?? 0;
    const ing = await ingest(q.url, 'trace', batches, 4);
    const ingestCpuMs = (processCpuMs(q.pid) ?? 0) - cpu0;
    const tEnd = performance.now() - t0;
    const count = await countPoints(q.url, 'trace');
    const atOnce = memoryOf(q.pid).rssAnon;
    const heaps = await threads(q.url);
    await new Promise((r) => setTimeout(r, AFTER_MS));
    clearInterval(timer);
    if (threadTimer !== null) clearInterval(threadTimer);
    const settled = memoryOf(q.pid).rssAnon;
    const heapsSettled = await threads(q.url);
    await stopQuiver(q);
    const raw = N * DIM * 4;
    let peak = 0;
    for (const [t, v] of samples) {
      if (v > peak) peak = v;
      if (Math.round(t / 100) % 5 === 0) progress(`${(t / 1000).toFixed(1)} s${t > tEnd ? ' (after)' : ''}: RssAnon ${((v - empty) / MiB).toFixed(1)} MiB over empty`);
    }
    progress(`ingest ${count} points in ${ing.seconds.toFixed(1)} s (${ing.rate.toFixed(0)}/s); heaps at once: ${heaps}`);
    progress(`heaps ${AFTER_MS} ms later: ${heapsSettled}`);
    console.log(
      JSON.stringify({
        n: N,
        rate: Math.round(ing.rate),
        ingestCpuS: +(ingestCpuMs / 1000).toFixed(1),
        growthAtOnce: +((atOnce - empty) / raw).toFixed(3),
        growthPeak: +((peak - empty) / raw).toFixed(3),
        growthSettled: +((settled - empty) / raw).toFixed(3),
        afterMs: AFTER_MS,
      }),
    );
  } finally {
    await stopAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
