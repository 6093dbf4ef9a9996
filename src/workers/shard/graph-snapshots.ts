// The HNSW graphs of one shard on disk: written at a clean shutdown, read back at the next start
// so that the graphs need not be rebuilt. This module alone knows the file layout, in the
// worker's index directory:
//
//   <collection>-<shard>-<n>.hnsw   one hnswlib graph per dense vector that has one
//   <collection>-<shard>.json       the manifest: the slot of every id, and per vector its graph
//                                   file, labels and build parameters
//   meta `hnsw:<collection>:<shard>` (LMDB) a token equal to the manifest's
//
// Invariant: the marker is written last and removed (take) before the shard can change, so a
// manifest is trusted only when the previous run ended cleanly right after writing it; after a
// crash, or with a damaged or missing file, the graphs are rebuilt from the vectors.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuiverDb } from '../../shared/db.js';
import type { PointId } from '../../shared/types.js';
import { HnswIndex } from '../index/hnsw.js';
import type { IdTrackerRead } from './id-tracker.js';
import type { VectorSpace } from './vector-space.js';

/** What a clean shutdown writes beside the HNSW graph files, to restore the exact slot layout. */
export interface GraphManifest {
  token: number;
  count: number;
  slots: [PointId, number][];
  /** m and efConstruct: the parameters the graph was built with (absent in manifests before they were kept). */
  spaces: Record<string, { file: string; labels: number[]; m?: number; efConstruct?: number }>;
}

function marker(collection: number, shard: number): string {
  return `hnsw:${collection}:${shard}`;
}

export class GraphSnapshots {
  readonly #db: QuiverDb;
  readonly #dir: string;
  readonly #collection: number;
  readonly #shard: number;

  constructor(db: QuiverDb, dir: string, collection: number, shard: number) {
    this.#db = db;
    this.#dir = dir;
    this.#collection = collection;
    this.#shard = shard;
  }

  get #base(): string {
    return join(this.#dir, `${this.#collection}-${this.#shard}`);
  }

  /**
   * Writes each serving graph and the slot layout, then the marker that says they match the
   * data. Called at a clean shutdown only.
   */
  async save(spaces: Iterable<VectorSpace>, ids: IdTrackerRead): Promise<void> {
    mkdirSync(this.#dir, { recursive: true });
    const token = Math.floor(Math.random() * 2 ** 31);
    const saved: GraphManifest['spaces'] = {};
    let n = 0;
    for (const space of spaces) {
      if (space.index === null) continue;
      const file = `${this.#base}-${n++}.hnsw`;
      space.index.save(file);
      saved[space.name] = { file, labels: space.index.labels, m: space.index.params.m, efConstruct: space.index.params.efConstruct };
    }
    const slots: [PointId, number][] = [];
    for (let slot = 0; slot < ids.slotLimit; slot++) {
      const id = ids.idOf(slot);
      if (id !== undefined) slots.push([id, slot]);
    }
    const manifest: GraphManifest = { token, count: ids.live, slots, spaces: saved };
    writeFileSync(`${this.#base}.json`, JSON.stringify(manifest));
    await this.#db.meta.put(marker(this.#collection, this.#shard), token);
  }

  /**
   * The manifest a clean shutdown left, or null (none, or it does not match its marker, or a
   * graph file is missing). The marker is removed either way: from now on the data may change.
   */
  take(): GraphManifest | null {
    const key = marker(this.#collection, this.#shard);
    const token = this.#db.meta.get(key);
    if (token === undefined) return null;
    void this.#db.meta.remove(key);
    try {
      const m = JSON.parse(readFileSync(`${this.#base}.json`, 'utf8')) as GraphManifest;
      return m.token === token && Object.values(m.spaces).every((sp) => existsSync(sp.file)) ? m : null;
    } catch {
      return null;
    }
  }

  /**
   * The manifest, as take() would answer, but leaving the marker: for a read copy in another
   * worker (replication_factor), which must not decide for the primary. It may find the marker
   * already taken by the primary's load and then rebuilds its graphs: slower, never wrong.
   */
  peek(): GraphManifest | null {
    const token = this.#db.meta.get(marker(this.#collection, this.#shard));
    if (token === undefined) return null;
    try {
      const m = JSON.parse(readFileSync(`${this.#base}.json`, 'utf8')) as GraphManifest;
      return m.token === token && Object.values(m.spaces).every((sp) => existsSync(sp.file)) ? m : null;
    } catch {
      return null;
    }
  }

  /** Deletes the shard's graph files and marker: the shard is dropped for good. */
  async drop(): Promise<void> {
    const prefix = `${this.#collection}-${this.#shard}`;
    let files: string[] = [];
    try {
      files = readdirSync(this.#dir);
    } catch {
      // No directory: no graph was ever saved.
    }
    for (const f of files) {
      if (f === `${prefix}.json` || f.startsWith(`${prefix}-`)) rmSync(join(this.#dir, f), { force: true });
    }
    await this.#db.meta.remove(marker(this.#collection, this.#shard));
  }
}

/**
 * Gives every space that should have a graph one: read from the manifest's file when it still
 * fits (same point count, same build parameters), else rebuilt from the stored vectors. True
 * when every graph was read from disk.
 */
export function restoreGraphs(manifest: GraphManifest, spaces: Iterable<VectorSpace>, ids: IdTrackerRead): boolean {
  let restored = manifest.count === ids.live;
  for (const space of spaces) {
    const params = space.graphParams();
    if (params === null) continue;
    const saved = manifest.spaces[space.name];
    const live = new Set(space.presentSlots(ids.slotLimit));
    // A graph built with other parameters than the configuration's (changed since) is rebuilt.
    const sameParams = saved !== undefined && (saved.m ?? params.m) === params.m && (saved.efConstruct ?? params.efConstruct) === params.efConstruct;
    try {
      if (!restored || !sameParams) throw new Error('stale');
      space.index = new HnswIndex(params, { file: saved.file, labels: saved.labels, live });
    } catch {
      restored = false;
      space.index = new HnswIndex(params);
      for (const slot of live) space.index.add(slot, space.store.get(slot));
    }
  }
  return restored;
}
