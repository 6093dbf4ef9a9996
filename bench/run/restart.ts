// bench/run.ts's phases for issue 14: memory and restart after SIGTERM on one server with the
// default collection settings, and restart after kill -9 in the middle of an ingest.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { progress } from '../common.js';
import { countPoints, createCollection, ingest, missingIds } from '../lib/client.js';
import { memoryOf } from '../lib/proc.js';
import type { Report } from '../lib/report.js';
import { collectionInfo, collectionParams, killQuiver, startQuiver, stopQuiver } from '../lib/server.js';
import { CFG, COLLECTION, CRASH, OWN_NEAREST_HIGH_EF } from './config.js';
import { ingestMeasured, layoutKey, loadLines, ownNearest, recallAt, searchSampleIds, type Ctx } from './context.js';

// issue 14: memory and restart after SIGTERM

export async function memoryPhase(ctx: Ctx): Promise<Report['memory']> {
  const dir = join(ctx.scratch, 'memory');
  mkdirSync(dir);
  progress(`memory: empty server (${CFG.workers} workers)`);
  let q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  const firstReadyMs = q.readyMs;
  await new Promise((r) => setTimeout(r, 500));
  const empty = memoryOf(q.pid);
  await createCollection(q.url, COLLECTION, CFG.dim, CFG.m, CFG.efConstruct, {});
  const layout = await collectionParams(q.url, COLLECTION);
  progress(`memory: ingest with defaults (shard_number ${layout.shardNumber}, replication_factor ${layout.replicationFactor})`);
  const ing = await ingestMeasured(q, COLLECTION, ctx);
  const count = await countPoints(q.url, COLLECTION);
  if (count !== CFG.n) throw new Error(`after ingest the collection counts ${count} points, expected ${CFG.n}`);
  const afterIngest = memoryOf(q.pid);
  const recallBefore = await recallAt(q, CFG.latencyEf, ctx);
  // The same searchability check as after kill -9, on this graph that was never killed: what
  // HNSW itself leaves unreachable at this size, for the crash phase's figure to be read against.
  const cleanSample = searchSampleIds();
  const clean = await ownNearest(q.url, COLLECTION, ctx, cleanSample);
  const info = await collectionInfo(q.url, COLLECTION);
  const telemetry = await fetch(`${q.url}/telemetry`).then(
    async (r) => (r.status === 200 ? ((await r.json()) as unknown) : null),
    () => null,
  );
  await new Promise((r) => setTimeout(r, CFG.settleMs));
  const afterIngestSettled = memoryOf(q.pid);
  progress(
    `memory: RssAnon ${(empty.rssAnon / 1048576).toFixed(0)} MiB empty, ${(afterIngest.rssAnon / 1048576).toFixed(0)} MiB after ingest, ${(afterIngestSettled.rssAnon / 1048576).toFixed(0)} MiB ${CFG.settleMs} ms later; recall@10 ef ${CFG.latencyEf} ${recallBefore.toFixed(4)}`,
  );

  const stop = await stopQuiver(q);
  progress(`memory: SIGTERM -> exit ${stop.ms.toFixed(0)} ms; restarting`);
  q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  await new Promise((r) => setTimeout(r, 500));
  const afterRestart = memoryOf(q.pid);
  const countAfter = await countPoints(q.url, COLLECTION);
  const recallAfter = await recallAt(q, CFG.latencyEf, ctx);
  progress(`memory: ready ${q.readyMs.toFixed(0)} ms after spawn, ${countAfter} points, recall ${recallAfter.toFixed(4)}, RssAnon ${(afterRestart.rssAnon / 1048576).toFixed(0)} MiB`);
  await stopQuiver(q);
  ctx.layouts.set(layoutKey(layout.shardNumber, layout.replicationFactor), { dir, ingest: ing });
  ctx.defaultsAt.set(CFG.workers, { sn: layout.shardNumber, rf: layout.replicationFactor });

  const rawBytes = CFG.n * CFG.dim * 4;
  return {
    workers: CFG.workers,
    layout,
    rawVectorBytes: rawBytes,
    emptyRssAnon: empty.rssAnon,
    afterIngestRssAnon: afterIngest.rssAnon,
    afterRestartRssAnon: afterRestart.rssAnon,
    emptyRss: empty.rss,
    afterIngestRss: afterIngest.rss,
    afterRestartRss: afterRestart.rss,
    growthAfterIngest: (afterIngest.rssAnon - empty.rssAnon) / rawBytes,
    afterIngestSettledRssAnon: afterIngestSettled.rssAnon,
    growthAfterIngestSettled: (afterIngestSettled.rssAnon - empty.rssAnon) / rawBytes,
    settleMs: CFG.settleMs,
    growthAfterRestart: (afterRestart.rssAnon - empty.rssAnon) / rawBytes,
    ingest: { rate: ing.rate, seconds: ing.seconds, cpu: ing.cpu },
    firstStartReadyMs: firstReadyMs,
    shutdownMs: stop.ms,
    shutdownKilled: stop.killed,
    readyAfterSigtermMs: q.readyMs,
    readyzMessages: q.readyzMessages,
    engineReady: q.engineReady,
    loadLog: loadLines(q),
    countAfter,
    recallBefore,
    recallAfter,
    cleanSearchSample: { sample: cleanSample.length, ownNearestFound: cleanSample.length - clean.missed.length, notFound: clean.notFound.length },
    collectionInfo: info,
    telemetry,
  };
}

// ---------------------------------------------------------------------------------------------
// issue 14: kill -9 in the middle of an ingest

export async function crashPhase(ctx: Ctx): Promise<Report['crash']> {
  const dir = join(ctx.scratch, 'crash');
  mkdirSync(dir);
  let q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  await createCollection(q.url, CRASH, CFG.dim, CFG.m, CFG.efConstruct, {});
  const stopAt = Math.max(1, Math.floor(ctx.batches.count * CFG.killAt));
  progress(`crash: ingesting, kill -9 once ${stopAt} of ${ctx.batches.count} batches are acknowledged`);
  const part = await ingest(q.url, CRASH, ctx.batches, CFG.ingestConcurrency, 0, ctx.batches.count, stopAt);
  await killQuiver(q);
  const ackedIds: number[] = [];
  for (const b of part.acked) {
    const [lo, hi] = ctx.batches.ids(b);
    for (let i = lo; i < hi; i++) ackedIds.push(i);
  }
  progress(`crash: killed with ${ackedIds.length} points acknowledged; restarting`);
  q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  const readyMs = q.readyMs;
  const count = await countPoints(q.url, CRASH);
  const missing = await missingIds(q.url, CRASH, ackedIds);
  // searchable: a sample of acknowledged points, each searched for with its own vector (see
  // ownNearest; the memory phase runs the same ids on a graph never killed).
  const acked = new Set(ackedIds);
  const sample = searchSampleIds().filter((id) => acked.has(id));
  const { missed, notFound: unreachable } = await ownNearest(q.url, CRASH, ctx, sample);
  const notFound = unreachable.length;
  progress(
    `crash: ready ${readyMs.toFixed(0)} ms after spawn; ${count} points, ${missing.length} acknowledged missing; own nearest at ef ${CFG.latencyEf} ${sample.length - missed.length} of ${sample.length}, ${notFound} not found at ef ${OWN_NEAREST_HIGH_EF}`,
  );
  const engineReady = q.engineReady;
  const log = loadLines(q);
  const readyzMessages = q.readyzMessages;
  // finish the ingest, then the recall must be what a clean ingest gives
  // batches go out in order, so everything from the first unacknowledged one on is re-sent
  // (upserting an acknowledged batch again changes nothing)
  let firstUnacked = 0;
  while (part.acked.includes(firstUnacked)) firstUnacked++;
  await ingest(q.url, CRASH, ctx.batches, CFG.ingestConcurrency, firstUnacked, ctx.batches.count);
  const finalCount = await countPoints(q.url, CRASH);
  const recallAfter = await recallAt(q, CFG.latencyEf, ctx, CRASH);
  await stopQuiver(q);
  progress(`crash: after finishing the ingest ${finalCount} points, recall@10 ${recallAfter.toFixed(4)}`);
  return {
    workers: CFG.workers,
    killAt: CFG.killAt,
    acknowledgedPoints: ackedIds.length,
    readyAfterKillMs: readyMs,
    countAfterRestart: count,
    acknowledgedMissing: missing.length,
    missingSample: missing.slice(0, 20),
    searchSample: sample.length,
    ownNearestAtEf: CFG.latencyEf,
    ownNearestFound: sample.length - missed.length,
    highEf: OWN_NEAREST_HIGH_EF,
    searchSampleNotFound: notFound,
    engineReady,
    loadLog: log,
    readyzMessages,
    countAfterCompletingIngest: finalCount,
    recallAfterCompletingIngest: recallAfter,
  };
}
