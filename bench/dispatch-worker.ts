// Worker of bench/dispatch.ts: answers with its thread id (so the bench can check affinity)
// after `work` dot products over a shared vector block, a stand-in for a small search.

import { threadId } from 'node:worker_threads';

export interface DispatchTask {
  target: number;
  work: number;
  vectors: SharedArrayBuffer;
  query: Float32Array;
}

export default function handle(task: DispatchTask): { thread: number; best: number } {
  const data = new Float32Array(task.vectors);
  const dim = task.query.length;
  const n = Math.min(task.work, Math.floor(data.length / dim));
  let best = -Infinity;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += data[i * dim + d]! * task.query[d]!;
    if (s > best) best = s;
  }
  return { thread: threadId, best };
}
