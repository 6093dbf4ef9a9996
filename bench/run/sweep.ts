// bench/run.ts's phase for issue 13: the throughput sweeps over SERVICE_SHARDS, shard_number and
// replication_factor. Each setting: recall and peak QPS at every ef, p50/p99 at half the peak
// rate, gRPC beside REST, and the server's CPU per query by thread group.

import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { progress } from '../common.js';
import { countPoints, createCollection } from '../lib/client.js';
import { H2LOAD } from '../lib/h2load.js';
import { runPacedGrpc, runPacedRest } from '../lib/h2load-paced.js';
import { grpcLoad, httpLoad, type Measured } from '../lib/load.js';
import { memoryOf } from '../lib/proc.js';
import type { SettingResult, Sweeps } from '../lib/report.js';
import { collectionParams, startQuiver, stopQuiver, type Quiver } from '../lib/server.js';
import { CFG, COLLECTION } from './config.js';
import { ingestMeasured, layoutKey, recallAt, type Ctx } from './context.js';

interface Setting {
  workers: number;
  /** null: the server's defaults (whatever shard_number and replication_factor it gives) */
  layout: { sn: number; rf: number } | null;
}

const settingKey = (s: Setting): string => `w${s.workers}-${s.layout === null ? 'default' : layoutKey(s.layout.sn, s.layout.rf)}`;

/** A server on the data dir of the setting's layout, ingesting it first when no dir has it yet. */
async function serverFor(s: Setting, ctx: Ctx): Promise<{ q: Quiver; layout: { sn: number; rf: number }; ingestedNow: boolean }> {
  const want = s.layout ?? ctx.defaultsAt.get(s.workers) ?? null;
  if (want !== null) {
    const have = ctx.layouts.get(layoutKey(want.sn, want.rf));
    if (have !== undefined) return { q: await startQuiver({ dataDir: have.dir, workers: s.workers, scratch: ctx.scratch }), layout: want, ingestedNow: false };
  }
  // a fresh dir: create with the layout asked for (or the server's defaults), then ingest
  const dir = mkdtempSync(join(ctx.scratch, 'layout-'));
  const q = await startQuiver({ dataDir: dir, workers: s.workers, scratch: ctx.scratch });
  let layout: { sn: number; rf: number };
  let reuse: string | null = null;
  try {
    await createCollection(q.url, COLLECTION, CFG.dim, CFG.m, CFG.efConstruct, want === null ? {} : { shardNumber: want.sn, replicationFactor: want.rf });
    const p = await collectionParams(q.url, COLLECTION);
    layout = { sn: p.shardNumber, rf: p.replicationFactor };
    // the defaults may turn out to be a layout already ingested
    reuse = ctx.layouts.get(layoutKey(layout.sn, layout.rf))?.dir ?? null;
    if (reuse === null) {
      progress(`  new layout shard_number ${layout.sn}, replication_factor ${layout.rf}: ingesting`);
      const ing = await ingestMeasured(q, COLLECTION, ctx);
      const count = await countPoints(q.url, COLLECTION);
      if (count !== CFG.n) throw new Error(`layout ${layoutKey(layout.sn, layout.rf)}: ${count} points after ingest, expected ${CFG.n}`);
      ctx.layouts.set(layoutKey(layout.sn, layout.rf), { dir, ingest: ing });
    }
  } finally {
    // every setting is measured on a server that loaded its data dir at start, as after a deploy
    await stopQuiver(q);
  }
  if (reuse !== null) rmSync(dir, { recursive: true, force: true });
  return { q: await startQuiver({ dataDir: reuse ?? dir, workers: s.workers, scratch: ctx.scratch }), layout, ingestedNow: reuse === null };
}

async function runSetting(s: Setting, ctx: Ctx): Promise<SettingResult> {
  progress(`setting ${settingKey(s)}: SERVICE_SHARDS=${s.workers}${s.layout === null ? ', default collection settings' : `, shard_number ${s.layout.sn}, replication_factor ${s.layout.rf}`}`);
  const { q, layout, ingestedNow } = await serverFor(s, ctx);
  try {
    return await measureSetting(s, ctx, q, layout, ingestedNow);
  } finally {
    // a failed setting must not leave its server running under the next one
    await stopQuiver(q);
  }
}

async function measureSetting(s: Setting, ctx: Ctx, q: Quiver, layout: { sn: number; rf: number }, ingestedNow: boolean): Promise<SettingResult> {
  if (s.layout === null) ctx.defaultsAt.set(s.workers, layout);
  const target = { pid: q.pid, tidFile: q.tidFile };
  const path = `/collections/${COLLECTION}/points/search`;
  const perEf: SettingResult['perEf'] = [];
  for (const ef of CFG.efs) {
    const recall = await recallAt(q, ef, ctx);
    const m = await httpLoad(
      { url: q.url, path, bodies: ctx.bodies.get(ef)!, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null },
      ctx.scratch,
      target,
    );
    perEf.push({ ef, recall, peak: m });
    progress(
      `  ef ${ef}: recall ${recall.toFixed(4)}, ${m.load.qps.toFixed(0)} QPS (${m.load.generator}), CPU ms/query main ${m.serverCpu.mainMs.toFixed(3)} workers ${m.serverCpu.workersMs.toFixed(3)} other ${m.serverCpu.otherMs.toFixed(3)}${m.load.failed > 0 ? `, FAILED ${m.load.failed}` : ''}`,
    );
  }
  const peakAtLatencyEf = perEf.find((e) => e.ef === CFG.latencyEf)!.peak.load.qps;
  const halfRate = Math.max(1, peakAtLatencyEf / 2);
  const logMark = q.server.logs.length;
  // h2load when installed (a C generator, see h2load-paced.ts); the paced node:http child otherwise
  const half: Measured =
    H2LOAD.path !== null
      ? await runPacedRest(
          { url: q.url, path, bodies: ctx.bodies.get(CFG.latencyEf)!, rate: halfRate, clients: CFG.pacedClients, procs: CFG.h2loadProcs, seconds: CFG.seconds, warmupSeconds: CFG.warmupS },
          ctx.scratch,
          target,
        )
      : await httpLoad(
          { url: q.url, path, bodies: ctx.bodies.get(CFG.latencyEf)!, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: halfRate },
          ctx.scratch,
          target,
        );
  const pf = half.load.paced;
  progress(
    `  half peak (${halfRate.toFixed(0)}/s, ef ${CFG.latencyEf}, ${half.load.generator}): ${half.load.qps.toFixed(0)} QPS, p50 ${half.load.latencyMs.p50.toFixed(2)} ms p90 ${half.load.latencyMs.p90.toFixed(2)} ms p99 ${half.load.latencyMs.p99.toFixed(2)} ms max ${half.load.latencyMs.max.toFixed(2)} ms${pf === undefined ? '' : `, p99.9 ${pf.p999.toFixed(2)} ms, ${pf.overInterval} slower than a client's interval (${pf.plan.intervalMs.toFixed(1)} ms)`}${half.load.failed > 0 ? `, FAILED ${half.load.failed}: ${half.load.firstError ?? ''}` : ''}`,
  );
  // QUIVER_LATENCY_PROBE=1 (src/shared/latency-probe.ts): the server's own split of the half-peak run
  if (process.env.QUIVER_LATENCY_PROBE === '1') for (const l of q.server.logs.slice(logMark)) if (l.startsWith('latency-probe')) progress(`  ${l}`);
  let grpc: Measured | null = null;
  let grpcError: string | null = null;
  try {
    grpc = await grpcLoad(
      {
        target: `127.0.0.1:${q.grpcPort}`,
        collection: COLLECTION,
        vectors: ctx.queryRows,
        limit: CFG.k,
        hnswEf: CFG.latencyEf,
        concurrency: CFG.grpcConcurrency,
        restUrl: q.url,
        seconds: CFG.seconds,
        warmupSeconds: CFG.warmupS,
      },
      { procs: CFG.h2loadProcs, streams: CFG.h2loadStreams },
      ctx.scratch,
      target,
    );
    progress(`  gRPC ef ${CFG.latencyEf}: ${grpc.load.qps.toFixed(0)} QPS (${grpc.load.generator}, client CPU ms/query ${grpc.load.clientCpuMsPerRequest.toFixed(3)})${grpc.load.failed > 0 ? `, FAILED ${grpc.load.failed}: ${grpc.load.firstError ?? ''}` : ''}, CPU ms/query main ${grpc.serverCpu.mainMs.toFixed(3)} workers ${grpc.serverCpu.workersMs.toFixed(3)}`);
  } catch (e) {
    grpcError = e instanceof Error ? e.message : String(e);
    progress(`  gRPC load failed: ${grpcError.slice(0, 300)}`);
  }
  // gRPC at half its own peak, paced the same way (h2load only)
  let grpcHalf: Measured | null = null;
  if (grpc !== null && H2LOAD.path !== null && grpc.load.qps > 0) {
    try {
      grpcHalf = await runPacedGrpc(
        {
          target: `127.0.0.1:${q.grpcPort}`,
          restUrl: q.url,
          collection: COLLECTION,
          vectors: ctx.queryRows,
          limit: CFG.k,
          hnswEf: CFG.latencyEf,
          rate: Math.max(1, grpc.load.qps / 2),
          clients: CFG.pacedClients,
          procs: CFG.h2loadProcs,
          seconds: CFG.seconds,
          warmupSeconds: CFG.warmupS,
        },
        ctx.scratch,
        target,
      );
      const g = grpcHalf.load;
      progress(
        `  gRPC half peak (${(grpc.load.qps / 2).toFixed(0)}/s): ${g.qps.toFixed(0)} QPS, p50 ${g.latencyMs.p50.toFixed(2)} ms p90 ${g.latencyMs.p90.toFixed(2)} ms p99 ${g.latencyMs.p99.toFixed(2)} ms max ${g.latencyMs.max.toFixed(2)} ms${g.failed > 0 ? `, FAILED ${g.failed}: ${g.firstError ?? ''}` : ''}`,
      );
    } catch (e) {
      progress(`  gRPC half-peak load failed: ${(e instanceof Error ? e.message : String(e)).slice(0, 300)}`);
    }
  }
  const mem = memoryOf(q.pid);
  const engineReady = q.engineReady;
  const readyMs = q.readyMs;
  const ing = ctx.layouts.get(layoutKey(layout.sn, layout.rf))!.ingest;
  return {
    key: settingKey(s),
    workers: s.workers,
    defaults: s.layout === null,
    shardNumber: layout.sn,
    replicationFactor: layout.rf,
    readyMs,
    hnswBuild: typeof engineReady?.hnsw_build === 'string' ? engineReady.hnsw_build : null,
    perEf,
    latencyEf: CFG.latencyEf,
    halfPeak: half,
    grpc,
    grpcHalfPeak: grpcHalf,
    grpcError,
    ingest: { rate: ing.rate, workers: ing.workers, cpu: ing.cpu, ingestedNow },
    rssAnon: mem.rssAnon,
  };
}

/** Fills `out` as settings finish, so an aborted run still reports the settings it measured. */
export async function sweepPhase(ctx: Ctx, out: Sweeps): Promise<void> {
  const settings = new Map<string, Setting>();
  const add = (s: Setting): string => {
    const k = settingKey(s);
    if (!settings.has(k)) settings.set(k, s);
    return k;
  };
  out.workersKeys = CFG.workersSweep.map((w) => add({ workers: w, layout: null }));
  out.shardKeys = CFG.shardSweep.map((sn) => add({ workers: CFG.sweepWorkers, layout: { sn, rf: 1 } }));
  out.replicaKeys = CFG.replicaSweep.map((rf) => add({ workers: CFG.sweepWorkers, layout: { sn: CFG.replicaShards, rf } }));
  const results = out.results;
  for (const [k, s] of settings) {
    // an explicit layout that the defaults at the same worker count already gave was measured then
    const same = Object.values(results).find(
      (r): r is SettingResult => !('error' in r) && s.layout !== null && r.workers === s.workers && r.shardNumber === s.layout.sn && r.replicationFactor === s.layout.rf,
    );
    if (same !== undefined) {
      progress(`setting ${k}: the same as ${same.key}, measured already`);
      results[k] = same;
      continue;
    }
    try {
      results[k] = await runSetting(s, ctx);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      progress(`setting ${k} failed: ${msg.slice(0, 500)}`);
      results[k] = { key: k, error: msg.slice(0, 2000) };
    }
  }
}
