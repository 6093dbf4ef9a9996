// The durable layout: one LMDB environment per data dir, opened by the main thread (catalog)
// and by each shard worker (its shards' points). LMDB is the source of truth; everything in
// memory is rebuilt from it at start.
//
//   catalog  name                         -> CatalogEntry (collection config, deletion mark)
//   meta     string                       -> number (id counters)
//   points   [collectionId, shard, id]    -> StoredPoint
//
// Keys are ordered-binary tuples, so one shard's points are one contiguous range in id order
// (integers before UUID strings, as Qdrant orders them).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { CollectionMeta, Payload, PointId } from './types.js';

export interface CatalogEntry extends CollectionMeta {
  /** Set when DELETE has marked the collection; its data is being dropped. */
  deleting?: boolean;
}

export interface StoredPoint {
  /** Version: the operation id that last wrote the point. */
  v: number;
  p: Payload | null;
  /** Raw little-endian Float32 bytes per vector name. */
  x: Record<string, Uint8Array>;
  /** Sparse vectors per name: Uint32 index bytes and Float32 value bytes. */
  s?: Record<string, { i: Uint8Array; v: Uint8Array }>;
}

export type PointKey = [number, number, PointId];

export interface QuiverDb {
  root: RootDatabase;
  catalog: Database<CatalogEntry, string>;
  meta: Database<number, string>;
  points: Database<StoredPoint, PointKey>;
}

export function openDb(dataDir: string): QuiverDb {
  mkdirSync(dataDir, { recursive: true });
  const root = open({ path: join(dataDir, 'quiver.mdb'), maxDbs: 8 });
  return {
    root,
    catalog: root.openDB<CatalogEntry, string>({ name: 'catalog' }),
    meta: root.openDB<number, string>({ name: 'meta' }),
    points: root.openDB<StoredPoint, PointKey>({ name: 'points' }),
  };
}

/** The key range holding every point of one shard. */
export function shardRange(collection: number, shard: number): { start: PointKey; end: [number, number] } {
  return { start: [collection, shard, 0], end: [collection, shard + 1] };
}

export function vectorBytes(v: Float32Array | Uint32Array): Uint8Array {
  return Buffer.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
}

export function bytesVector(b: Uint8Array): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

export function bytesU32(b: Uint8Array): Uint32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Uint32Array(copy.buffer);
}
