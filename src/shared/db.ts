// The durable layout: one LMDB environment per data dir, opened by the main thread (catalog)
// and by each shard worker (its shards' points). LMDB is the source of truth; everything in
// memory is rebuilt from it at start.
//
//   catalog  name                         -> CatalogEntry (live collections)
//   drops    collection id                -> CatalogEntry (deleted collections whose data is still being reclaimed)
//   meta     string                       -> number (id counters)
//   points   [collectionId, shard, id]    -> StoredPoint
//   auth     'state'                      -> AuthStateRecord (auth switch, JWT secret, admin, counters)
//   auth_tokens  token id                 -> TokenRecord (access tokens: the key's digest, never the key)
//
// The auth databases are opened by the main thread only (openAuthDb).
//
// Keys are ordered-binary tuples, so one shard's points are one contiguous range in id order
// (integers before UUID strings, as Qdrant orders them).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { CollectionMeta, Payload, PointId } from './types.js';

export interface CatalogEntry extends CollectionMeta {
  /**
   * Written by data dirs from before drops moved to their own database: such an entry is moved
   * there at start. Never written now.
   */
  deleting?: boolean;
}

export interface StoredPoint {
  /** Version: the operation id that last wrote the point. */
  v: number;
  /**
   * The shard's write sequence at this write (absent in records written before it was kept):
   * records above a saved graph's position are the writes to replay into it (graph-snapshots.ts).
   */
  q?: number;
  /**
   * The payload: its JSON text in records written since payloads could live on disk (decoded only
   * where a payload is needed, and JSON keeps a key named `__proto__`, which msgpackr renames), an
   * object in older records. Read it with storedPayload.
   */
  p: Payload | string | null;
  /** Raw little-endian Float32 bytes per vector name. */
  x: Record<string, Uint8Array>;
  /** Sparse vectors per name: Uint32 index bytes and Float32 value bytes. */
  s?: Record<string, { i: Uint8Array; v: Uint8Array }>;
}

export type PointKey = [number, number, PointId];

/** A record's payload as an object (see StoredPoint.p). */
export function storedPayload(p: Payload | string | null | undefined): Payload | null {
  if (p === undefined || p === null) return null;
  return typeof p === 'string' ? (JSON.parse(p) as Payload) : p;
}

/** Bytes of a payload's JSON as a record stores it (0: none). */
export function storedPayloadBytes(p: Payload | string | null | undefined): number {
  if (p === undefined || p === null) return 0;
  return Buffer.byteLength(typeof p === 'string' ? p : JSON.stringify(p));
}

export interface QuiverDb {
  root: RootDatabase;
  catalog: Database<CatalogEntry, string>;
  drops: Database<CatalogEntry, number>;
  meta: Database<number, string>;
  points: Database<StoredPoint, PointKey>;
}

export function openDb(dataDir: string): QuiverDb {
  mkdirSync(dataDir, { recursive: true });
  const root = open({ path: join(dataDir, 'quiver.mdb'), maxDbs: 16 });
  return {
    root,
    catalog: root.openDB<CatalogEntry, string>({ name: 'catalog' }),
    drops: root.openDB<CatalogEntry, number>({ name: 'drops' }),
    meta: root.openDB<number, string>({ name: 'meta' }),
    points: root.openDB<StoredPoint, PointKey>({ name: 'points' }),
  };
}

export interface AdminRecord {
  /** argon2id, PHC string format. */
  password_hash: string;
  /** Raised by every password change; admin JWTs carry it, so a change revokes older ones. */
  password_epoch: number;
}

export interface AuthStateRecord {
  auth_enabled: boolean;
  /** HS256 key of admin JWTs: generated on first start, or SERVICE_JWT_SECRET's bytes. */
  jwt_secret: Uint8Array;
  admin: AdminRecord | null;
  next_token_id: number;
}

export interface TokenRecord {
  id: number;
  name: string;
  description: string;
  /** SHA-256 of the raw key. */
  digest: Uint8Array;
  /** Unix milliseconds. */
  created_at: number;
  /** Unix milliseconds, null when the token does not expire. */
  expires_at: number | null;
  /** Bitmask: read 1, write 2, admin 4. For a scoped token, its rights outside collections. */
  permission: number;
  /** The collections a scoped token may use (src/main/auth/scopes.ts); absent or null: every collection. */
  scope?: ScopeRecord[] | null;
}

/** One entry of a token's scope: a collection name or `*` pattern, read/write bits, a tenant filter (Qdrant's JSON) or null. */
export interface ScopeRecord {
  collection: string;
  permission: number;
  filter: unknown;
}

export interface AuthDb {
  root: RootDatabase;
  state: Database<AuthStateRecord, string>;
  tokens: Database<TokenRecord, number>;
}

/** The auth databases of an open environment (main thread only). */
export function openAuthDb(root: RootDatabase): AuthDb {
  return {
    root,
    state: root.openDB<AuthStateRecord, string>({ name: 'auth' }),
    tokens: root.openDB<TokenRecord, number>({ name: 'auth_tokens' }),
  };
}

/** The key range holding every point of one shard. */
export function shardRange(collection: number, shard: number): { start: PointKey; end: [number, number] } {
  return { start: [collection, shard, 0], end: [collection, shard + 1] };
}

/**
 * A vector's bytes for a record about to be put: a Buffer (msgpack's binary) over the same memory,
 * not a copy, since lmdb-js encodes a value within put(). A copy per point was an 8 KiB pooled
 * slab per 16 points of an ingest, malloc'd and left to the thread's next collection.
 */
export function vectorBytes(v: Float32Array | Uint32Array): Uint8Array {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
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
