// What bench/run.ts's phases share: the run's data, ground truth and request bodies, the data
// dirs already ingested per collection layout, and the measurements more than one phase takes.

import { progress } from '../common.js';
import { ingest, searchAll, searchBody, type Batches, type IngestResult } from '../lib/client.js';
import { recallAtK, rowOf, type Dataset } from '../lib/dataset.js';
import { cpuPerRequest, sampleCpu, type CpuPerRequest } from '../lib/proc.js';
import type { Quiver } from '../lib/server.js';
import { CFG, COLLECTION, OWN_NEAREST_HIGH_EF } from './config.js';

export interface Ctx {
  ds: Dataset;
  truth: number[][];
  batches: Batches;
  /** search bodies per ef (REST) */
  bodies: Map<number, string[]>;
  queryRows: number[][];
  scratch: string;
  /** layout key (`sn2-rf1`) -> data dir holding collection 'bench' with that layout, ingested */
  layouts: Map<string, { dir: string; ingest: IngestResult & { workers: number; cpu: CpuPerRequest } }>;
  /** worker count -> the layout a collection created with default settings got there */
  defaultsAt: Map<number, { sn: number; rf: number }>;
}

export const layoutKey = (sn: number, rf: number): string => `sn${sn}-rf${rf}`;

export async function ingestMeasured(q: Quiver, name: string, ctx: Ctx): Promise<IngestResult & { workers: number; cpu: CpuPerRequest }> {
  const before = sampleCpu(q.pid, q.tidFile);
  const r = await ingest(q.url, name, ctx.batches, CFG.ingestConcurrency);
  const cpu = cpuPerRequest(before, sampleCpu(q.pid, q.tidFile), r.points);
  progress(`  ingest ${r.points} points in ${r.seconds.toFixed(1)} s: ${r.rate.toFixed(0)} points/s (${cpu.coresBusy.toFixed(2)} cores busy)`);
  return { ...r, workers: q.workers, cpu };
}

export async function recallAt(q: Quiver, ef: number, ctx: Ctx, name = COLLECTION): Promise<number> {
  return recallAtK(await searchAll(q.url, name, ctx.bodies.get(ef)!), ctx.truth);
}

/**
 * The ids the searchability check samples: 200 spread evenly over the first killAt of the data,
 * the points the crash phase has acknowledged when it kills (batches go out in order), so the
 * clean graph of the memory phase and the crashed one answer for the same points.
 */
export function searchSampleIds(): number[] {
  const upTo = Math.max(1, Math.floor(CFG.n * CFG.killAt));
  const k = Math.min(200, upTo);
  return Array.from({ length: k }, (_, i) => Math.floor((i * upTo) / k));
}

/**
 * Each id searched for with its own vector at `ef`, then the misses again at
 * OWN_NEAREST_HIGH_EF: an approximate search may miss a point that is in the graph; one missed at
 * the high ef too is not reachable there. Returns the misses at each ef.
 */
export async function ownNearest(url: string, name: string, ctx: Ctx, ids: number[]): Promise<{ missed: number[]; notFound: number[] }> {
  const at = async (subset: number[], ef: number): Promise<number[]> => {
    const found = await searchAll(url, name, subset.map((id) => searchBody(rowOf(ctx.ds.points, id, CFG.dim), ef, 1)));
    return subset.filter((id, i) => found[i]?.[0] !== id);
  };
  const missed = await at(ids, CFG.latencyEf);
  return { missed, notFound: await at(missed, OWN_NEAREST_HIGH_EF) };
}

/** The server's own lines about loading (graphs, replay, rebuild): what issue 14 asks the log to say. */
export function loadLines(q: Quiver): string[] {
  return q.server.logs.filter((l) => /load|replay|rebuil|snapshot|restor/i.test(l) && !/"msg":"(request|engine ready)/.test(l)).slice(0, 40);
}
