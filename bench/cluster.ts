// `npm run bench:cluster`: what cluster mode costs and gives on one machine, beside one Quiver
// node and raw in-process hnswlib-node on the same clustered data, with exact ground truth, in the
// same run. The cluster is README's "Three nodes on one machine": 3 nats-servers, 3 etcd members
// and 3 Quiver nodes (1 worker each), started by the test helpers (test/helpers/nats.ts, etcd.ts)
// on free loopback ports and stopped by PID. Measured, for each of the single node and the cluster:
// - ingest: batches of BENCH_BATCH points, wait=true, BENCH_INGEST_CONCURRENCY in flight (in the
//   cluster through every node at once, a third of the batches each), points/s; in the cluster also
//   the time until every replica has applied the whole log (from each node's status in etcd);
// - recall@10 at each ef over REST (in the cluster through every node);
// - peak search QPS at each ef, BENCH_CONNECTIONS connections (split over the nodes), and the CPU
//   per query of every process by role: Quiver main threads, Quiver shard workers, nats-servers,
//   etcd members (from /proc/<pid>/task/*/stat, bench/lib/proc.ts).
// Every load generator is a child process (bench/lib/load.ts), on the same 2 cores as everything
// else: the figures compare set-ups on one machine, they do not forecast a cluster of machines.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEtcd, etcdMissing, type EtcdCluster } from '../test/helpers/etcd.js';
import { startNats, type NatsCluster } from '../test/helpers/nats.js';
import { streamName } from '../src/shared/log-entry.js';
import { callOk, cleanups, envInt, gitCommit, progress, RESULTS_DIR, runBench, stopAll } from './common.js';
import { Batches, createCollection, countPoints, ingest, searchAll, searchBody, type IngestResult } from './lib/client.js';
import { makeDataset, recallAtK, rowOf } from './lib/dataset.js';
import { httpLoad, WRK, type Measured } from './lib/load.js';
import { processCpuMs, sampleCpu, type CpuSample } from './lib/proc.js';
import { rawHnswlib, type RawBuild } from './lib/raw.js';
import { table, fmt } from './lib/report.js';
import { startQuiver, stopQuiver, type Quiver } from './lib/server.js';
import { groundTruth } from './lib/truth.js';

const CORES = availableParallelism();
const CFG = {
  n: envInt('BENCH_N', 20_000),
  dim: envInt('BENCH_DIM', 128),
  queries: envInt('BENCH_QUERIES', 200),
  clusters: envInt('BENCH_CLUSTERS', 100),
  sigma: Number(process.env.BENCH_SIGMA ?? 0.3),
  seed: envInt('BENCH_SEED', 1),
  k: 10,
  m: 16,
  efConstruct: 100,
  efs: (process.env.BENCH_EFS ?? '64,128').split(',').map(Number),
  seconds: envInt('BENCH_SECONDS', 5),
  connections: envInt('BENCH_CONNECTIONS', 48),
  batch: envInt('BENCH_BATCH', 500),
  ingestConcurrency: envInt('BENCH_INGEST_CONCURRENCY', 4),
  rawSeconds: envInt('BENCH_RAW_SECONDS', 3),
  shardNumber: envInt('BENCH_CLUSTER_SHARDS', 3),
  replicationFactor: envInt('BENCH_CLUSTER_RF', 2),
  singleWorkers: envInt('BENCH_SINGLE_WORKERS', CORES),
  timeoutS: envInt('BENCH_TIMEOUT_S', 1800),
  // Unmeasured load before each ef, in windows of BENCH_WARMUP_S, until two windows in a row agree
  // on the CPU per query within BENCH_STEADY_PCT percent, at most BENCH_WARMUP_MAX_S in all.
  warmupS: envInt('BENCH_WARMUP_S', 3),
  warmupMaxS: envInt('BENCH_WARMUP_MAX_S', 40),
  steadyPct: Number(process.env.BENCH_STEADY_PCT ?? 5),
  settleMaxS: envInt('BENCH_SETTLE_MAX_S', 30),
  // The cluster's control plane alone (leases, status reports, etcd, NATS) keeps about 0.1 core busy.
  idleCores: Number(process.env.BENCH_IDLE_CORES ?? 0.15),
};
const NAME = 'bench';

/** CPU of every process of a set-up, by role, at one moment. */
interface CpuRoles {
  quiverMain: number;
  quiverWorkers: number;
  quiverOther: number;
  nats: number;
  etcd: number;
  at: number;
}

interface Setup {
  label: string;
  urls: string[];
  quivers: Quiver[];
  natsPids: number[];
  etcdPids: number[];
}

function sampleRoles(s: Setup): CpuRoles {
  const q: CpuSample[] = s.quivers.map((x) => sampleCpu(x.pid, x.tidFile));
  const sum = (pids: number[]): number => pids.reduce((a, p) => a + (processCpuMs(p) ?? 0), 0);
  return {
    quiverMain: q.reduce((a, c) => a + c.mainMs, 0),
    quiverWorkers: q.reduce((a, c) => a + c.workersMs, 0),
    quiverOther: q.reduce((a, c) => a + c.otherMs, 0),
    nats: sum(s.natsPids),
    etcd: sum(s.etcdPids),
    at: performance.now(),
  };
}

/** Every role's processes: "all processes" in the figures. */
const ROLES = ['quiverMain', 'quiverWorkers', 'quiverOther', 'nats', 'etcd'] as const;

/** All processes' CPU in one of perUnit's records. */
const allRoles = (c: Record<string, number>): number => ROLES.reduce((x, k) => x + (c[k] ?? 0), 0);

/** CPU ms per unit (query or point) by role between two samples, and cores busy in all. */
function perUnit(a: CpuRoles, b: CpuRoles, units: number): Record<string, number> {
  const d = (k: keyof Omit<CpuRoles, 'at'>): number => (b[k] - a[k]) / Math.max(1, units);
  const total = ROLES.reduce((x, k) => x + (b[k] - a[k]), 0);
  return { quiverMain: d('quiverMain'), quiverWorkers: d('quiverWorkers'), quiverOther: d('quiverOther'), nats: d('nats'), etcd: d('etcd'), coresBusy: total / Math.max(1, b.at - a.at) };
}

/** Reads sent to a second replica so far, summed over the nodes (quiver_cluster_hedged_reads_total). */
async function hedgedReads(urls: string[]): Promise<number> {
  let sum = 0;
  for (const u of urls) {
    const text = await (await fetch(`${u}/metrics`)).text();
    const m = /^quiver_cluster_hedged_reads_total\s+(\d+)/m.exec(text);
    if (m !== null) sum += Number(m[1]);
  }
  return sum;
}

interface SetupResult {
  label: string;
  ingest: { points: number; seconds: number; rate: number; replicatedS: number | null; cpuMsPerPoint: Record<string, number> };
  perEf: { ef: number; recall: number; qps: number; p50: number; p99: number; failed: number; generator: string; hedgedPerQuery: number; cpuMsPerQuery: Record<string, number> }[];
}

/** Batches [0, count) split into one contiguous range per url, ingested at once. */
async function ingestAll(s: Setup, batches: Batches): Promise<IngestResult> {
  const t0 = performance.now();
  const per = Math.ceil(batches.count / s.urls.length);
  const parts = await Promise.all(s.urls.map((u, i) => ingest(u, NAME, batches, CFG.ingestConcurrency, i * per, Math.min(batches.count, (i + 1) * per))));
  const seconds = (performance.now() - t0) / 1000;
  const points = parts.reduce((a, p) => a + p.points, 0);
  return { points, seconds, rate: points / seconds, acked: parts.flatMap((p) => p.acked) };
}

/**
 * Waits (at most BENCH_SETTLE_MAX_S) until the set-up's processes are about idle over a whole
 * second: the work an ingest leaves behind (graph saves, LMDB syncs) is not charged to queries.
 */
async function settle(s: Setup): Promise<{ seconds: number; cores: number }> {
  const t0 = performance.now();
  let a = sampleRoles(s);
  for (;;) {
    await new Promise((res) => setTimeout(res, 1000));
    const b = sampleRoles(s);
    const cores = perUnit(a, b, 1).coresBusy!;
    const seconds = (performance.now() - t0) / 1000;
    if (cores < CFG.idleCores || seconds >= CFG.settleMaxS) return { seconds, cores };
    a = b;
  }
}

async function measure(s: Setup, ds: ReturnType<typeof makeDataset>, truth: number[][], replicated: () => Promise<void>): Promise<SetupResult> {
  progress(`${s.label}: ingest ${CFG.n} points`);
  const batches = new Batches(ds, CFG.batch);
  const c0 = sampleRoles(s);
  const ing = await ingestAll(s, batches);
  const c1 = sampleRoles(s);
  const t = performance.now();
  await replicated();
  const replicatedS = s.urls.length > 1 ? (performance.now() - t) / 1000 : null;
  const cpuIngest = perUnit(c0, c1, ing.points);
  progress(`  ${ing.rate.toFixed(0)} points/s (${ing.seconds.toFixed(1)} s)${replicatedS === null ? '' : `, every replica at the log's end ${replicatedS.toFixed(1)} s later`}`);
  const settled = await settle(s);
  progress(`  settled ${settled.seconds.toFixed(1)} s after ingest (${settled.cores.toFixed(2)} cores busy then)`);
  for (const u of s.urls) {
    const c = await countPoints(u, NAME);
    if (c !== CFG.n) throw new Error(`${u} counts ${c} points, not ${CFG.n}`);
  }
  const rows = Array.from({ length: CFG.queries }, (_, i) => rowOf(ds.queries, i, CFG.dim));
  const perEf: SetupResult['perEf'] = [];
  for (const ef of CFG.efs) {
    const bodies = rows.map((v) => searchBody(v, ef, CFG.k));
    // Recall through every node (each answers the whole collection); also the warm-up of this ef.
    const recalls: number[] = [];
    for (const u of s.urls) recalls.push(recallAtK(await searchAll(u, NAME, bodies), truth));
    const recall = recalls.reduce((a, r) => a + r, 0) / recalls.length;
    const conns = Math.max(1, Math.floor(CFG.connections / s.urls.length));
    const load = (seconds: number): Promise<Measured[]> =>
      Promise.all(
        s.quivers.map((q) =>
          httpLoad({ url: q.url, path: `/collections/${NAME}/points/search`, bodies, connections: conns, seconds, warmupSeconds: 0, overallRate: null }, scratch, { pid: q.pid, tidFile: q.tidFile }),
        ),
      );
    const warm = await warmUp(s, load);
    progress(`  ef ${ef}: warm-up ${warm.map((x) => x.toFixed(3)).join(' -> ')} CPU ms/query (${warm.length} x ${CFG.warmupS} s)`);
    const hedged0 = await hedgedReads(s.urls);
    const before = sampleRoles(s);
    const runs = await load(CFG.seconds);
    const after = sampleRoles(s);
    const ok = runs.reduce((a, r) => a + r.load.ok, 0);
    const hedgedPerQuery = ((await hedgedReads(s.urls)) - hedged0) / Math.max(1, ok);
    const qps = runs.reduce((a, r) => a + r.load.qps, 0);
    const worst = (f: (m: Measured) => number): number => Math.max(...runs.map(f));
    const row = {
      ef,
      recall,
      qps,
      p50: worst((m) => m.load.latencyMs.p50),
      p99: worst((m) => m.load.latencyMs.p99),
      failed: runs.reduce((a, r) => a + r.load.failed, 0),
      generator: runs[0]!.load.generator,
      hedgedPerQuery,
      cpuMsPerQuery: perUnit(before, after, ok),
    };
    perEf.push(row);
    progress(`  ef ${ef}: recall ${recall.toFixed(4)}, ${qps.toFixed(0)} QPS, p99 ${row.p99.toFixed(1)} ms (slowest node), ${row.cpuMsPerQuery.coresBusy!.toFixed(2)} cores busy, ${(100 * hedgedPerQuery).toFixed(1)}% of queries hedged a read${row.failed > 0 ? `, FAILED ${row.failed}` : ''}`);
  }
  return { label: s.label, ingest: { points: ing.points, seconds: ing.seconds, rate: ing.rate, replicatedS, cpuMsPerPoint: cpuIngest }, perEf };
}

/**
 * The same load, unmeasured, until the set-up's CPU per query is steady; the figures per window.
 * A cluster just started takes 10-20 s of load to get there (three processes, each with a main
 * thread, a worker and an etcd thread, compile the same code and size their heaps, each at a third
 * of the rate one node sees): four 5 s windows in a row, each after 2 s of load, cost 0.88, 0.67,
 * 0.61 and 0.59 ms/query, while one node's first window was already as its later ones.
 */
async function warmUp(s: Setup, load: (seconds: number) => Promise<Measured[]>): Promise<number[]> {
  const seen: number[] = [];
  if (CFG.warmupS <= 0) return seen;
  for (let spent = 0; spent < CFG.warmupMaxS; spent += CFG.warmupS) {
    const before = sampleRoles(s);
    const runs = await load(CFG.warmupS);
    const ms = allRoles(perUnit(before, sampleRoles(s), runs.reduce((a, r) => a + r.load.ok, 0)));
    const last = seen[seen.length - 1];
    seen.push(ms);
    if (last !== undefined && Math.abs(ms - last) <= (CFG.steadyPct / 100) * last) break;
  }
  return seen;
}

async function single(ds: ReturnType<typeof makeDataset>, truth: number[][]): Promise<SetupResult> {
  const dir = join(scratch, 'single');
  const q = await startQuiver({ dataDir: dir, workers: CFG.singleWorkers, scratch });
  try {
    await createCollection(q.url, NAME, CFG.dim, CFG.m, CFG.efConstruct, { shardNumber: CFG.shardNumber, replicationFactor: 1 });
    return await measure({ label: `one node, ${CFG.singleWorkers} workers, ${CFG.shardNumber} shards`, urls: [q.url], quivers: [q], natsPids: [], etcdPids: [] }, ds, truth, async () => undefined);
  } finally {
    await stopQuiver(q);
  }
}

async function cluster(ds: ReturnType<typeof makeDataset>, truth: number[][]): Promise<SetupResult> {
  const missing = etcdMissing();
  if (missing !== null) throw new Error(missing);
  let nats: NatsCluster | null = null;
  let etcd: EtcdCluster | null = null;
  const quivers: Quiver[] = [];
  let kv: Etcd3 | null = null;
  try {
    [nats, etcd] = await Promise.all([startNats(3), startEtcd(3)]);
    const env = { SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_PORT: '0' };
    for (let i = 0; i < 3; i++) quivers.push(await startQuiver({ dataDir: join(scratch, `node${i}`), workers: 1, scratch, env }));
    const urls = quivers.map((q) => q.url);
    // Every node must see the three peers before placement (else a shard's replicas crowd on fewer).
    for (const u of urls) {
      for (let i = 0; ; i++) {
        const r = (await callOk(u, 'GET', '/cluster')) as { result?: { peers?: Record<string, unknown> } };
        if (Object.keys(r.result?.peers ?? {}).length === 3) break;
        if (i > 200) throw new Error(`${u} does not list 3 peers`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    await createCollection(urls[0]!, NAME, CFG.dim, CFG.m, CFG.efConstruct, { shardNumber: CFG.shardNumber, replicationFactor: CFG.replicationFactor });
    // Writable through every node once each has the collection and its shards are placed.
    for (const u of urls) {
      for (let i = 0; ; i++) {
        const r = await fetch(`${u}/collections/${NAME}/points/count`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"exact":true}' });
        if (r.status === 200) break;
        if (i > 300) throw new Error(`${u} does not serve the collection: ${r.status} ${await r.text()}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    // Replicas per node: with one remote read per query on each node this spreads evenly; a node
    // holding every shard answers its queries with no hop, and the closed-loop load then sends it
    // more of them, so an uneven placement flatters the cluster's CPU per query.
    const perNode = await Promise.all(urls.map(async (u) => ((await callOk(u, 'GET', `/collections/${NAME}/cluster`)) as { result: { local_shards: unknown[] } }).result.local_shards.length));
    kv = new Etcd3({ hosts: etcd.endpoints.split(',') });
    const id = (JSON.parse((await kv.get('/quiver/catalog/bench').string()) ?? '{}') as { id?: number }).id;
    if (typeof id !== 'number') throw new Error('no catalog entry for the bench collection');
    const setup: Setup = {
      label: `3 nodes x 1 worker, ${CFG.shardNumber} shards, replication_factor ${CFG.replicationFactor} (replicas per node ${perNode.join('/')})`,
      urls,
      quivers,
      natsPids: nats.nodes.map((n) => n.proc!.pid!),
      etcdPids: etcd.members.map((m) => m.proc!.pid!),
    };
    const natsCluster = nats;
    const etcdKv = kv;
    // Every replica at its stream's last sequence, as each node reports in etcd (status/<node>).
    const replicated = async (): Promise<void> => {
      const last: number[] = [];
      for (let s = 0; s < CFG.shardNumber; s++) last.push(await natsCluster.lastSeq(streamName(id, s)));
      for (let i = 0; ; i++) {
        const all = await etcdKv.getAll().prefix('/quiver/status/').strings();
        const at = new Map<number, number[]>();
        for (const v of Object.values(all)) {
          const shards = (JSON.parse(v) as { shards?: Record<string, { applied_seq: number }> }).shards ?? {};
          for (const [key, p] of Object.entries(shards)) {
            const [c, s] = key.split('/').map(Number);
            if (c === id) at.set(s!, [...(at.get(s!) ?? []), p.applied_seq]);
          }
        }
        const done = last.every((l, s) => (at.get(s) ?? []).length >= CFG.replicationFactor && at.get(s)!.every((a) => a >= l));
        if (done) return;
        if (i > 1200) throw new Error(`replicas not at the log's end after 120 s: ${JSON.stringify([...at])} vs ${last.join(',')}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    return await measure(setup, ds, truth, replicated);
  } finally {
    kv?.close();
    for (const q of quivers) await stopQuiver(q).catch(() => undefined);
    await Promise.all([nats?.close(), etcd?.stop()]);
  }
}

function print(raw: RawBuild | null, results: SetupResult[]): void {
  const out: string[] = [];
  out.push('', `Cluster bench: ${CFG.n} x ${CFG.dim} clustered points, Euclid, m ${CFG.m}, ef_construct ${CFG.efConstruct}, ${CORES} cores, load ${WRK.path === null ? 'autocannon' : 'wrk'} children`);
  const rawIns = raw?.insertRate ?? Number.NaN;
  out.push(
    '',
    ...table(
      ['set-up', 'ingest points/s', 'x raw insert', 'replicas at log end', 'CPU ms/point main | workers | nats | etcd'],
      results.map((r) => [
        r.label,
        fmt(r.ingest.rate),
        fmt(r.ingest.rate / rawIns, 2),
        r.ingest.replicatedS === null ? '-' : `${r.ingest.replicatedS.toFixed(1)} s`,
        [r.ingest.cpuMsPerPoint.quiverMain, r.ingest.cpuMsPerPoint.quiverWorkers, r.ingest.cpuMsPerPoint.nats, r.ingest.cpuMsPerPoint.etcd].map((x) => fmt(x, 3)).join(' | '),
      ]),
    ),
  );
  const rows: string[][] = [];
  if (raw !== null) for (const e of raw.search) rows.push(['raw hnswlib-node, 1 thread', String(e.ef), fmt(e.recall, 4), fmt(e.qps), '-', '-', '-', fmt(e.cpuUsPerQuery / 1000, 3)]);
  for (const r of results)
    for (const e of r.perEf) {
      const rawQps = raw?.search.find((x) => x.ef === e.ef)?.qps ?? Number.NaN;
      const c = e.cpuMsPerQuery;
      rows.push([r.label, String(e.ef), fmt(e.recall, 4), `${fmt(e.qps)} (${fmt(e.qps / rawQps, 2)}x raw)`, fmt(e.p99, 1), String(e.failed), `${fmt(100 * e.hedgedPerQuery, 1)}%`, [c.quiverMain, c.quiverWorkers, c.quiverOther, c.nats, c.etcd].map((x) => fmt(x, 3)).join(' | ')]);
    }
  out.push('', ...table(['set-up', 'ef', 'recall@10', 'peak QPS', 'p99 ms', 'failed', 'hedged', 'CPU ms/query main | workers | other | nats | etcd'], rows));
  // The cluster's CPU per query against the single node's, at each ef: all processes, and main threads.
  const [one, three] = results;
  if (one !== undefined && three !== undefined) {
    const ratios = one.perEf.flatMap((a) => {
      const b = three.perEf.find((x) => x.ef === a.ef);
      return b === undefined ? [] : [[String(a.ef), fmt(allRoles(b.cpuMsPerQuery) / allRoles(a.cpuMsPerQuery), 2), fmt((b.cpuMsPerQuery.quiverMain ?? 0) / (a.cpuMsPerQuery.quiverMain ?? Number.NaN), 2)]];
    });
    out.push('', ...table(['ef', 'cluster / one node: CPU per query, all processes', 'main threads'], ratios));
  }
  process.stdout.write(out.join('\n') + '\n');
}

let scratch = '';

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-cluster-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  progress(`cluster bench: N=${CFG.n} dim=${CFG.dim} queries=${CFG.queries} efs=${CFG.efs.join(',')}, ${CFG.seconds} s per load run, ${CORES} cores`);
  const ds = makeDataset({ n: CFG.n, queries: CFG.queries, dim: CFG.dim, clusters: CFG.clusters, sigma: CFG.sigma, seed: CFG.seed });
  const truth = groundTruth(ds.points, CFG.n, ds.queries, CFG.queries, CFG.dim, CFG.k);
  const raw = await rawHnswlib(ds, truth, { m: CFG.m, efConstruction: CFG.efConstruct, efs: CFG.efs, k: CFG.k, windowS: CFG.rawSeconds, seed: 100 }, scratch);
  const portable = raw.builds.find((b) => b.build === 'portable') ?? null;
  const results: SetupResult[] = [];
  results.push(await single(ds, truth));
  results.push(await cluster(ds, truth));
  await stopAll();
  print(portable, results);
  const file = join(RESULTS_DIR, `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ config: CFG, commit: gitCommit(), loadAverage: loadavg(), raw: portable, results }, null, 2) + '\n');
  progress(`figures written to ${file}`);
}

runBench(main, CFG.timeoutS);
