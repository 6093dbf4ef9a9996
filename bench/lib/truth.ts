// Exact top-k ground truth over worker threads: the float32 points and queries go once into
// SharedArrayBuffers, each thread takes a contiguous slice of the queries (bench/lib/truth-worker.ts).

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { exactTopK } from './dataset.js';

export interface TruthJob {
  data: Float32Array;
  n: number;
  queries: Float32Array;
  q0: number;
  q1: number;
  dim: number;
  k: number;
}

function shared(a: Float32Array): Float32Array {
  const s = new Float32Array(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
}

export async function groundTruth(data: Float32Array, n: number, queries: Float32Array, nq: number, dim: number, k: number, threads = availableParallelism()): Promise<number[][]> {
  const t = Math.max(1, Math.min(threads, nq));
  if (t === 1) return exactTopK(data, n, queries, 0, nq, dim, k);
  const sd = shared(data);
  const sq = shared(queries);
  const per = Math.ceil(nq / t);
  const parts = await Promise.all(
    Array.from({ length: t }, (_, w) => {
      const job: TruthJob = { data: sd, n, queries: sq, q0: Math.min(nq, w * per), q1: Math.min(nq, (w + 1) * per), dim, k };
      return new Promise<number[][]>((res, rej) => {
        const worker = new Worker(new URL('./truth-worker.js', import.meta.url), { workerData: job });
        worker.once('message', (m: number[][]) => res(m));
        worker.once('error', rej);
        worker.once('exit', (code) => (code === 0 ? undefined : rej(new Error(`ground-truth thread exited with ${code}`))));
      });
    }),
  );
  return parts.flat();
}
