// The figures of bench/sparse.ts: per collection ingested, per case measured, and the whole report
// (also the JSON written to bench/results/).

import type { LoadFigures } from '../common.js';
import type { Check } from './check.js';

export interface Ingest {
  collection: string;
  docs: number;
  seconds: number;
  rate: number;
  bodyBytes: number;
  batchMs: { p50: number; p99: number; mean: number };
  rssBefore: number;
  rssAfter: number;
  bytesPerDoc: number;
}

export interface Case {
  name: string;
  collection: string;
  description: string;
  check: Check;
  /** Hybrid only: the sparse leg against brute force, and dense-leg recall against exact search. */
  sparseLeg: Check | null;
  denseLegRecall: number | null;
  /** Hybrid only: 1-client latency of each leg sent alone (limit BENCH_PREFETCH_LIMIT), over the checked queries. */
  legLatencyMs: { dense: { p50: number; p99: number; mean: number }; sparse: { p50: number; p99: number; mean: number } } | null;
  sequentialLatencyMs: { p50: number; p99: number; mean: number };
  load: LoadFigures | null;
  drainMs: number | null;
}

export interface Report {
  startedAt: string;
  finishedAt: string;
  params: {
    N: number;
    nnz: number;
    vocab: number;
    zipf: number;
    queries: number;
    qnnz: { mean: number; min: number; max: number };
    checkedQueries: number;
    k: number;
    seconds: number;
    connections: number;
    batch: number;
    ingestConcurrency: number;
    shards: number;
    denseDim: number;
    prefetchLimit: number;
    rrfK: number;
  };
  env: { node: string; cores: number; cpu: string; commit: string | null; loadavgStart: number[]; loadavgEnd: number[] };
  data: {
    generateS: number;
    bruteForceS: number;
    termsUsed: number;
    maxDf: number;
    /** Fraction of documents holding the commonest term. */
    maxDfFraction: number;
    termsInHalfTheDocs: number;
    /** Postings a query walks (sum of its terms' df), over the queries. */
    postingsPerQuery: { mean: number; max: number; min: number };
    /** Documents sharing at least one term with a query (those the server scores), over the checked queries. */
    candidatesPerQuery: { mean: number; max: number };
  };
  ingest: Ingest[];
  memory: { rssEmpty: number; rssAfterLoad: number; hwmAfterLoad: number };
  patch: { ms: number; modifierAfter: string | null };
  cases: Case[];
  serverStop: { ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean };
  serverProblems: string[];
}
