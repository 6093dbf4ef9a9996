// An in-process Shard over a real LMDB in a temp dir (no worker thread), for unit tests of the
// shard's modules.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import type { PointBatch, SearchSpec } from '../../../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta, type Distance, type HnswConfig, type Payload, type PointId } from '../../../src/shared/types.js';
import { Shard, type ShardLoad, type ShardOptions } from '../../../src/workers/shard/shard.js';

export interface Fixture {
  dir: string;
  db: QuiverDb;
  indexDir: string;
  meta: CollectionMeta;
  shard: Shard;
  /**
   * A new Shard over the same LMDB and index dir (what a restarted worker opens), loaded;
   * `restored` when every graph was read from disk.
   */
  reopen(meta?: CollectionMeta, options?: ShardOptions): { shard: Shard; restored: boolean; load: ShardLoad };
  close(): Promise<void>;
}

export function metaOf(dim: number, distance: Distance = 'Dot', hnsw: Partial<HnswConfig> = {}): CollectionMeta {
  return {
    id: 7,
    name: 'unit',
    created_at: new Date(0).toISOString(),
    config: {
      vectors: { '': { size: dim, distance } },
      sparse_vectors: {},
      shard_number: 1,
      hnsw_config: { ...DEFAULT_HNSW, ...hnsw },
      on_disk_payload: false,
      payload_schema: {},
    },
  };
}

export function shardFixture(meta: CollectionMeta = metaOf(2), options: ShardOptions = {}): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-shard-'));
  const db = openDb(dir);
  const indexDir = join(dir, 'hnsw');
  const shard = new Shard(meta, 0, db, indexDir, options);
  shard.load();
  return {
    dir,
    db,
    indexDir,
    meta,
    shard,
    reopen(m = meta, o = options) {
      const s = new Shard(m, 0, db, indexDir, o);
      const load = s.load();
      return { shard: s, restored: load.graphsRead > 0 && load.graphsRebuilt === 0, load };
    },
    async close() {
      await db.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A batch of points with the unnamed dense vector, all present. */
export function batch(ids: PointId[], vectors: number[][], payloads: (Payload | null)[] = ids.map(() => null)): PointBatch {
  return { ids, payloads, vectors: { '': { data: Float32Array.from(vectors.flat()), present: null } }, sparse: {} };
}

export function spec(query: number[], over: Partial<SearchSpec> = {}): SearchSpec {
  return {
    vector: '',
    query: Float32Array.from(query),
    sparse: null,
    k: 10,
    ef: 100,
    exact: false,
    quantization: null,
    scoreThreshold: null,
    filter: null,
    exclude: [],
    only: null,
    withPayload: { kind: 'all' },
    withVector: { kind: 'none' },
    ...over,
  };
}
