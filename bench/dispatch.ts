// How to pin a shard's tasks to the thread that owns it (docs/decisions.md section 1: "measure which is faster"):
// (a) one single-thread piscina pool per worker, what Quiver runs; (b) one pool of N threads with
// a load balancer that reads the target worker from the task's queue options. Same worker code,
// same tasks, the same number in flight; the bench checks that (b) really keeps affinity.
//
// BENCH_DISPATCH_WORKERS (default 2), BENCH_DISPATCH_TASKS (20000 per case), BENCH_DISPATCH_INFLIGHT
// (64), and the work per task in dot products of 128-d vectors: 0 (a bare IPC round trip) and 2000.

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { DispatchTask } from './dispatch-worker.js';

const WORKERS = Number(process.env.BENCH_DISPATCH_WORKERS ?? Math.min(2, availableParallelism()));
const TASKS = Number(process.env.BENCH_DISPATCH_TASKS ?? 20_000);
const INFLIGHT = Number(process.env.BENCH_DISPATCH_INFLIGHT ?? 64);
const DIM = 128;
const FILE = fileURLToPath(new URL('./dispatch-worker.js', import.meta.url));
type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;
const COMMON = { filename: FILE, idleTimeout: Number.POSITIVE_INFINITY, atomics: 'disabled' as const, concurrentTasksPerWorker: 64 };

interface Dispatcher {
  run(target: number, task: DispatchTask): Promise<{ thread: number }>;
  close(): Promise<void>;
}

function poolPerWorker(): Dispatcher {
  const pools = Array.from({ length: WORKERS }, () => new Piscina({ ...COMMON, minThreads: 1, maxThreads: 1 }));
  return {
    run: (target, task) => pools[target]!.run(task) as Promise<{ thread: number }>,
    close: async () => void (await Promise.all(pools.map((p) => p.close()))),
  };
}

function balancedPool(): Dispatcher {
  const targetOf = (task: object): number => (Reflect.get(task, Piscina.queueOptionsSymbol) as { target: number } | undefined)?.target ?? 0;
  // Workers sorted by id give a stable index for the life of each thread.
  const balancer: LoadBalancer = (task, workers) => {
    if (workers.length < WORKERS) return null; // until every thread is up, hold the queue
    const sorted = [...workers].sort((a, b) => a.id - b.id);
    return sorted[targetOf(task)] ?? null;
  };
  const pool = new Piscina({ ...COMMON, minThreads: WORKERS, maxThreads: WORKERS, loadBalancer: balancer });
  return {
    run: (target, task) => pool.run({ ...task, [Piscina.queueOptionsSymbol]: { target } }) as Promise<{ thread: number }>,
    close: () => pool.close(),
  };
}

async function measure(name: string, d: Dispatcher, work: number): Promise<Record<string, number | string>> {
  const vectors = new SharedArrayBuffer(2000 * DIM * 4);
  new Float32Array(vectors).forEach((_, i, a) => (a[i] = Math.sin(i)));
  const query = new Float32Array(DIM).fill(0.1);
  const threadsOf = Array.from({ length: WORKERS }, () => new Set<number>());
  // Warm-up: every thread up and its code compiled.
  await Promise.all(Array.from({ length: WORKERS * 50 }, (_, i) => d.run(i % WORKERS, { target: i % WORKERS, work, vectors, query })));
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < TASKS) {
        const target = next++ % WORKERS;
        const s = performance.now();
        const r = await d.run(target, { target, work, vectors, query });
        latencies.push(performance.now() - s);
        threadsOf[target]!.add(r.thread);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await d.close();
  latencies.sort((a, b) => a - b);
  const pinned = threadsOf.every((s) => s.size === 1) && new Set(threadsOf.flatMap((s) => [...s])).size === WORKERS;
  return {
    dispatch: name,
    work,
    tasks_per_s: Math.round(TASKS / seconds),
    p50_ms: Number(latencies[Math.floor(latencies.length * 0.5)]!.toFixed(3)),
    p99_ms: Number(latencies[Math.floor(latencies.length * 0.99)]!.toFixed(3)),
    pinned: pinned ? 'yes' : 'NO',
  };
}

const rows: Record<string, number | string>[] = [];
for (const work of [0, 2000]) {
  // Alternate the order so neither case always runs on a warmer machine.
  for (const [name, make] of work === 0 ? ([['pool per worker', poolPerWorker], ['one pool + balancer', balancedPool]] as const) : ([['one pool + balancer', balancedPool], ['pool per worker', poolPerWorker]] as const)) {
    rows.push(await measure(name, make(), work));
    console.error(JSON.stringify(rows.at(-1)));
  }
}
console.log(`workers ${WORKERS}, ${TASKS} tasks per case, ${INFLIGHT} in flight`);
console.table(rows);
