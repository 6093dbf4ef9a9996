// What both graph snapshot test files build on: a shard of 50 points (2 deleted), its searches
// (graph and exact), and its binary manifest read and written in place.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeManifest, encodeManifest, type GraphManifest } from '../../../src/workers/shard/graph-snapshots.js';
import type { Shard } from '../../../src/workers/shard/shard.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';

export const vec = (i: number): number[] => [Math.sin(i), Math.cos(i), 1 + (i % 5) / 10];

export async function filled(options: Parameters<typeof shardFixture>[1] = {}): Promise<Fixture> {
  const f = shardFixture(metaOf(3, 'Cosine'), options);
  const ids = Array.from({ length: 50 }, (_, i) => i);
  await f.shard.upsert(batch(ids, ids.map(vec)), 1, true);
  await f.shard.delete([3, 4], null, 2, true);
  return f;
}

export const search = (s: Shard, q = [1, 0, 1]): (number | string)[] => s.search(spec(q, { k: 5, withPayload: { kind: 'none' } })).map((p) => p.id);
export const exact = (s: Shard, q = [1, 0, 1]): (number | string)[] => s.search(spec(q, { k: 5, exact: true, withPayload: { kind: 'none' } })).map((p) => p.id);
export const MANIFEST = '7-0-manifest.bin';
export const manifest = (f: Fixture): GraphManifest => decodeManifest(readFileSync(join(f.indexDir, MANIFEST)));
export const writeManifest = (f: Fixture, m: GraphManifest): void => writeFileSync(join(f.indexDir, MANIFEST), encodeManifest(m));
