// Live recall: a fraction (config live_recall_fraction) of the approximate dense searches this
// worker coordinates is answered again, exactly, in the background, and the share of the exact
// top-k that the answer sent had found is kept per collection, filtered apart from unfiltered.
// /metrics exports it (quiver_live_recall), so an operator sees what a setting (ef, quantization,
// a filter's selectivity) costs in accuracy on the live traffic, not on a benchmark's.
//
// Invariants: the request is answered first and never waits for its check. A check is an exact
// scan on the shard threads that live traffic uses, so they are bounded: one runs at a time per
// coordinating worker, the next waits until checks have taken at most BUDGET_SHARE of the time
// since the first began (a 20 ms scan is followed by 380 ms without one), at most MAX_PENDING
// wait and a sample beyond them is dropped, not queued. A check that fails (the collection
// dropped, a read refused) is dropped too, as is one with no exact answer to compare with.
// Dropped samples are counted (skipped): an operator then sees when the budget, not the
// fraction, sets how many searches are checked. Every sample picked is in time checked or skipped.

import type { PointEngine } from '../../shared/point-engine.js';
import type { SearchSpec } from '../../shared/protocol.js';
import type { LiveRecall } from '../../shared/shard-reports.js';
import { comparePointIds } from '../../shared/ids.js';
import type { CollectionMeta, PointId, ScoredPoint } from '../../shared/types.js';

/** Samples kept per collection and kind: the figure is their mean, so it follows changes. */
export const RECALL_WINDOW = 1000;
const MAX_PENDING = 8;
/** The most of a worker's time its checks may take. */
const BUDGET_SHARE = 0.05;

let fraction = 0;

/** From WorkerInit.liveRecallFraction (entry.ts). */
export function setLiveRecallFraction(f: number): void {
  fraction = f;
}

interface Window {
  name: string;
  filtered: boolean;
  samples: number;
  /** Samples picked but never checked: no room among those waiting, the check failed, or it had no exact answer. */
  skipped: number;
  values: Float64Array;
}

/** By `${collection id}/${filtered}`: a collection dropped and made again starts afresh. */
const windows = new Map<string, Window & { collectionId: number }>();

interface Check {
  engine: PointEngine;
  meta: CollectionMeta;
  spec: SearchSpec;
  offset: number;
  limit: number;
  higherIsBetter: boolean;
  sent: PointId[];
}

const pending: Check[] = [];
let running = false;
/** When the next check may start (performance.now() ms), by the budget. */
let nextAt = 0;

/** Whether a search of this shape is one live recall can check: an approximate dense nearest search. */
function checkable(spec: SearchSpec): boolean {
  return !spec.exact && spec.sparse === null && spec.custom === undefined && spec.only === null && spec.k > 0;
}

/**
 * Called with each planned search and the answer about to be sent: maybe queues its exact check.
 * Never throws, never delays the caller.
 */
export function sampleRecall(engine: PointEngine, meta: CollectionMeta, plan: { spec: SearchSpec; offset: number; limit: number; higherIsBetter: boolean }, answer: ScoredPoint[]): void {
  if (fraction <= 0 || !checkable(plan.spec) || Math.random() >= fraction) return;
  if (pending.length >= MAX_PENDING) {
    windowOf(meta, plan.spec.filter !== null).skipped++;
    return;
  }
  pending.push({ engine, meta, spec: plan.spec, offset: plan.offset, limit: plan.limit, higherIsBetter: plan.higherIsBetter, sent: answer.map((p) => p.id) });
  if (!running) setImmediate(drain);
}

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (let c = pending.shift(); c !== undefined; c = pending.shift()) {
      const wait = nextAt - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const started = performance.now();
      try {
        record(c, await exactIds(c));
      } catch {
        // Dropped: the collection went, or its read could not be served now.
        windowOf(c.meta, c.spec.filter !== null).skipped++;
      }
      const took = performance.now() - started;
      nextAt = performance.now() + took * (1 / BUDGET_SHARE - 1);
    }
  } finally {
    running = false;
  }
}

/** The exact answer's ids for the same request: every point scored, on the original vectors. */
async function exactIds(c: Check): Promise<PointId[]> {
  const spec: SearchSpec = { ...c.spec, exact: true, quantization: { ignore: true, rescore: null, oversampling: null }, withPayload: { kind: 'none' }, withVector: { kind: 'none' } };
  const perShard = await c.engine.fanOut(c.meta, { op: 'search', searches: [spec] });
  const all = perShard.flatMap((shard) => shard[0] ?? []);
  const dir = c.higherIsBetter ? -1 : 1;
  all.sort((a, b) => (a.score !== b.score ? dir * (a.score - b.score) : comparePointIds(a.id, b.id)));
  return all.slice(c.offset, c.offset + c.limit).map((p) => p.id);
}

function windowOf(meta: CollectionMeta, filtered: boolean): Window & { collectionId: number } {
  const key = `${meta.id}/${filtered}`;
  let w = windows.get(key);
  if (w === undefined) windows.set(key, (w = { collectionId: meta.id, name: meta.name, filtered, samples: 0, skipped: 0, values: new Float64Array(RECALL_WINDOW) }));
  return w;
}

function record(c: Check, exact: PointId[]): void {
  const w = windowOf(c.meta, c.spec.filter !== null);
  // Nothing to compare with (no point matched): no recall to record.
  if (exact.length === 0) {
    w.skipped++;
    return;
  }
  const want = new Set(exact.map(String));
  let found = 0;
  for (const id of c.sent) if (want.has(String(id))) found++;
  w.values[w.samples % RECALL_WINDOW] = found / exact.length;
  w.samples++;
}

/** This worker's figures (the main thread merges the workers'); those of collections not in `keep` (dropped) are forgotten. */
export function liveRecall(keep: readonly number[]): LiveRecall[] {
  const live = new Set(keep);
  for (const [key, w] of windows) if (!live.has(w.collectionId)) windows.delete(key);
  return [...windows.values()].map((w) => {
    const n = Math.min(w.samples, RECALL_WINDOW);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += w.values[i]!;
    return { collection: w.name, collectionId: w.collectionId, filtered: w.filtered, samples: w.samples, skipped: w.skipped, windowCount: n, windowSum: sum };
  });
}
