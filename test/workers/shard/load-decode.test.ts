// A shard's load decodes its LMDB records without copying their binaries (views into LMDB's read
// buffer, each valid until the next record is read): every row it stages must be its own copy.
// Checked with many records, so a view kept by mistake would show another point's bytes: a vector
// without a graph (Manhattan: rows staged in a store), a sparse vector and a payload, a shard
// loaded with and without a saved graph. That reads after the load copy again is what the
// deferred replay's tests (graph-snapshots.test.ts) show: its rows are kept from such reads.

import { afterEach, describe, expect, it } from 'vitest';
import type { PointBatch } from '../../../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';
import { Shard } from '../../../src/workers/shard/shard.js';
import { shardFixture, spec, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

const N = 600;
const DIM = 6;
const dense = (i: number, salt: number): number[] => Array.from({ length: DIM }, (_, d) => Math.round(Math.sin(i * 3.7 + d + salt) * 1000) / 1000);
const sparseOf = (i: number): { indices: number[]; values: number[] } => ({ indices: [i % 7, 10 + (i % 13), 100 + i], values: [i / 10, 1, -i] });

const meta: CollectionMeta = {
  id: 7,
  name: 'decode',
  created_at: new Date(0).toISOString(),
  config: {
    vectors: { g: { size: DIM, distance: 'Euclid' }, m: { size: DIM, distance: 'Manhattan' } },
    sparse_vectors: { s: { modifier: 'none' } },
    shard_number: 1,
    hnsw_config: { ...DEFAULT_HNSW },
    on_disk_payload: false,
    payload_schema: {},
  },
};

function batchOf(ids: number[]): PointBatch {
  const offsets = new Int32Array(ids.length + 1);
  const indices: number[] = [];
  const values: number[] = [];
  ids.forEach((id, n) => {
    const s = sparseOf(id);
    indices.push(...s.indices);
    values.push(...s.values);
    offsets[n + 1] = indices.length;
  });
  return {
    ids,
    payloads: ids.map((id) => ({ id, tag: `t${id % 5}` })),
    vectors: {
      g: { data: Float32Array.from(ids.flatMap((id) => dense(id, 0))), present: null },
      m: { data: Float32Array.from(ids.flatMap((id) => dense(id, 1))), present: null },
    },
    sparse: { s: { offsets, indices: Uint32Array.from(indices), values: Float32Array.from(values), present: new Uint8Array(ids.length).fill(1) } },
  };
}

/** As float32 (reads answer the shortest decimal of each float32). */
const f32 = (xs: number[]): number[] => xs.map((x) => Math.fround(x));

function expectIntact(shard: Shard): void {
  const ids = Array.from({ length: N }, (_, i) => i);
  // One read per point, each checked only after all of them: a view into a reused buffer would
  // hold a later point's bytes by then.
  const got = ids.map((id) => shard.retrieve([id], { kind: 'all' }, { kind: 'all' })[0]!);
  for (const id of ids) {
    const p = got[id]!;
    expect(p.payload).toEqual({ id, tag: `t${id % 5}` });
    const v = p.vector as Record<string, unknown>;
    expect(f32(Array.from(v.g as ArrayLike<number>))).toEqual(f32(dense(id, 0)));
    expect(f32(Array.from(v.m as ArrayLike<number>))).toEqual(f32(dense(id, 1)));
    const s = v.s as { indices: ArrayLike<number>; values: ArrayLike<number> };
    expect({ indices: Array.from(s.indices), values: f32(Array.from(s.values)) }).toEqual({ indices: sparseOf(id).indices, values: f32(sparseOf(id).values) });
  }
  // The store staged by the load scores exactly: each point is its own nearest by Manhattan.
  for (const id of [0, 299, 599]) expect(shard.search(spec(dense(id, 1), { vector: 'm', k: 1, withPayload: { kind: 'none' } }))[0]).toMatchObject({ id, score: 0 });
}

describe('a load reads records without copying their binaries', () => {
  it('keeps none of them: rows, sparse vectors and payloads intact, with and without a saved graph', async () => {
    fx = shardFixture(meta);
    for (let i = 0; i < N; i += 100) await fx.shard.upsert(batchOf(Array.from({ length: 100 }, (_, j) => i + j)), 1 + i, true);
    const unsaved = new Shard(meta, 0, fx.db, fx.indexDir);
    expect(unsaved.load()).toMatchObject({ points: N, graphsRead: 0 });
    expectIntact(unsaved);

    await fx.shard.saveIndexes();
    const saved = new Shard(meta, 0, fx.db, fx.indexDir);
    expect(await saved.loadAsync()).toMatchObject({ points: N, graphsRead: 1, replayed: 0 });
    expectIntact(saved);
  });
});
