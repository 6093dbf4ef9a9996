// The shape of a bench run's figures (bench/run.ts): also the JSON written to bench/results/ and
// read back by `--report`, so fields only ever get added (optional where older runs lack them).

import type { Measured } from './load.js';
import type { CpuPerRequest } from './proc.js';
import type { RawBuild } from './raw.js';
import type { EmbeddingFigures } from '../run/embedding.js';
import type { KindsFigures } from '../run/kinds.js';
import type { ResponsesFigures } from '../run/responses.js';
import type { TenantFigures } from '../run/tenant.js';

export interface SettingResult {
  key: string;
  workers: number;
  /** created with the server's default collection settings */
  defaults: boolean;
  shardNumber: number;
  replicationFactor: number;
  readyMs: number;
  hnswBuild: string | null;
  perEf: { ef: number; recall: number; peak: Measured }[];
  latencyEf: number;
  halfPeak: Measured;
  grpc: Measured | null;
  /** gRPC at half its own peak, paced by h2load (absent from runs before it existed) */
  grpcHalfPeak?: Measured | null;
  grpcError: string | null;
  ingest: { rate: number; workers: number; cpu: CpuPerRequest; ingestedNow: boolean };
  rssAnon: number;
}

/** What a setting that failed leaves in the results. */
export interface SettingFailure {
  key: string;
  error: string;
}

export interface Sweeps {
  results: Record<string, SettingResult | SettingFailure>;
  workersKeys: string[];
  shardKeys: string[];
  replicaKeys: string[];
}

export interface MemoryFigures {
  workers: number;
  layout: { shardNumber: number; replicationFactor: number };
  rawVectorBytes: number;
  emptyRssAnon: number;
  afterIngestRssAnon: number;
  afterRestartRssAnon: number;
  emptyRss: number;
  afterIngestRss: number;
  afterRestartRss: number;
  growthAfterIngest: number;
  /** RssAnon once the server was quiet for settleMs after the ingest and the recall check (each thread gives its garbage back when quiet). */
  afterIngestSettledRssAnon: number;
  growthAfterIngestSettled: number;
  settleMs: number;
  growthAfterRestart: number;
  ingest: { rate: number; seconds: number; cpu: CpuPerRequest };
  firstStartReadyMs: number;
  shutdownMs: number;
  shutdownKilled: boolean;
  readyAfterSigtermMs: number;
  readyzMessages: string[];
  engineReady: Record<string, unknown> | null;
  loadLog: string[];
  countAfter: number;
  recallBefore: number;
  recallAfter: number;
  /** The crash phase's searchability check on this never-killed graph, same ids (absent in older reports). */
  cleanSearchSample?: { sample: number; ownNearestFound: number; notFound: number };
  collectionInfo: unknown;
  telemetry: unknown;
}

export interface CrashFigures {
  workers: number;
  killAt: number;
  acknowledgedPoints: number;
  readyAfterKillMs: number;
  countAfterRestart: number;
  acknowledgedMissing: number;
  missingSample: number[];
  searchSample: number;
  /** The sampled points found as their own nearest at `ownNearestAtEf` (the bench's ef): a rate, as HNSW is approximate. */
  ownNearestAtEf: number;
  ownNearestFound: number;
  highEf: number;
  /** The sampled points not found as their own nearest at `ownNearestAtEf`, nor again at `highEf`: not searchable. */
  searchSampleNotFound: number;
  engineReady: Record<string, unknown> | null;
  loadLog: string[];
  readyzMessages: string[];
  countAfterCompletingIngest: number;
  recallAfterCompletingIngest: number;
}

export interface Report {
  startedAt: string;
  config: {
    large: boolean;
    n: number;
    dim: number;
    queries: number;
    clusters: number;
    sigma: number;
    k: number;
    m: number;
    efConstruct: number;
    efs: number[];
    latencyEf: number;
    seconds: number;
    warmupS: number;
    connections: number;
    grpcConcurrency: number;
    batch: number;
    ingestConcurrency: number;
    workers: number;
    sweepWorkers: number;
    replicaShards: number;
  };
  env: { node: string; cores: number; cpu: string; memBytes: number; commit: string | null; loadGenerator: string; grpcLoadGenerator: string; loadAverage: number[] };
  phaseSeconds: Record<string, number>;
  /** phases that failed, with the error */
  errors: Record<string, string>;
  raw: { builds: RawBuild[]; nativeUnavailable: string | null } | null;
  memory: MemoryFigures | null;
  crash: CrashFigures | null;
  /** issue 27's phase (absent from runs before it existed) */
  embedding?: EmbeddingFigures | null;
  kinds?: KindsFigures | null;
  responses?: ResponsesFigures | null;
  tenant?: TenantFigures | null;
  sweeps: Sweeps | null;
}

/** A setting that was measured (not one that failed). */
export const ok = (r: SettingResult | SettingFailure | undefined): r is SettingResult => r !== undefined && !('error' in r);
