// Every target of issues 13 and 14 beside its figure from a bench run, met or not (n/a where the
// phase measuring it did not run). Every ratio names the raw build it is taken against.

import type { CpuPerRequest } from './proc.js';
import { fin, fmt, mib, ratio, signed } from './report-format.js';
import { ok, type Report, type SettingFailure, type SettingResult } from './report-types.js';

/**
 * How far recall@10 after a restart may be from before it and still count as equal: a graph
 * extended in another order (writes replayed after kill -9, an ingest completed after it) can
 * differ by a hair; 0.005 at 500 queries is 25 of the 5,000 neighbours.
 */
const RECALL_TOLERANCE = 0.005;

/**
 * How far recall@10 after a kill -9 mid-ingest (the ingest then completed) may fall below a clean
 * ingest's. That graph is another graph: the points after the restart go in in another order,
 * with levels drawn by a generator hnswlib seeds afresh when it reads the saved graph. Graphs of
 * the same points that differ only in the level seed spread this much at ef 64
 * (bench/recall-spread.ts, 4 seeds, 500 queries; bench/README.md): 100k x 128 0.9768-0.9850
 * (0.0082), 1M x 128 0.7468-0.7716 (0.0248; recall at ef 64 is ~0.77 there, where the graph's shape weighs
 * most). Clean ingests of the bench itself moved as much (100k: 0.9768, 0.9834, 0.9810 in three
 * runs of one commit: 4 batches in flight reach the graph in another order each run). So each
 * size allows about its band: a tighter figure would fail graphs no restart touched.
 */
function killRecallTolerance(n: number): number {
  return n >= 1_000_000 ? 0.025 : 0.01;
}

/** The lowest ef whose recall reaches `min`, with its QPS. */
function atRecall(points: { ef: number; recall: number; qps: number }[], min: number): { ef: number; recall: number; qps: number } | null {
  return [...points].sort((a, b) => a.ef - b.ef).find((p) => p.recall >= min) ?? null;
}

interface Target {
  name: string;
  figure: string;
  met: boolean | null;
}

export function targets(r: Report): Target[] {
  const t: Target[] = [];
  const add = (name: string, figure: string, met: boolean | null): void => void t.push({ name, figure, met });
  const res = r.sweeps?.results ?? {};
  const ef = r.config.latencyEf;
  // "with defaults": default collection settings at SERVICE_SHARDS = the core count (else the first that ran)
  const defaults = (r.sweeps?.workersKeys ?? []).map((k) => res[k]).filter(ok);
  const def = defaults.find((s) => s.workers === r.env.cores) ?? defaults[0];
  const byWorkers = (w: number): SettingResult | undefined => Object.values(res).filter(ok).find((s) => s.defaults && s.workers === w);
  const cpuAt = (s: SettingResult | SettingFailure | undefined): CpuPerRequest | undefined => (ok(s) ? s.perEf.find((e) => e.ef === ef)?.peak.serverCpu : undefined);

  const mains = (r.sweeps?.workersKeys ?? []).map((k) => cpuAt(res[k])?.mainMs).filter(fin);
  const maxMain = mains.length > 0 ? Math.max(...mains) : Number.NaN;
  add(`main-thread CPU per search <= 0.08 ms (worst of the SERVICE_SHARDS sweep, ef ${ef})`, `${fmt(maxMain, 3)} ms`, fin(maxMain) ? maxMain <= 0.08 : null);
  const c1 = cpuAt(byWorkers(1));
  const c8 = cpuAt(byWorkers(8));
  add(
    'main-thread CPU per search within 10% from SERVICE_SHARDS 1 to 8',
    `${fmt(c1?.mainMs, 3)} -> ${fmt(c8?.mainMs, 3)} ms (${ratio(c8?.mainMs, c1?.mainMs)})`,
    fin(c1?.mainMs) && fin(c8?.mainMs) ? c8.mainMs <= c1.mainMs * 1.1 : null,
  );
  add(
    'total server CPU per query at SERVICE_SHARDS 8 <= 1.25x at 1 (defaults)',
    `${fmt(c1?.totalMs, 3)} -> ${fmt(c8?.totalMs, 3)} ms (${ratio(c8?.totalMs, c1?.totalMs)})`,
    fin(c1?.totalMs) && fin(c8?.totalMs) ? c8.totalMs <= c1.totalMs * 1.25 : null,
  );
  for (const build of ['portable', 'native'] as const) {
    const b = r.raw?.builds.find((x) => x.build === build);
    if (b === undefined) continue;
    const q = ok(def) ? atRecall(def.perEf.map((e) => ({ ef: e.ef, recall: e.recall, qps: e.peak.load.qps })), 0.97) : null;
    const raw = atRecall(b.search, 0.97);
    const rr = q !== null && raw !== null ? q.qps / raw.qps : Number.NaN;
    add(
      `REST QPS with defaults >= 1.0x raw ${build === 'portable' ? 'npm' : 'native'} single thread at recall >= 0.97 (stretch 1.5x)`,
      q === null || raw === null
        ? `recall 0.97 not reached (Quiver ${q === null ? 'no' : `ef ${q.ef}`}, raw ${raw === null ? 'no' : `ef ${raw.ef}`})`
        : `${fmt(q.qps)} (ef ${q.ef}, ${fmt(q.recall, 3)}) / ${fmt(raw.qps)} (ef ${raw.ef}, ${fmt(raw.recall, 3)}) = ${rr.toFixed(2)}x${rr >= 1.5 ? ' (stretch met)' : ''}`,
      fin(rr) ? rr >= 1.0 : null,
    );
  }
  const p99 = ok(def) ? def.halfPeak.load.latencyMs.p99 : Number.NaN;
  add(`p99 at half the peak rate <= 5 ms (defaults, W=${def?.workers ?? '?'}, ef ${ef})`, `${fmt(p99, 2)} ms`, fin(p99) ? p99 <= 5 : null);
  const rawIns = r.raw?.builds.find((b) => b.build === 'portable')?.insertRate;
  const ingestRate = r.memory?.ingest.rate ?? def?.ingest.rate;
  add('ingest >= 2x raw npm single-thread insert', `${fmt(ingestRate)} / ${fmt(rawIns)} points/s = ${ratio(ingestRate, rawIns)}`, fin(ingestRate) && fin(rawIns) ? ingestRate >= 2 * rawIns : null);
  const rest = ok(def) ? def.perEf.find((e) => e.ef === ef)?.peak.load.qps : undefined;
  const grpc = ok(def) ? def.grpc?.load.qps : undefined;
  add(`gRPC search QPS >= REST (defaults, ef ${ef})`, `${fmt(grpc)} vs ${fmt(rest)} (${ratio(grpc, rest)})`, fin(grpc) && fin(rest) ? grpc >= rest : null);
  const m = r.memory;
  const large = r.config.large;
  add('RssAnon growth after ingest <= 2.5x raw vector bytes', m === null ? 'n/a' : `${mib(m.afterIngestRssAnon - m.emptyRssAnon)} / ${mib(m.rawVectorBytes)} = ${m.growthAfterIngest.toFixed(2)}x`, m === null ? null : m.growthAfterIngest <= 2.5);
  add(`RssAnon growth after ingest, ${m === null ? '' : `${m.settleMs} ms `}quiet, <= 2.5x raw vector bytes`, m === null ? 'n/a' : `${mib(m.afterIngestSettledRssAnon - m.emptyRssAnon)} / ${mib(m.rawVectorBytes)} = ${m.growthAfterIngestSettled.toFixed(2)}x`, m === null ? null : m.growthAfterIngestSettled <= 2.5);
  add('RssAnon growth after restart <= 2.0x raw vector bytes', m === null ? 'n/a' : `${mib(m.afterRestartRssAnon - m.emptyRssAnon)} / ${mib(m.rawVectorBytes)} = ${m.growthAfterRestart.toFixed(2)}x`, m === null ? null : m.growthAfterRestart <= 2.0);
  const sigtermLimit = large ? 10_000 : 1000;
  add(`ready after SIGTERM <= ${sigtermLimit / 1000} s (spawn -> /readyz 200)`, m === null ? 'n/a' : `${fmt(m.readyAfterSigtermMs)} ms`, m === null ? null : m.readyAfterSigtermMs <= sigtermLimit);
  add(
    `recall@10 after SIGTERM restart equal to before (|delta| <= ${RECALL_TOLERANCE} at ${r.config.queries} queries)`,
    m === null ? 'n/a' : `${fmt(m.recallBefore, 4)} -> ${fmt(m.recallAfter, 4)} (delta ${signed(m.recallAfter - m.recallBefore)})`,
    m === null ? null : Math.abs(m.recallAfter - m.recallBefore) <= RECALL_TOLERANCE,
  );
  const c = r.crash;
  const cleanUnreachable = m?.cleanSearchSample?.notFound ?? null;
  const killLimit = large ? 15_000 : 2000;
  add(`ready after kill -9 mid-ingest <= ${killLimit / 1000} s`, c === null ? 'n/a' : `${fmt(c.readyAfterKillMs)} ms`, c === null ? null : c.readyAfterKillMs <= killLimit);
  add(
    'every acknowledged point present and searchable after kill -9',
    c === null
      ? 'n/a'
      : `${c.acknowledgedMissing} of ${c.acknowledgedPoints} missing; sampled ${c.searchSample}: own nearest at ef ${c.ownNearestAtEf} ${c.ownNearestFound} (${fmt((100 * c.ownNearestFound) / Math.max(1, c.searchSample), 1)}%), not found at ef ${c.highEf} ${c.searchSampleNotFound}${cleanUnreachable === null ? '' : ` (a graph never killed, same ids: ${cleanUnreachable})`}`,
    // Searchable as on a graph never killed: HNSW itself leaves a few points unreachable at 1M.
    c === null ? null : c.acknowledgedMissing === 0 && c.searchSampleNotFound <= (cleanUnreachable ?? 0),
  );
  const rebuilt = c?.engineReady?.hnsw_rebuilt_shards;
  add(
    'after kill -9 the graphs are loaded, not rebuilt (engine ready: hnsw_rebuilt_shards)',
    c === null ? 'n/a' : `hnsw_restored_shards ${String(c.engineReady?.hnsw_restored_shards ?? 'n/a')}, hnsw_rebuilt_shards ${String(rebuilt ?? 'n/a')}`,
    c === null || typeof rebuilt !== 'number' ? null : rebuilt === 0,
  );
  const cleanRecall = m?.recallBefore ?? def?.perEf.find((e) => e.ef === ef)?.recall;
  // Not a two-sided equality: the graph after kill -9 lands on either side of the clean one's by
  // construction noise (+0.0066 seen at 100k). What the restart must not do is lose recall, so a
  // lower figure beyond the tolerance (killRecallTolerance) is the miss.
  const killTol = killRecallTolerance(r.config.n);
  add(
    `recall@10 after kill -9 (ingest then completed) not below a clean ingest's (delta >= -${killTol} at ${r.config.queries} queries)`,
    c === null ? 'n/a' : `${fmt(c.recallAfterCompletingIngest, 4)} vs ${fmt(cleanRecall, 4)}${fin(cleanRecall) ? ` (delta ${signed(c.recallAfterCompletingIngest - cleanRecall)})` : ''}`,
    c === null || !fin(cleanRecall) ? null : c.recallAfterCompletingIngest - cleanRecall >= -killTol,
  );
  return t;
}
