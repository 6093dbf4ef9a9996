// One shard in process, no server: the anonymous memory (RssAnon, /proc/self/status, so LMDB's
// mapped pages are left out) that ingesting N x DIM Cosine vectors adds, and the cost of the
// reads that need the vectors back (with_vector, exact scan, HNSW search with rescoring), and
// of hnswlib's getPoint against a Float32Array row and against a row read from the point's LMDB
// record (what exact scoring reads now). What issue 14's "one copy" decision rests on.
// `npm run build && node --expose-gc dist/bench/shard-memory.js`; BENCH_MEM_N (100,000),
// BENCH_MEM_DIM (128), BENCH_MEM_PAYLOAD (0: none; 1: a small payload per point).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type QuiverDb } from '../src/shared/db.js';
import type { SearchSpec } from '../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../src/shared/types.js';
import { hnswlib } from '../src/workers/index/hnswlib-loader.js';
import { metricFor } from '../src/workers/index/distance.js';
import { IdTracker } from '../src/workers/shard/id-tracker.js';
import { Shard } from '../src/workers/shard/shard.js';
import { VectorStore } from '../src/workers/storage/vector-store.js';
import { envInt, rng } from './common.js';

const N = envInt('BENCH_MEM_N', 100_000);
const DIM = envInt('BENCH_MEM_DIM', 128);
const WITH_PAYLOAD = envInt('BENCH_MEM_PAYLOAD', 0, 0) === 1;
const BATCH = 1000;
const MiB = 1024 * 1024;

function rssAnon(): number {
  const m = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) * 1024;
}

function settle(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return rssAnon();
}

function unit(r: () => number, n: number): Float32Array {
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let d = 0; d < DIM; d++) {
      const v = r() * 2 - 1;
      out[i * DIM + d] = v;
      s += v * v;
    }
    const inv = 1 / Math.sqrt(s);
    for (let d = 0; d < DIM; d++) out[i * DIM + d]! *= inv;
  }
  return out;
}

function spec(query: Float32Array, over: Partial<SearchSpec>): SearchSpec {
  return {
    vector: '',
    query,
    sparse: null,
    k: 10,
    ef: 100,
    exact: false,
    quantization: null,
    scoreThreshold: null,
    filter: null,
    exclude: [],
    only: null,
    withPayload: { kind: 'none' },
    withVector: { kind: 'none' },
    ...over,
  };
}

/** Mean microseconds per call of `fn` over `n` calls. */
function timeUs(n: number, fn: (i: number) => void): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return ((performance.now() - t0) * 1000) / n;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-shard-mem-'));
  const db = openDb(dir);
  const meta: CollectionMeta = {
    id: 1,
    name: 'mem',
    created_at: new Date(0).toISOString(),
    config: {
      vectors: { '': { size: DIM, distance: 'Cosine' } },
      sparse_vectors: {},
      shard_number: 1,
      hnsw_config: { ...DEFAULT_HNSW },
      on_disk_payload: false,
      payload_schema: {},
    },
  };
  // Measured first, while the heap holds nothing else.
  const ids = idStructures();
  const r = rng(42);
  const data = unit(r, N);
  hnswlib();
  const before = settle();
  const shard = new Shard(meta, 0, db, join(dir, 'hnsw'));
  shard.load();
  const t0 = performance.now();
  for (let start = 0, op = 1; start < N; start += BATCH, op++) {
    const n = Math.min(BATCH, N - start);
    const ids = Array.from({ length: n }, (_, i) => start + i);
    const payloads = ids.map((i) => (WITH_PAYLOAD ? { i, tag: `t${i % 100}` } : null));
    // A copy, as a request's batch is: the shard may keep a view of it.
    const vectors = data.slice(start * DIM, (start + n) * DIM);
    await shard.upsert({ ids, payloads, vectors: { '': { data: vectors, present: null } }, sparse: {} }, op, false);
    if (start % 20_000 === 0) process.stderr.write(`ingest ${start}/${N}\n`);
  }
  const ingestS = (performance.now() - t0) / 1000;
  await db.root.flushed;
  const after = settle();
  const raw = N * DIM * 4;
  const growth = after - before;

  const queries = unit(rng(7), 50);
  const q = (i: number): Float32Array => queries.subarray((i % 50) * DIM, (i % 50 + 1) * DIM);
  const all = { kind: 'all' } as const;
  const figures = {
    n: N,
    dim: DIM,
    payload: WITH_PAYLOAD,
    ingest_s: +ingestS.toFixed(1),
    raw_mib: +(raw / MiB).toFixed(1),
    rss_anon_growth_mib: +(growth / MiB).toFixed(1),
    rss_anon_growth_x_raw: +(growth / raw).toFixed(2),
    hnsw_search_us: +timeUs(500, (i) => shard.search(spec(q(i), {}))).toFixed(1),
    hnsw_search_with_vector_us: +timeUs(500, (i) => shard.search(spec(q(i), { withVector: all }))).toFixed(1),
    exact_search_us: +timeUs(10, (i) => shard.search(spec(q(i), { exact: true }))).toFixed(0),
    retrieve_100_with_vector_us: +timeUs(200, (i) => shard.retrieve(Array.from({ length: 100 }, (_, j) => (i * 100 + j) % N), { kind: 'none' }, all)).toFixed(1),
    // 1,000 candidates scored exactly (a filtered search below full_scan_threshold, or re-ranking
    // by ids): through the shard, and the same 1,000 rows scored from a Float32Array store (the
    // pre-issue-14 path) for comparison.
    exact_1000_candidates_us: +timeUs(10, (i) => shard.search(spec(q(i), { exact: true, only: Array.from({ length: 1000 }, (_, j) => (j * 97 + i) % N) }))).toFixed(0),
    store_1000_rows_us: +storeScan(data, q(0)).toFixed(0),
    ...rowReads(),
    lmdb_row_us: +lmdbRows(db, meta.id).toFixed(2),
    ...ids,
    info: shard.info(0),
  };
  console.log(JSON.stringify(figures, null, 2));
  shard.dispose();
  await db.root.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Scoring 1,000 rows of a Float32Array store with the dot product, as exact search did before issue 14. */
function storeScan(data: Float32Array, query: Float32Array): number {
  const store = new VectorStore(DIM);
  for (let i = 0; i < 1000; i++) store.set(i, data, ((i * 97) % N) * DIM);
  const dot = metricFor('Dot').score;
  let sink = 0;
  const us = timeUs(10, () => {
    for (let i = 0; i < 1000; i++) sink += store.score(i, query, dot);
  });
  if (Number.isNaN(sink)) console.log('');
  return us;
}

/** Mean microseconds to read 1,000 random points' records from LMDB and view their vector, as Shard#readRow does. */
function lmdbRows(db: QuiverDb, collection: number): number {
  const r = rng(11);
  const ids = Array.from({ length: 1000 }, () => Math.floor(r() * N));
  let sink = 0;
  const us = timeUs(ids.length, (i) => {
    const b = db.points.get([collection, 0, ids[i]!])!.x['']!;
    sink += new Float32Array(b.buffer, b.byteOffset, DIM)[0]!;
  });
  if (Number.isNaN(sink)) console.log('');
  return us;
}

/** Heap bytes per id of the id structures before issue 14 (a Map and two arrays) and of the IdTracker, N integer ids. */
function idStructures(): Record<string, number> {
  const heap = (): number => {
    settle();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  const h0 = heap();
  const slots = new Map<number, number>();
  const ids: number[] = [];
  const versions: number[] = [];
  for (let i = 0; i < N; i++) {
    slots.set(i * 7919, i);
    ids[i] = i * 7919;
    versions[i] = i + 1;
  }
  const h1 = heap();
  const t = new IdTracker();
  for (let i = 0; i < N; i++) t.setVersion(t.acquire(i * 7919).slot, i + 1);
  const h2 = heap();
  if (slots.size + ids.length + versions.length + t.live === 0) console.log('');
  return { ids_map_bytes_per_id: +((h1 - h0) / N).toFixed(1), ids_tracker_bytes_per_id: +((h2 - h1) / N).toFixed(1) };
}

/** hnswlib's getPoint (a number[] made per call) against reading a Float32Array row, 20k rows. */
function rowReads(): Record<string, number> {
  const n = 20_000;
  const rows = unit(rng(3), n);
  const ix = new (hnswlib().HierarchicalNSW)('ip', DIM);
  ix.initIndex(n, 16, 100, 100);
  for (let i = 0; i < n; i++) ix.addPoint(Array.from(rows.subarray(i * DIM, (i + 1) * DIM)), i);
  let sink = 0;
  const getPointUs = timeUs(n, (i) => {
    sink += ix.getPoint(i)[0]!;
  });
  const rowUs = timeUs(n, (i) => {
    sink += rows.subarray(i * DIM, (i + 1) * DIM)[0]!;
  });
  if (Number.isNaN(sink)) console.log('');
  return { getpoint_row_us: +getPointUs.toFixed(2), f32_row_us: +rowUs.toFixed(3) };
}

void main();
