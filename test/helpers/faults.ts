// The 8 fault scenarios of docs/cluster.md section 10 and their checks. Each runs on a fresh 9-process
// cluster (test/helpers/cluster.ts): a collection with 3 shards, replication_factor 2 and
// write_consistency_factor 1; about 20 s of load (cluster-workload.ts) with one fault at t=5 s,
// then recovery (what was killed is restarted), then the checks. The figures go to JSON (one
// file per scenario under QUIVER_FAULTS_OUT, default test/artifacts/cluster-faults) with the
// list of failed checks; a run that fails also leaves every node's log there.
//
// The scenarios are in fault-scenarios.ts, the reads of the cluster's state in
// fault-cluster-state.ts, of the streams in fault-stream.ts, of the replicas' disks in
// fault-replicas.ts; all of them are exported from here too.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { QdrantClient } from '@qdrant/js-client-rest';
import { streamName } from '../../src/shared/log-entry.js';
import { startCluster, type TestCluster } from './cluster.js';
import { describeError, DIM, errorCounts, longestGap, vectorOf, Workload } from './cluster-workload.js';
import { assignments, collectionId, COLLECTION, lastSeqs, reports, settle, SHARDS, type Assignment } from './fault-cluster-state.js';
import { onDisk, replicaDiff, type ReplicaDiff, type ReplicaOnDisk } from './fault-replicas.js';
import { FAULT_AT_MS, LOAD_MS, type Scenario } from './fault-scenarios.js';
import { streamDuplicates } from './fault-stream.js';
import { call } from './server.js';

export { COLLECTION, settle } from './fault-cluster-state.js';
export { onDisk, replicaDiff, type ReplicaDiff } from './fault-replicas.js';
export { SCENARIOS, type Scenario } from './fault-scenarios.js';
export { streamDuplicates } from './fault-stream.js';

const SEED = 60;
/** How long a recovery may take to show every point and converge on this busy machine. */
const SETTLE_MS = 90_000;

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export interface Figures {
  scenario: number;
  name: string;
  hit: string;
  faultAtMs: number;
  recoveredAtMs: number;
  loadEndMs: number;
  /** When the requests in flight at the end of the load had all answered. */
  drainedAtMs: number;
  writes: { ok: number; failed: number; errors: Record<string, number>; slowestMs: number; slowestAtMs: number };
  ackedIds: number;
  completedIds: number;
  deletes: { acknowledged: number; unknown: number };
  lostThroughNode: number[];
  deletedBackThroughNode: number[];
  scrollDuplicates: number;
  streamDuplicates: number;
  streamEntries: number;
  /** Silent consumer sessions the stream read replaced (see streamDuplicates). */
  streamReadRestarts: number;
  lastSeqs: number[];
  replicas: { shard: number; epoch: number; replicas: ReplicaOnDisk[] }[];
  /** Per shard whose replicas differ: what each one lacks, holds extra, or holds in another version. */
  divergence: ({ shard: number } & ReplicaDiff)[];
  converged: boolean;
  deletedBackOnDisk: number;
  queries: { ok: number; failed: number; errors: Record<string, number>; wrongTop1: number; slowestMs: number; slowestAtMs: number };
  longestQueryGapMs: number;
  longestQueryGapAtMs: number;
  longestWriteGapMs: number;
  longestWriteGapAtMs: number;
  /** The test process's own longest event-loop stall during the load (its clock for every gap). */
  harnessMaxStallMs: number;
  consistencyAll: { checks: number; misses: number; errors: Record<string, number> };
  failures: string[];
}

export function outDir(): string {
  return resolve(process.env.QUIVER_FAULTS_OUT ?? join(import.meta.dirname, '..', 'artifacts', 'cluster-faults'));
}

/** Runs one scenario on a fresh cluster and returns its figures (their `failures` empty when every check held). */
export async function runScenario(sc: Scenario): Promise<Figures> {
  const c = await startCluster();
  let figures: Figures | null = null;
  try {
    figures = await drive(c, sc);
    return figures;
  } finally {
    const dir = outDir();
    mkdirSync(dir, { recursive: true });
    if (figures !== null) writeFileSync(join(dir, `scenario-${sc.n}.json`), JSON.stringify(figures, null, 2) + '\n');
    // Always: a pass with a long gap is worth reading too.
    {
      for (const n of c.nodes) writeFileSync(join(dir, `scenario-${sc.n}-node${n.index}.log`), n.logs.join('\n') + '\n');
      for (const [i, n] of c.nats.nodes.entries()) writeFileSync(join(dir, `scenario-${sc.n}-nats${i}.log`), n.logs.join(''));
    }
    await c.close();
  }
}

async function drive(c: TestCluster, sc: Scenario): Promise<Figures> {
  const urls = c.nodes.map((n) => n.url);
  await settle('a controller', () => c.controller());
  const admin = new QdrantClient({ url: urls[0]!, checkCompatibility: false });
  await admin.createCollection(COLLECTION, {
    vectors: { size: DIM, distance: 'Cosine' },
    shard_number: SHARDS,
    replication_factor: 2,
    write_consistency_factor: 1,
  });
  // A refusal in the set-up is a failure of the scenario, recorded; the step is retried so the rest is still measured.
  const setupErrors: string[] = [];
  // The creating node reads its own create at once; the others mirror it soon after.
  const own = await call(urls[0]!, 'GET', `/collections/${COLLECTION}`);
  if (own.status !== 200) setupErrors.push(`GET on the creating node right after create answered ${own.status}: ${JSON.stringify(own.body?.status ?? own.body)}`);
  // Every node knows the collection before the load begins.
  for (const url of urls) await settle(`${COLLECTION} on ${url}`, async () => ((await call(url, 'GET', `/collections/${COLLECTION}`)).status === 200 ? true : null));
  const id = await collectionId(c);
  const stream = streamName(id, 0);

  // The readers' targets: stored before the load and found as top-1 through every node.
  const seedIds = Array.from({ length: SEED }, (_, k) => k);
  await settle('the seed write', async () => {
    try {
      await admin.upsert(COLLECTION, { wait: true, points: seedIds.map((p) => ({ id: p, vector: vectorOf(p) })) });
      return true;
    } catch (err) {
      setupErrors.push(`seed upsert wait=true right after create refused: ${describeError(err)}`);
      return null;
    }
  });
  for (const url of urls) {
    const cl = new QdrantClient({ url, checkCompatibility: false });
    for (const p of seedIds) {
      await settle(`seed ${p} on ${url}`, async () => ((await cl.query(COLLECTION, { query: vectorOf(p), limit: 1, params: { exact: true } })).points[0]?.id === p ? true : null));
    }
  }

  // Where no Quiver node is touched (sc.noQueryErrors), a query is an error only if it fails or takes
  // longer than the gap bound: a slow answer is a gap, bounded as such, and reported as the slowest
  // query. Elsewhere a reader stuck on a stopped node gives up after 2 s and asks the next node.
  const gapBoundMs = (c.leaseSeconds + 2) * 1000;
  const w = new Workload({ urls, collection: COLLECTION, seedIds, firstId: SEED, readTimeoutMs: sc.noQueryErrors ? gapBoundMs : 2_000 });
  // The test process shares the 2 cores: a stall of its own event loop shows as a gap in everything
  // it measures, so its longest stall is reported beside the gaps (and not subtracted from them).
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  w.start();
  await sleepUntil(w, FAULT_AT_MS);
  const faultAtMs = w.now();
  const f = await sc.fault(c, { stream });
  await sleepUntil(w, f.recoverAtMs);
  await f.recover();
  const recoveredAtMs = w.now();
  await sleepUntil(w, Math.max(LOAD_MS, recoveredAtMs + 5_000));
  // The load ends when no new request is sent; the ones in flight then are awaited (a write may
  // retry for 15 s). Queries are judged up to the end of the load, writes up to the last answer, so
  // a write hung past the end still shows as a gap and as the slowest write.
  const loadEndMs = w.now();
  await w.stop();
  lag.disable();
  const drainedAtMs = w.now();

  const failures: string[] = [...setupErrors];
  const must = w.mustExist();
  const clients = urls.map((url) => new QdrantClient({ url, timeout: 10_000, checkCompatibility: false }));

  // Read back every acknowledged id through every node, and no deleted one: polled while replicas catch up.
  const lostThroughNode: number[] = [];
  const deletedBackThroughNode: number[] = [];
  // One deadline for all nodes: a node that never serves again must not cost SETTLE_MS three times.
  const end = Date.now() + SETTLE_MS;
  for (const [i, cl] of clients.entries()) {
    let missing = must.length;
    let back = 0;
    for (;;) {
      try {
        const found = new Set<number>();
        for (const part of chunks([...must, ...w.deleted], 500)) {
          for (const p of await cl.retrieve(COLLECTION, { ids: part, with_payload: false, with_vector: false })) found.add(p.id as number);
        }
        missing = must.filter((p) => !found.has(p)).length;
        back = [...w.deleted].filter((p) => found.has(p)).length;
        if ((missing === 0 && back === 0) || Date.now() > end) break;
      } catch {
        if (Date.now() > end) break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    lostThroughNode.push(missing);
    deletedBackThroughNode.push(back);
    if (missing > 0) failures.push(`node ${i}: ${missing} of ${must.length} acknowledged ids not read back`);
    if (back > 0) failures.push(`node ${i}: ${back} deleted ids came back`);
  }

  // Scroll everything through every node: no id twice, none unknown to the workload.
  let scrollDuplicates = 0;
  const known = (p: number): boolean => p < SEED || w.acked.has(p) || w.maybe.has(p) || w.deleteUnknown.has(p);
  for (const [i, cl] of clients.entries()) {
    const seen = new Set<number>();
    let offset: number | undefined;
    let unknown = 0;
    try {
      for (;;) {
        const page = await cl.scroll(COLLECTION, { limit: 1000, with_payload: false, with_vector: false, ...(offset === undefined ? {} : { offset }) });
        for (const p of page.points) {
          const pid = p.id as number;
          if (seen.has(pid)) scrollDuplicates++;
          if (!known(pid)) unknown++;
          seen.add(pid);
        }
        if (page.next_page_offset === null || page.next_page_offset === undefined) break;
        offset = page.next_page_offset as number;
      }
    } catch (e) {
      failures.push(`node ${i}: scroll failed: ${String(e)}`);
    }
    if (unknown > 0) failures.push(`node ${i}: ${unknown} ids scrolled that no writer sent`);
  }
  if (scrollDuplicates > 0) failures.push(`${scrollDuplicates} ids scrolled twice`);

  // Wait until every assigned replica reports the streams' last sequences, then stop the nodes and compare disks.
  const seqs = await lastSeqs(c, id);
  await settle(
    'every replica to report the last sequences',
    async () => {
      const [as, rep] = await Promise.all([assignments(c, id), reports(c)]);
      // Each shard: at least rf replicas, every one not Dead Active and at the stream's end.
      const live = (a: Assignment): Assignment['replicas'] => a.replicas.filter((r) => r.state !== 'Dead');
      const done = as.every(
        (a, s) => live(a).length >= 2 && live(a).every((r) => r.state === 'Active' && (rep.get(r.node)?.[`${id}/${s}`]?.applied_seq ?? -1) >= seqs[s]!),
      );
      return done ? true : null;
    },
    Math.max(5_000, end - Date.now()),
  ).catch((e: unknown) => failures.push(String(e)));
  const assigned = await assignments(c, id);
  const dups = await streamDuplicates(c.nats, id).catch((e: unknown) => {
    failures.push(`stream read: ${String(e)}`);
    return { entries: 0, readRestarts: 0, duplicated: [], where: [], digests: [] };
  });
  if (dups.duplicated.length > 0) failures.push(`${dups.duplicated.length} ids in two upsert entries of the streams (first: ${dups.duplicated.slice(0, 5).join(',')})`);
  for (let i = 0; i < c.nodes.length; i++) await c.stopNode(i, 'SIGTERM');

  const idx = new Map(c.nodes.map((_, i) => [c.nodeId(i), i]));
  const replicas: Figures['replicas'] = [];
  let converged = true;
  let deletedBackOnDisk = 0;
  const divergence: Figures['divergence'] = [];
  for (let s = 0; s < SHARDS; s++) {
    const a = assigned[s]!;
    const rows: ReplicaOnDisk[] = [];
    const versions = new Map<number, Map<number, number>>();
    for (const r of a.replicas) {
      const i = idx.get(r.node);
      if (i === undefined) {
        failures.push(`shard ${s}: replica on unknown node ${r.node}`);
        continue;
      }
      const d = onDisk(c.nodes[i]!.dataDir, id, s);
      deletedBackOnDisk += [...w.deleted].filter((p) => d.ids.has(p)).length;
      rows.push({ node: i, state: r.state, appliedSeq: d.appliedSeq, logDigest: d.logDigest, count: d.count, hash: d.hash });
      if (r.state === 'Active') versions.set(i, d.versions);
    }
    replicas.push({ shard: s, epoch: a.epoch, replicas: rows });
    const active = rows.filter((r) => r.state === 'Active');
    if (active.length < 2) {
      converged = false;
      failures.push(`shard ${s}: ${active.length} Active replicas after recovery (want 2): ${JSON.stringify(rows)}`);
    }
    // A replica at the stream's end that applied other content than the stream now holds (the log
    // served it something else at some sequence) is named apart from one that applied it otherwise.
    const streamDigest = dups.digests[s] ?? null;
    const otherLog = active.filter((r) => r.appliedSeq === seqs[s] && r.logDigest !== null && streamDigest !== null && r.logDigest !== streamDigest);
    if (otherLog.length > 0) {
      converged = false;
      failures.push(`shard ${s}: replicas applied other log content than the stream holds (digest ${streamDigest}): ${JSON.stringify(otherLog)}`);
    }
    const same = active.every((r) => r.appliedSeq === seqs[s] && r.count === active[0]!.count && r.hash === active[0]!.hash);
    if (!same) {
      converged = false;
      failures.push(`shard ${s}: replicas differ (stream last seq ${seqs[s]}): ${JSON.stringify(active)}`);
      const diff = replicaDiff(versions, dups.where[s] ?? new Map());
      divergence.push({ shard: s, ...diff });
      failures.push(`shard ${s}: how they differ: ${JSON.stringify(diff)}`);
    }
  }
  if (deletedBackOnDisk > 0) failures.push(`${deletedBackOnDisk} deleted ids on a replica's disk`);

  const queryGap = longestGap(w.queries, 0, loadEndMs);
  const writeGap = longestGap(w.writes, 0, drainedAtMs);
  const queryErrors = w.queries.filter((q) => !q.ok).length;
  const boundMs = gapBoundMs;
  if (sc.gapBound && queryGap.ms > boundMs) failures.push(`longest query gap ${queryGap.ms} ms at t=${queryGap.start} ms is over ${boundMs} ms`);
  if (sc.noQueryErrors && queryErrors > 0) failures.push(`${queryErrors} query errors: ${JSON.stringify(errorCounts(w.queries))}`);
  if (w.wrongTop1.length > 0) failures.push(`${w.wrongTop1.length} searches missed the exact top-1 (first: ${JSON.stringify(w.wrongTop1[0])})`);
  if (w.allMisses.length > 0) failures.push(`${w.allMisses.length} consistency=all reads missed a completed write (first: ${JSON.stringify(w.allMisses[0])})`);
  if (w.acked.size === 0) failures.push('no write was acknowledged');

  return {
    scenario: sc.n,
    name: sc.name,
    hit: f.hit,
    faultAtMs,
    recoveredAtMs,
    loadEndMs,
    drainedAtMs,
    writes: { ok: w.writes.filter((o) => o.ok).length, failed: w.writes.filter((o) => !o.ok).length, errors: errorCounts(w.writes), ...slowest(w.writes) },
    ackedIds: must.length,
    completedIds: [...w.acked.values()].filter((v) => v === 'completed').length,
    deletes: { acknowledged: w.deleted.size, unknown: w.deleteUnknown.size },
    lostThroughNode,
    deletedBackThroughNode,
    scrollDuplicates,
    streamDuplicates: dups.duplicated.length,
    streamEntries: dups.entries,
    streamReadRestarts: dups.readRestarts,
    lastSeqs: seqs,
    replicas,
    divergence,
    converged,
    deletedBackOnDisk,
    queries: { ok: w.queries.length - queryErrors, failed: queryErrors, errors: errorCounts(w.queries), wrongTop1: w.wrongTop1.length, ...slowest(w.queries) },
    longestQueryGapMs: queryGap.ms,
    longestQueryGapAtMs: queryGap.start,
    longestWriteGapMs: writeGap.ms,
    longestWriteGapAtMs: writeGap.start,
    harnessMaxStallMs: Math.round(lag.max / 1e6),
    consistencyAll: { checks: w.allChecks, misses: w.allMisses.length, errors: errorCounts(w.allErrors) },
    failures,
  };
}

function sleepUntil(w: Workload, atMs: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, atMs - w.now())));
}

/** The slowest answered request: how long it took and when it ended (ms since the load started). */
function slowest(requests: readonly { at: number; ok: boolean; ms?: number }[]): { slowestMs: number; slowestAtMs: number } {
  let best = { slowestMs: 0, slowestAtMs: 0 };
  for (const q of requests) if (q.ok && (q.ms ?? 0) > best.slowestMs) best = { slowestMs: q.ms ?? 0, slowestAtMs: q.at };
  return best;
}
