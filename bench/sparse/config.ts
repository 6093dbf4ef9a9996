// bench/sparse.ts's configuration (BENCH_* env variables, listed in its header), its seeds and
// collection names, and the sizes derived from them.

import { availableParallelism } from 'node:os';
import { envInt } from '../common.js';

function envFloat(name: string, def: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number >= ${min}, got '${raw}'`);
  return v;
}

export const N = envInt('BENCH_N', 100_000);
export const NNZ = envInt('BENCH_NNZ', 100);
export const VOCAB = envInt('BENCH_VOCAB', 30_000);
export const ZIPF = envFloat('BENCH_ZIPF', 1.0, 0);
export const QUERIES = envInt('BENCH_QUERIES', 100);
export const QNNZ = envInt('BENCH_QNNZ', 20);
export const CHECK = Math.min(QUERIES, envInt('BENCH_CHECK_QUERIES', 100));
export const SECONDS = envInt('BENCH_SECONDS', 5);
export const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
export const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
export const BATCH = envInt('BENCH_BATCH', 500);
export const INGEST_CONCURRENCY = envInt('BENCH_INGEST_CONCURRENCY', 4);
export const DENSE_DIM = envInt('BENCH_DENSE_DIM', 64);
export const PREFETCH_LIMIT = envInt('BENCH_PREFETCH_LIMIT', 20);
export const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 3600);
export const K = 10;
/** Quiver's (and Qdrant's) default RRF constant. */
export const RRF_K = 2;
export const DOC_SEED = 11;
export const QUERY_SEED = 12;
export const PERM_SEED = 13;
export const DENSE_SEED = 14;
export const DENSE_QUERY_SEED = 15;
export const SPARSE = 'sparse_text';
export const HYBRID = 'sparse_hybrid';
export const QMIN = Math.max(1, Math.floor(QNNZ / 2));
export const QMAX = Math.max(QMIN, Math.ceil((3 * QNNZ) / 2));
/** How deep the brute force ranks: the hybrid's sparse leg, plus one to see ties at the cut. */
export const DEPTH = Math.max(K, PREFETCH_LIMIT) + 1;

if (2 * NNZ > VOCAB) throw new Error(`BENCH_NNZ (${NNZ}) must be at most half of BENCH_VOCAB (${VOCAB})`);
if (2 * QMAX > VOCAB) throw new Error(`BENCH_QNNZ (${QNNZ}) is too large for BENCH_VOCAB (${VOCAB})`);
