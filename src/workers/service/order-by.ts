// Ordering by an indexed payload value (scroll's and the Query API's `order_by`): the request
// checked against the collection's range indexes, and the shards' ordered pages merged.

import { parseDatetime } from '../../shared/datetime.js';
import { QuiverError } from '../../shared/errors.js';
import { type OrderBySpec, type OrderedRecord } from '../../shared/protocol.js';
import { compareOrdered, missingRangeIndex } from '../../shared/shard-results.js';
import type { ScrollPoints } from '../../shared/schemas/points.js';
import type { CollectionMeta } from '../../shared/types.js';

const RANGE_TYPES: ReadonlySet<string> = new Set(['integer', 'float', 'datetime']);

/**
 * The order_by of a scroll or query, checked against the collection's indexes. `start_from` is a
 * number or an RFC 3339 datetime; a datetime counts in epoch microseconds, the unit of a datetime
 * key's order_value (as Qdrant), so either form may start a datetime key.
 */
export function orderBySpec(meta: CollectionMeta, o: NonNullable<ScrollPoints['order_by']>): OrderBySpec {
  const key = typeof o === 'string' ? o : o.key;
  const schema = Object.hasOwn(meta.config.payload_schema, key) ? meta.config.payload_schema[key] : undefined;
  // An integer index made with `range: false` serves only exact matches, as in Qdrant.
  if (schema === undefined || !RANGE_TYPES.has(schema.type) || schema.params?.range === false) throw QuiverError.badInput(missingRangeIndex(key));
  if (typeof o === 'string') return { key, direction: 'asc', startFrom: null };
  let startFrom: number | null = null;
  if (typeof o.start_from === 'number') startFrom = o.start_from;
  else if (typeof o.start_from === 'string') {
    const ms = parseDatetime(o.start_from);
    if (Number.isNaN(ms)) throw QuiverError.badInput(`order_by.start_from: '${o.start_from}' is neither a number nor an RFC 3339 datetime`);
    startFrom = ms * 1000;
  }
  return { key, direction: o.direction ?? 'asc', startFrom };
}

/** Each shard's first `limit` entries, merged in Qdrant's order: the first `limit` of the collection. */
export function mergeOrdered(parts: OrderedRecord[][], direction: 'asc' | 'desc', limit: number): OrderedRecord[] {
  return parts.flat().sort(compareOrdered(direction)).slice(0, limit);
}
