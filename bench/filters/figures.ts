// The figures of bench/filters.ts: one case per filter and collection, the plan each shard is
// expected to take, and the whole report (also the JSON written to bench/results/).

import { shardOf } from '../../src/shared/placement.js';
import type { LoadFigures } from '../common.js';
import { DIM, K, type CollectionName } from './config.js';

/** One filter ('none' = unfiltered) against one collection. */
export interface Case {
  filter: string;
  collection: CollectionName;
  indexed: boolean;
  matching: number;
  recall: number;
  /** Results that fail the filter (must be 0). */
  filterViolations: number;
  /** Queries answered with fewer than min(k, matching) points. */
  shortAnswers: number;
  sequentialLatencyMs: { p50: number; p99: number; mean: number };
  load: LoadFigures | null;
  /** After the load run: ms until a request queued behind the server's backlog came back. */
  drainMs: number | null;
  countLatencyMs: { p50: number; p99: number; mean: number } | null;
  countWrong: number;
  scrollLatencyMs: { p50: number; p99: number; mean: number } | null;
  scrollWrong: number;
}

export interface Plan {
  perShard: number[];
  threshold: number;
  /** What each shard's search does: exact over the candidates, or HNSW with the filter. */
  kind: 'exact' | 'hnsw+filter' | 'mixed';
}

export function planOf(ids: ArrayLike<number>, shardNumber: number, fullScanThresholdKb: number): Plan {
  const perShard = new Array<number>(shardNumber).fill(0);
  for (let j = 0; j < ids.length; j++) perShard[shardOf(ids[j]!, shardNumber)]!++;
  // full_scan_threshold is in KB of vectors, as in Qdrant.
  const threshold = Math.max(Math.floor((fullScanThresholdKb * 1024) / (DIM * 4)), K);
  const exact = perShard.filter((c) => c <= threshold).length;
  return { perShard, threshold, kind: exact === shardNumber ? 'exact' : exact === 0 ? 'hnsw+filter' : 'mixed' };
}

export interface Report {
  startedAt: string;
  finishedAt: string;
  params: {
    N: number;
    dim: number;
    queries: number;
    seconds: number;
    k: number;
    connections: number;
    sequentialRequests: number;
    scrollLimit: number;
    fieldType: string;
    distance: string;
    shards: number;
    fullScanThreshold: number;
    fullScanThresholdSetByBench: boolean;
    hnsw: { m: number | null; efConstruct: number | null };
  };
  env: { node: string; cores: number; cpu: string; commit: string | null };
  bruteForceS: number;
  ingest: Record<string, { seconds: number; rate: number }>;
  indexBuildMs: Record<string, number>;
  memory: { rssEmpty: number; rssAfterIngest: number; rssAfterLoad: number };
  plans: Record<string, { field: string; matching: number } & Plan>;
  cases: Case[];
  serverStop: { ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean };
  serverProblems: string[];
}
