// Hot-path micro benchmarks (docs/decisions.md section 6), in process on one real Shard (real LMDB in a temp dir,
// real hnswlib): exact and HNSW search with and without a filter, and an upsert batch. Run with
// `npm run bench:unit`; state before/after figures from it in any change to these paths.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { openDb } from '../../src/shared/db.js';
import type { SearchSpec } from '../../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta, type Distance } from '../../src/shared/types.js';
import { Shard } from '../../src/workers/shard/shard.js';
import { rng } from '../helpers/random.js';

const N = Number(process.env.BENCH_UNIT_N ?? 20_000);
const DIM = 128;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function loadedShard(distance: Distance): Promise<Shard> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-bench-'));
  dirs.push(dir);
  const meta: CollectionMeta = {
    id: 1,
    name: 'bench',
    created_at: new Date(0).toISOString(),
    config: { vectors: { '': { size: DIM, distance } }, sparse_vectors: {}, shard_number: 1, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
  };
  const shard = new Shard(meta, 0, openDb(dir), join(dir, 'hnsw'));
  shard.load();
  shard.createIndex('tag', { type: 'keyword' });
  const random = rng(1);
  for (let from = 0; from < N; from += 1000) {
    const n = Math.min(1000, N - from);
    const data = new Float32Array(n * DIM).map(() => random() * 2 - 1);
    const ids = Array.from({ length: n }, (_, i) => from + i);
    await shard.upsert({ ids, payloads: ids.map((id) => ({ tag: `t${id % 10}`, half: id % 2 })), vectors: { '': { data, present: null } }, sparse: {} }, from + 1, false);
  }
  return shard;
}

const query = Float32Array.from({ length: DIM }, (_, i) => Math.sin(i));
const spec = (over: Partial<SearchSpec>): SearchSpec => ({
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
});

describe(`search, ${N} points x ${DIM} (Dot)`, async () => {
  const shard = await loadedShard('Dot');
  bench('exact, no filter', () => void shard.search(spec({ exact: true })));
  bench('exact-planned, 10% keyword filter (indexed)', () => void shard.search(spec({ filter: { must: [{ key: 'tag', match: { value: 't3' } }] } })));
  bench('exact, 50% unindexed filter', () => void shard.search(spec({ exact: true, filter: { must: [{ key: 'half', match: { value: 1 } }] } })));
  bench('exact asked, 10% keyword filter (indexed)', () => void shard.search(spec({ exact: true, filter: { must: [{ key: 'tag', match: { value: 't3' } }] } })));
  bench('hnsw, no filter', () => void shard.search(spec({})));
  bench('hnsw, 50% unindexed filter', () => void shard.search(spec({ filter: { must: [{ key: 'half', match: { value: 1 } }] } })));
});

describe(`search, ${N} points x ${DIM} (Manhattan: always exact)`, async () => {
  const shard = await loadedShard('Manhattan');
  bench('exact, no filter', () => void shard.search(spec({})));
  bench('exact, 10% keyword filter (indexed)', () => void shard.search(spec({ filter: { must: [{ key: 'tag', match: { value: 't3' } }] } })));
});

describe('upsert', async () => {
  const shard = await loadedShard('Dot');
  const random = rng(2);
  const data = new Float32Array(100 * DIM).map(() => random() * 2 - 1);
  let next = N;
  bench('100 points, wait=false', async () => {
    const ids = Array.from({ length: 100 }, () => next++);
    await shard.upsert({ ids, payloads: ids.map((id) => ({ tag: `t${id % 10}` })), vectors: { '': { data, present: null } }, sparse: {} }, next, false);
  });
});
