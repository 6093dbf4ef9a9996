// Which points a write touches: the ids it names or the filter it selects them by, exactly one,
// and the fan-out that follows from it (named ids go to the shards they live in, a filter goes to
// every shard). Delete points, the payload updates and delete vectors share both.

import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import type { ClearPayload } from '../../shared/schemas/payload.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { parseFilter } from './filter-parse.js';
import { parseIds, refuseUnsupported } from './request-forms.js';

/** The points of a write: `ids` (then `filter` is null) or `filter` (then `ids` is null). */
export interface PointSelection {
  ids: PointId[] | null;
  filter: Filter | null;
}

/** The `points` / `filter` / `shard_key` fields a selecting request has. */
export type SelectionFields = Pick<ClearPayload, 'points' | 'filter' | 'shard_key'>;

/** The points a request names or the filter it selects them by; exactly one. */
export function pointSelection(req: SelectionFields): PointSelection {
  refuseUnsupported(req, ['shard_key']);
  const hasPoints = req.points !== undefined && req.points !== null;
  const filter = parseFilter(req.filter);
  if (hasPoints === (filter !== null)) throw QuiverError.badInput('Either `points` or `filter` is required, not both');
  return { ids: hasPoints ? parseIds(req.points!) : null, filter };
}

/**
 * One call per shard the selection reaches: each shard that holds some of the ids gets its own
 * ids (and a null filter), or every shard gets the filter (and null ids).
 */
export function perSelectedShard<T>(
  engine: Pick<PointEngine, 'partition'>,
  meta: CollectionMeta,
  sel: PointSelection,
  call: (shard: number, target: PointSelection) => Promise<T>,
): Promise<T>[] {
  const { ids, filter } = sel;
  if (ids !== null) {
    return [...engine.partition(meta, ids)].map(([shard, idx]) => call(shard, { ids: idx.map((i) => ids[i]!), filter: null }));
  }
  return Array.from({ length: meta.config.shard_number }, (_, shard) => call(shard, { ids: null, filter }));
}
