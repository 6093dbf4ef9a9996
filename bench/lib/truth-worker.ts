// One ground-truth thread: exact top-k for its slice of the queries, posted back once.

import { parentPort, workerData } from 'node:worker_threads';
import { exactTopK } from './dataset.js';
import type { TruthJob } from './truth.js';

const job = workerData as TruthJob;
parentPort!.postMessage(exactTopK(job.data, job.n, job.queries, job.q0, job.q1, job.dim, job.k));
