// The text report of a bench run on stdout: raw hnswlib-node, the sweeps, memory and restart,
// then every target of issues 13 and 14 beside its figure, met or not. The figures' shape is in
// report-types.ts, the sweep tables in report-sweeps.ts, the targets in report-targets.ts.

import { engineSummary, fmt, memoryFields, mib, ratio, table } from './report-format.js';
import { sweepTable } from './report-sweeps.js';
import { targets } from './report-targets.js';
import { embeddingReport } from './report-embedding.js';
import { kindsReport } from '../run/kinds.js';
import { responsesReport } from '../run/responses.js';
import { tenantReport } from '../run/tenant.js';
import type { Report } from './report-types.js';

export { fmt, memoryFields, table } from './report-format.js';
export { targets } from './report-targets.js';
export type { CrashFigures, MemoryFigures, Report, SettingFailure, SettingResult, Sweeps } from './report-types.js';

export function printReport(r: Report): void {
  const out: string[] = [];
  const c = r.config;
  out.push(
    `Quiver bench: ${fmt(c.n)} x ${c.dim} clustered (${c.clusters} centroids, sigma ${c.sigma}), Euclid, k ${c.k}, m ${c.m}, ef_construct ${c.efConstruct}, ${c.queries} queries; load: ${c.connections} connections, ${c.seconds} s (+${c.warmupS} s warm-up)`,
  );
  out.push(
    `node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}, load average at the end ${r.env.loadAverage.map((v) => v.toFixed(2)).join(' ')}; load generator: ${r.env.loadGenerator}; gRPC: ${r.env.grpcLoadGenerator}`,
  );
  out.push(`phases (s): ${Object.entries(r.phaseSeconds).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  for (const [phase, err] of Object.entries(r.errors ?? {})) out.push(`PHASE FAILED: ${phase}: ${err.split('\n')[0]}`);

  if (r.raw !== null) {
    out.push('', 'raw hnswlib-node, one thread, in a child process per build');
    const rows: string[][] = [];
    for (const b of r.raw.builds) {
      for (const e of b.search) rows.push([`${b.build}: ${b.description}`, fmt(b.insertRate), mib(b.rssAnonGrowth), String(e.ef), fmt(e.recall, 4), fmt(e.qps), fmt(e.cpuUsPerQuery, 1)]);
    }
    out.push(...table(['build', 'insert pts/s', 'RssAnon growth', 'ef', 'recall@10', 'QPS', 'CPU us/query'], rows));
    if (r.raw.nativeUnavailable !== null) out.push(`native build not measured: ${r.raw.nativeUnavailable}`);
  }

  if (r.sweeps !== null) {
    out.push('', 'CPU columns: server CPU ms per completed request from /proc/<pid>/task/*/stat (main = the main thread, workers = the JS worker threads, other = V8/libuv/addon threads)');
    out.push(...sweepTable('sweep: SERVICE_SHARDS with default collection settings', r.sweeps.workersKeys, r));
    out.push(...sweepTable(`sweep: shard_number at SERVICE_SHARDS=${c.sweepWorkers}`, r.sweeps.shardKeys, r));
    out.push(...sweepTable(`sweep: replication_factor at SERVICE_SHARDS=${c.sweepWorkers}, shard_number ${c.replicaShards}`, r.sweeps.replicaKeys, r));
  }

  if (r.memory !== null) {
    const m = r.memory;
    out.push('', `memory and restart (SERVICE_SHARDS=${m.workers}, defaults: shard_number ${m.layout.shardNumber}, replication_factor ${m.layout.replicationFactor})`);
    out.push(
      ...table(
        ['figure', 'value'],
        [
          ['raw vector bytes (n x dim x 4)', mib(m.rawVectorBytes)],
          ['RssAnon empty / after ingest / after restart', `${mib(m.emptyRssAnon)} / ${mib(m.afterIngestRssAnon)} / ${mib(m.afterRestartRssAnon)}`],
          ['RssAnon growth / raw bytes: after ingest, after restart', `${m.growthAfterIngest.toFixed(2)}x, ${m.growthAfterRestart.toFixed(2)}x`],
          [`RssAnon after ingest, ${m.settleMs} ms quiet (growth / raw bytes)`, `${mib(m.afterIngestSettledRssAnon)} (${m.growthAfterIngestSettled.toFixed(2)}x)`],
          ['VmRSS empty / after ingest / after restart', `${mib(m.emptyRss)} / ${mib(m.afterIngestRss)} / ${mib(m.afterRestartRss)}`],
          ['raw npm hnswlib RssAnon growth / raw bytes', r.raw === null ? 'n/a' : ratio(r.raw.builds[0]?.rssAnonGrowth, m.rawVectorBytes)],
          ['ingest points/s (cores busy)', `${fmt(m.ingest.rate)} (${fmt(m.ingest.cpu.coresBusy, 2)})`],
          ['first start: spawn -> /readyz 200 (ms)', fmt(m.firstStartReadyMs)],
          ['SIGTERM -> exit (ms)', `${fmt(m.shutdownMs)}${m.shutdownKilled ? ' (killed after the grace)' : ''}`],
          ['after SIGTERM: spawn -> /readyz 200 (ms)', fmt(m.readyAfterSigtermMs)],
          ['points / recall@10 before -> after', `${m.countAfter}; ${fmt(m.recallBefore, 4)} -> ${fmt(m.recallAfter, 4)}`],
          ...(m.cleanSearchSample === undefined
            ? []
            : [[`own nearest at the bench's ef (the kill -9 check's ids, this graph)`, `${m.cleanSearchSample.ownNearestFound} of ${m.cleanSearchSample.sample}; not found at the high ef ${m.cleanSearchSample.notFound}`]]),
          ['engine ready line', engineSummary(m.engineReady)],
        ],
      ),
    );
    const fields = [...memoryFields(m.collectionInfo, 'collection info'), ...memoryFields(m.telemetry, 'telemetry')];
    out.push(
      fields.length === 0
        ? 'memory reported by the server: none found in GET /collections/bench or GET /telemetry'
        : `memory reported by the server: ${fields.map(([k, v]) => `${k} ${v >= 1048576 ? mib(v) : String(v)}`).join('; ')}`,
    );
  }
  if (r.crash !== null) {
    const k = r.crash;
    out.push('', `kill -9 in the middle of an ingest (SERVICE_SHARDS=${k.workers}, killed after ${(k.killAt * 100).toFixed(0)}% of the batches were acknowledged)`);
    out.push(
      ...table(
        ['figure', 'value'],
        [
          ['acknowledged points at the kill', fmt(k.acknowledgedPoints)],
          ['spawn -> /readyz 200 (ms)', fmt(k.readyAfterKillMs)],
          ['points after restart / acknowledged missing', `${fmt(k.countAfterRestart)} / ${k.acknowledgedMissing}`],
          [`sampled acknowledged points found as their own nearest at ef ${k.ownNearestAtEf}`, `${k.ownNearestFound} of ${k.searchSample} (${fmt((100 * k.ownNearestFound) / Math.max(1, k.searchSample), 1)}%)`],
          [`of the others, not found at ef ${k.highEf} either`, String(k.searchSampleNotFound)],
          ['/readyz 503 messages seen', k.readyzMessages.slice(0, 3).join(' | ').slice(0, 160) || 'none'],
          ['engine ready line', engineSummary(k.engineReady)],
          ['after completing the ingest: points, recall@10', `${fmt(k.countAfterCompletingIngest)}, ${fmt(k.recallAfterCompletingIngest, 4)}`],
        ],
      ),
    );
    if (k.loadLog.length > 0) out.push('server load log lines:', ...k.loadLog.slice(0, 10).map((l) => `  ${l.slice(0, 240)}`));
  }

  if (r.embedding !== undefined && r.embedding !== null) out.push('', ...embeddingReport(r.embedding));
  if (r.kinds !== undefined && r.kinds !== null) out.push('', ...kindsReport(r.kinds));
  if (r.responses !== undefined && r.responses !== null) out.push('', ...responsesReport(r.responses));
  if (r.tenant !== undefined && r.tenant !== null) out.push('', ...tenantReport(r.tenant));

  out.push('', 'targets (issues 13 and 14; ratios within this run)');
  out.push(...table(['target', 'figure', 'met'], targets(r).map((x) => [x.name, x.figure, x.met === null ? 'n/a' : x.met ? 'met' : 'NOT MET'])));
  process.stdout.write(out.join('\n') + '\n');
}
