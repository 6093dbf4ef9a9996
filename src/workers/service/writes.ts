// The plumbing every write shares: the update result Qdrant clients expect, one write per shard
// with partial failure reported (docs/interface.md section 7.3 rule 1), and the all-ids-exist check that runs before
// any shard changes anything.

import { QuiverError } from '../../shared/errors.js';
import { pointNotFound } from '../../shared/ids.js';
import type { CollectionMeta, PointId, UpdateResult } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { retrieveByIds } from './retrieve.js';

export type { UpdateResult };

export function updateResult(opId: number, wait: boolean): UpdateResult {
  return { operation_id: opId, status: wait ? 'completed' : 'acknowledged' };
}

/** Runs one write per shard; a failure after some shards applied says so (docs/interface.md section 7.3 rule 1). */
export async function perShard(parts: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed.length === 0) return;
  const first = failed[0]!.reason as unknown;
  if (first instanceof QuiverError && failed.length === settled.length) throw first;
  const msg = first instanceof Error ? first.message : String(first);
  if (first instanceof QuiverError && first.code !== 'Internal' && first.code !== 'ShardUnavailable') {
    throw new QuiverError(first.code, `${msg} (${settled.length - failed.length} of ${settled.length} shards applied their part)`);
  }
  throw QuiverError.internal(`Update failed: ${msg} (${settled.length - failed.length} of ${settled.length} shards applied their part)`);
}

/** Every id must exist before any shard changes anything: a 404 leaves every point as it was. */
export async function requireExisting(engine: PointEngine, meta: CollectionMeta, ids: readonly PointId[]): Promise<void> {
  const unique = [...new Set(ids)];
  const found = new Set((await retrieveByIds(engine, meta, unique, { kind: 'none' }, { kind: 'none' })).map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw pointNotFound(missing);
}
