// The sweep tables of the bench's report: per setting and ef, recall, peak QPS beside raw
// hnswlib-node and the server's CPU per query; then the half-peak latency, gRPC and ingest; then
// the half-peak latency in detail.

import type { Measured } from './load.js';
import { fmt, mib, ratio, table } from './report-format.js';
import { ok, type Report } from './report-types.js';

function rawAt(raw: Report['raw'], build: 'portable' | 'native', ef: number): { qps: number; recall: number } | null {
  const b = raw?.builds.find((x) => x.build === build);
  const e = b?.search.find((s) => s.ef === ef);
  return e === undefined ? null : { qps: e.qps, recall: e.recall };
}

export function sweepTable(title: string, keys: string[], r: Report): string[] {
  const res = r.sweeps!.results;
  const out = [``, title];
  const rows: string[][] = [];
  for (const k of keys) {
    const s = res[k];
    if (!ok(s)) {
      rows.push([k, 'FAILED', (s === undefined ? 'not run' : s.error).slice(0, 80)]);
      continue;
    }
    for (const e of s.perEf) {
      const rp = rawAt(r.raw, 'portable', e.ef);
      const rn = rawAt(r.raw, 'native', e.ef);
      const c = e.peak.serverCpu;
      rows.push([
        `W=${s.workers} sn=${s.shardNumber} rf=${s.replicationFactor}${s.defaults ? ' (defaults)' : ''}`,
        String(e.ef),
        fmt(e.recall, 4),
        fmt(e.peak.load.qps),
        ratio(e.peak.load.qps, rp?.qps),
        ratio(e.peak.load.qps, rn?.qps),
        fmt(c.mainMs, 3),
        fmt(c.workersMs, 3),
        fmt(c.otherMs, 3),
        fmt(c.totalMs, 3),
        fmt(c.coresBusy, 2),
        fmt(e.peak.load.latencyMs.p99, 1),
        e.peak.load.failed > 0 ? String(e.peak.load.failed) : '',
      ]);
    }
  }
  out.push(
    ...table(
      ['setting', 'ef', 'recall@10', 'REST QPS', 'vs raw npm', 'vs raw native', 'main ms/q', 'workers ms/q', 'other ms/q', 'total ms/q', 'cores busy', 'p99 at peak', 'failed'],
      rows,
    ),
  );
  const rows2: string[][] = [];
  for (const k of keys) {
    const s = res[k];
    if (!ok(s)) continue;
    const rest = s.perEf.find((e) => e.ef === s.latencyEf)?.peak.load.qps;
    const rawIns = r.raw?.builds.find((b) => b.build === 'portable')?.insertRate;
    rows2.push([
      `W=${s.workers} sn=${s.shardNumber} rf=${s.replicationFactor}`,
      `${fmt(s.halfPeak.load.targetRate)} -> ${fmt(s.halfPeak.load.qps)}`,
      fmt(s.halfPeak.load.latencyMs.p50, 2),
      fmt(s.halfPeak.load.latencyMs.p99, 2),
      s.grpc === null ? `failed` : `${fmt(s.grpc.load.qps)} (${s.grpc.load.generator.split(' ')[0]!})${s.grpc.load.failed > 0 ? `, ${s.grpc.load.failed} failed` : ''}`,
      s.grpc === null ? 'n/a' : ratio(s.grpc.load.qps, rest),
      s.grpc === null ? 'n/a' : fmt(s.grpc.serverCpu.mainMs, 3),
      s.grpc === null ? 'n/a' : fmt(s.grpc.serverCpu.totalMs, 3),
      `${fmt(s.perEf.find((e) => e.ef === s.latencyEf)?.peak.load.clientCpuMsPerRequest, 3)} / ${s.grpc === null ? 'n/a' : fmt(s.grpc.load.clientCpuMsPerRequest, 3)}`,
      `${fmt(s.ingest.rate)} (W=${s.ingest.workers})`,
      ratio(s.ingest.rate, rawIns),
      mib(s.rssAnon),
    ]);
  }
  out.push('');
  out.push(
    ...table(
      [
        `ef ${r.config.latencyEf}`,
        'half-peak rate -> got',
        'p50 ms',
        'p99 ms',
        'gRPC QPS',
        'gRPC/REST',
        'gRPC main ms/q',
        'gRPC total ms/q',
        'client ms/q REST / gRPC',
        'ingest pts/s',
        'vs raw npm insert',
        'RssAnon',
      ],
      rows2,
    ),
  );
  // the half-peak latency in detail: with h2load, its histogram and the coordinated-omission count
  const rows3: string[][] = [];
  let le: number[] | null = null;
  for (const k of keys) {
    const s = res[k];
    if (!ok(s)) continue;
    const runs: [string, Measured][] = [['REST', s.halfPeak]];
    if (s.grpcHalfPeak !== undefined && s.grpcHalfPeak !== null) runs.push(['gRPC', s.grpcHalfPeak]);
    for (const [api, m] of runs) {
      const l = m.load;
      const pf = l.paced;
      le ??= pf?.histogram.leMs ?? null;
      rows3.push([
        `W=${s.workers} sn=${s.shardNumber} rf=${s.replicationFactor} ${api}`,
        `${fmt(l.targetRate)} -> ${fmt(l.qps)}`,
        l.generator.split(' (')[0]!,
        fmt(l.latencyMs.p50, 2),
        fmt(l.latencyMs.p90, 2),
        fmt(l.latencyMs.p99, 2),
        pf === undefined ? 'n/a' : fmt(pf.p999, 2),
        fmt(l.latencyMs.max, 1),
        pf === undefined ? 'n/a' : pf.histogram.counts.join(' '),
        pf === undefined ? 'n/a' : `${pf.overInterval} (> ${fmt(pf.plan.intervalMs, 1)} ms)`,
        l.failed > 0 ? String(l.failed) : '',
      ]);
    }
  }
  out.push('');
  out.push(
    ...table(
      [
        `half peak, ef ${r.config.latencyEf}`,
        'rate -> got',
        'generator',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'p99.9 ms',
        'max ms',
        le === null ? 'histogram' : `requests per ms bucket (<= ${le.join(', ')}, more)`,
        'sends maybe delayed',
        'failed',
      ],
      rows3,
    ),
  );
  return out;
}
