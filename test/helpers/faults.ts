// The 8 fault scenarios of CLUSTER.md section 10 and their checks. Each runs on a fresh 9-process
// cluster (test/helpers/cluster.ts): a collection with 3 shards, replication_factor 2 and
// write_consistency_factor 1; about 20 s of load (cluster-workload.ts) with one fault at t=5 s,
// then recovery (what was killed is restarted), then the checks. The figures go to JSON (one
// file per scenario under QUIVER_FAULTS_OUT, default test/artifacts/cluster-faults) with the
// list of failed checks; a run that fails also leaves every node's log there.

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { QdrantClient } from '@qdrant/js-client-rest';
import { openDb } from '../../src/shared/db.js';
import { appliedSeqKey, decodeEntry, streamName } from '../../src/shared/log-entry.js';
import { logDigestKey, logDigestSeqKey, nextLogDigest } from '../../src/workers/cluster/applier.js';
import { startCluster, type TestCluster } from './cluster.js';
import type { NatsCluster } from './nats.js';
import { describeError, DIM, errorCounts, longestGap, vectorOf, Workload } from './cluster-workload.js';
import { call } from './server.js';

export const COLLECTION = 'faults';
const SHARDS = 3;
const SEED = 60;
/** The fault's time, and the load's shortest length (CLUSTER.md section 10). */
const FAULT_AT_MS = 5_000;
const LOAD_MS = 20_000;
/** How long a recovery may take to show every point and converge on this busy machine. */
const SETTLE_MS = 90_000;

export interface Scenario {
  n: number;
  name: string;
  /** The query gap bound applies (not to scenario 8, where every process is down by design). */
  gapBound: boolean;
  /** Every query must answer (scenarios 3, 4, 7: no Quiver node is touched). */
  noQueryErrors: boolean;
  /** Injects the fault at t=5 s and returns the recovery, run at its own time; returns what was hit. */
  fault(c: TestCluster, ctx: { stream: string }): Promise<{ hit: string; recover: () => Promise<void>; recoverAtMs: number }>;
}

/** A node that is not the controller (so killing it is scenario 1, not 2). */
async function plainNode(c: TestCluster): Promise<number> {
  const ctl = await settle('a controller', () => c.controller());
  return (ctl + 1) % c.nodes.length;
}

export const SCENARIOS: Scenario[] = [
  {
    n: 1,
    name: 'kill -9 of a Quiver node, restarted later',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await plainNode(c);
      await c.stopNode(i, 'SIGKILL');
      return { hit: `node ${i}`, recoverAtMs: 12_000, recover: () => c.startNode(i) };
    },
  },
  {
    n: 2,
    name: 'kill -9 of the controller',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await settle('a controller', () => c.controller());
      await c.stopNode(i, 'SIGKILL');
      return { hit: `node ${i} (controller)`, recoverAtMs: 12_000, recover: () => c.startNode(i) };
    },
  },
  {
    n: 3,
    name: "kill -9 of a stream leader's nats-server",
    gapBound: true,
    noQueryErrors: true,
    async fault(c, { stream }) {
      const i = await settle(`${stream}'s leader`, () => c.streamLeader(stream));
      await c.nats.kill(i);
      return { hit: `nats-server ${i} (leader of ${stream})`, recoverAtMs: 12_000, recover: () => c.nats.start(i) };
    },
  },
  {
    n: 4,
    name: 'kill -9 of the etcd leader',
    gapBound: true,
    noQueryErrors: true,
    async fault(c) {
      const i = await c.etcdLeader();
      const m = c.etcd.members[i]!;
      await c.etcd.stopMember(m, 'SIGKILL');
      return { hit: `etcd ${m.name} (leader)`, recoverAtMs: 12_000, recover: () => c.etcd.restartMember(m) };
    },
  },
  {
    n: 5,
    name: 'one machine (a node, a nats-server and an etcd member) killed together',
    gapBound: true,
    noQueryErrors: false,
    async fault(c, { stream }) {
      // The machine whose nats-server leads shard 0's stream: its writes need an election too.
      const i = (await c.streamLeader(stream)) ?? 0;
      const m = c.etcd.members[i]!;
      await Promise.all([c.stopNode(i, 'SIGKILL'), c.nats.kill(i), c.etcd.stopMember(m, 'SIGKILL')]);
      return {
        hit: `machine ${i}: node ${i}, nats-server ${i}, etcd ${m.name}`,
        recoverAtMs: 12_000,
        recover: async () => {
          await Promise.all([c.nats.start(i), c.etcd.restartMember(m)]);
          await c.startNode(i);
        },
      };
    },
  },
  {
    n: 6,
    name: 'SIGSTOP of a node past its lease, then SIGCONT',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await plainNode(c);
      c.pauseNode(i);
      // Past the lease: its TTL and 4 s more, so the others have seen it gone.
      return { hit: `node ${i}`, recoverAtMs: FAULT_AT_MS + c.leaseSeconds * 1000 + 4_000, recover: async () => c.resumeNode(i) };
    },
  },
  {
    n: 7,
    name: "SIGSTOP of a stream leader's nats-server for 12 s",
    gapBound: true,
    noQueryErrors: true,
    async fault(c, { stream }) {
      const i = await settle(`${stream}'s leader`, () => c.streamLeader(stream));
      c.nats.pause(i);
      return { hit: `nats-server ${i} (leader of ${stream})`, recoverAtMs: FAULT_AT_MS + 12_000, recover: async () => c.nats.resume(i) };
    },
  },
  {
    n: 8,
    name: 'kill -9 of all nine processes, then a restart',
    gapBound: false,
    noQueryErrors: false,
    async fault(c) {
      await c.killAll();
      return { hit: 'all nine', recoverAtMs: FAULT_AT_MS + 2_000, recover: () => c.restartAll() };
    },
  },
  {
    n: 9,
    // Beyond CLUSTER.md's eight: a frozen etcd member keeps its clients' sockets open (unlike
    // scenario 4's kill), so a node's lease must be kept alive through the other members.
    name: 'SIGSTOP of the etcd leader for 12 s',
    gapBound: true,
    noQueryErrors: true,
    async fault(c) {
      const i = await c.etcdLeader();
      const m = c.etcd.members[i]!;
      m.proc!.kill('SIGSTOP');
      return { hit: `etcd ${m.name} (leader)`, recoverAtMs: FAULT_AT_MS + 12_000, recover: async () => void m.proc!.kill('SIGCONT') };
    },
  },
];

/** Polls probe until it gives a value (not null/undefined), for up to `ms`. */
export async function settle<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== null && v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}${last === null ? '' : `: ${String(last)}`}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

interface Assignment {
  epoch: number;
  replicas: { node: number; state: string }[];
}

async function collectionId(c: TestCluster): Promise<number> {
  const { client, ns } = c.etcdClient();
  try {
    return await settle('the collection in the etcd catalog', async () => {
      const v = (await ns.get(`catalog/${COLLECTION}`).json()) as { id?: unknown } | null;
      return typeof v?.id === 'number' ? v.id : null;
    });
  } finally {
    client.close();
  }
}

async function assignments(c: TestCluster, id: number): Promise<Assignment[]> {
  const { client, ns } = c.etcdClient();
  try {
    const out: Assignment[] = [];
    for (let s = 0; s < SHARDS; s++) out.push(((await ns.get(`assign/${id}/${s}`).json()) as Assignment | null) ?? { epoch: 0, replicas: [] });
    return out;
  } finally {
    client.close();
  }
}

/** Every node's last report of its replicas' applied_seq (etcd status/<node>), by node id. */
async function reports(c: TestCluster): Promise<Map<number, Record<string, { applied_seq: number; dead?: boolean }>>> {
  const { client, ns } = c.etcdClient();
  try {
    const all = await ns.getAll().prefix('status/').strings();
    const out = new Map<number, Record<string, { applied_seq: number; dead?: boolean }>>();
    for (const [k, v] of Object.entries(all)) {
      const shards = (JSON.parse(v) as { shards?: Record<string, { applied_seq: number; dead?: boolean }> }).shards ?? {};
      out.set(Number(k.slice('status/'.length)), shards);
    }
    return out;
  } finally {
    client.close();
  }
}

async function lastSeqs(c: TestCluster, id: number): Promise<number[]> {
  const out: number[] = [];
  for (let s = 0; s < SHARDS; s++) out.push(await c.nats.lastSeq(streamName(id, s)));
  return out;
}

/** Ids found in more than one upsert entry across the collection's streams: a write stored twice. */
export async function streamDuplicates(
  nats: NatsCluster,
  id: number,
  shards = SHARDS,
): Promise<{ entries: number; readRestarts: number; duplicated: number[]; where: Map<number, { seq: number; msgId: string }>[]; digests: (number | null)[] }> {
  const nc = await nats.connect();
  const seen = new Set<number>();
  // Per shard: the entry that upserted each id (to name the entry a replica missed).
  const where: Map<number, { seq: number; msgId: string }>[] = Array.from({ length: shards }, () => new Map());
  // Per shard: the log digest of the whole stream (applier.ts), what a replica at its end must hold.
  const digests: (number | null)[] = Array.from({ length: shards }, () => 0);
  const dup: number[] = [];
  let entries = 0;
  let readRestarts = 0;
  try {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    for (let s = 0; s < shards; s++) {
      const name = streamName(id, s);
      const info = await jsm.streams.info(name);
      // Purged below a snapshot: the digest of the whole log cannot be rebuilt from what is left.
      if (info.state.first_seq > 1) digests[s] = null;
      if (info.state.messages === 0) continue;
      // An ordered consumer placed on a server just resumed from SIGSTOP can stay silent (seen in
      // scenario 7: nothing delivered for 30 s while the stream's leader had moved on), as the
      // apply loop's watchdog knows: a session silent for 5 s is replaced from the next sequence.
      // Bounded overall: a read that never gets through ends the check with a failure.
      let next = 1;
      let reached = false;
      const end = Date.now() + 60_000;
      while (!reached && Date.now() < end) {
        const consumer = await js.consumers.get(name, { opt_start_seq: next });
        const msgs = await consumer.consume();
        let last = Date.now();
        const silent = setInterval(() => {
          if (Date.now() - last > 5000 || Date.now() > end) void msgs.stop();
        }, 500);
        try {
          for await (const m of msgs) {
            last = Date.now();
            if (m.seq < next) continue;
            next = m.seq + 1;
            entries++;
            const d = digests[s];
            if (d !== null && d !== undefined) digests[s] = nextLogDigest(d, m.seq, m.data);
            const w = decodeEntry(m.data);
            if (w.op === 'upsert') {
              for (const pid of w.batch.ids) {
                if (typeof pid !== 'number') continue;
                if (seen.has(pid)) dup.push(pid);
                seen.add(pid);
                where[s]!.set(pid, { seq: m.seq, msgId: m.headers?.get('Nats-Msg-Id') ?? '' });
              }
            }
            if (m.seq >= info.state.last_seq) {
              reached = true;
              break;
            }
          }
        } finally {
          clearInterval(silent);
          msgs.stop();
        }
        if (!reached) readRestarts++;
      }
      if (!reached) throw new Error(`reading ${name} to its last sequence ${info.state.last_seq} got no further than ${next - 1} in 60 s (${readRestarts} silent sessions replaced)`);
    }
  } finally {
    await nc.close();
  }
  return { entries, readRestarts, duplicated: dup, where, digests };
}

interface ReplicaOnDisk {
  node: number;
  state: string;
  appliedSeq: number;
  /** The digest of the log entries it applied (applier.ts); null: unknown (a snapshot restored). */
  logDigest: number | null;
  count: number;
  hash: string;
}

/** applied_seq, point count and an order-free hash of (id, version) of one shard on one node's disk (node stopped). */
export function onDisk(
  dataDir: string,
  id: number,
  shard: number,
): { appliedSeq: number; logDigest: number | null; count: number; hash: string; ids: Set<number>; versions: Map<number, number> } {
  const db = openDb(dataDir);
  try {
    const appliedSeq = db.meta.get(appliedSeqKey(id, shard)) ?? 0;
    const digest = db.meta.get(logDigestKey(id, shard));
    const logDigest = appliedSeq === 0 ? 0 : digest !== undefined && db.meta.get(logDigestSeqKey(id, shard)) === appliedSeq ? digest : null;
    const pairs: string[] = [];
    const ids = new Set<number>();
    const versions = new Map<number, number>();
    for (const { key, value } of db.points.getRange({ start: [id, shard], end: [id, shard + 1] })) {
      pairs.push(`${String(key[2])}:${value.v}`);
      if (typeof key[2] === 'number') {
        ids.add(key[2]);
        versions.set(key[2], value.v);
      }
    }
    pairs.sort();
    return { appliedSeq, logDigest, count: pairs.length, hash: createHash('sha256').update(pairs.join(',')).digest('hex').slice(0, 16), ids, versions };
  } finally {
    void db.root.close();
  }
}

/** Up to this many ids per list of a replica difference. */
const DIFF_SHOWN = 10;

export interface ReplicaDiff {
  /** By node: ids the others hold and it lacks (with the entry that wrote them in the stream, and what this node holds at that version instead). */
  missing: Record<number, { id: number; version: number; streamSeq: number | null; msgId: string | null; heldAtVersion: number[] }[]>;
  /** By node: ids it holds that no other replica does. */
  extra: Record<number, { id: number; version: number; streamSeq: number | null }[]>;
  /** By node: ids held in a version other than the others'. */
  otherVersion: Record<number, { id: number; mine: number; theirs: number }[]>;
}

/**
 * How Active replicas of one shard differ, from each one's (id -> version) on disk and where the
 * stream holds each id's upsert: names the entries a replica missed and what it applied at their
 * sequences, to tell a skipped entry from a log that served it other content.
 */
export function replicaDiff(versions: Map<number, Map<number, number>>, where: Map<number, { seq: number; msgId: string }>): ReplicaDiff {
  const out: ReplicaDiff = { missing: {}, extra: {}, otherVersion: {} };
  for (const [node, mine] of versions) {
    const byVersion = new Map<number, number[]>();
    for (const [pid, v] of mine) byVersion.set(v, [...(byVersion.get(v) ?? []), pid]);
    const missing: ReplicaDiff['missing'][number] = [];
    const extra: ReplicaDiff['extra'][number] = [];
    const other: ReplicaDiff['otherVersion'][number] = [];
    for (const [peer, theirs] of versions) {
      if (peer === node) continue;
      for (const [pid, v] of theirs) {
        const m = mine.get(pid);
        if (m === undefined) {
          if (!missing.some((x) => x.id === pid)) {
            const w = where.get(pid);
            missing.push({ id: pid, version: v, streamSeq: w?.seq ?? null, msgId: w?.msgId ?? null, heldAtVersion: byVersion.get(v) ?? [] });
          }
        } else if (m !== v && !other.some((x) => x.id === pid)) other.push({ id: pid, mine: m, theirs: v });
      }
    }
    for (const [pid, v] of mine) {
      if ([...versions].every(([peer, theirs]) => peer === node || !theirs.has(pid))) extra.push({ id: pid, version: v, streamSeq: where.get(pid)?.seq ?? null });
    }
    if (missing.length > 0) out.missing[node] = missing.slice(0, DIFF_SHOWN);
    if (extra.length > 0) out.extra[node] = extra.slice(0, DIFF_SHOWN);
    if (other.length > 0) out.otherVersion[node] = other.slice(0, DIFF_SHOWN);
  }
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
