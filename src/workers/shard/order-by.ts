// order_by over a range index: the entries of an indexed numeric or datetime key in value order,
// as Qdrant gives them. A point with several values appears once per distinct value; ties are
// ordered by point id (see compareOrdered in protocol.ts). A datetime index holds milliseconds,
// while its order_value (and start_from) is in microseconds, as Qdrant's.

import type { OrderBySpec } from '../../shared/protocol.js';
import { comparePointIds } from '../../shared/ids.js';
import type { PointId } from '../../shared/types.js';
import type { RangeIndex } from '../index/payload-index.js';

/** Up to `limit` (slot, order_value) entries from `order.startFrom` (inclusive) on, accepted by `accept`. */
export function orderedEntries(
  index: RangeIndex,
  order: OrderBySpec,
  limit: number,
  accept: ((slot: number) => boolean) | null,
  idOf: (slot: number) => PointId,
): { slot: number; value: number }[] {
  const scale = index.schema.type === 'datetime' ? 1000 : 1;
  const { values, slots } = index.column();
  const hits: { slot: number; value: number }[] = [];
  const asc = order.direction === 'asc';
  const start = order.startFrom === null ? null : order.startFrom / scale;
  let i = asc ? (start === null ? 0 : index.lowerBound(start)) : (start === null ? values.length : index.lowerBound(start, true)) - 1;
  const step = asc ? 1 : -1;
  // The column orders ties by slot, not by point id: take the whole run of the value at the
  // limit, so that sorting by id below picks the right ones.
  for (; i >= 0 && i < values.length; i += step) {
    const value = values[i]!;
    const slot = slots[i]!;
    if (hits.length >= limit && value !== hits[hits.length - 1]!.value) break;
    // The same value twice in one point's array (adjacent in the column) counts once.
    const prev = i - step >= 0 && i - step < values.length ? i - step : -1;
    if (prev !== -1 && values[prev] === value && slots[prev] === slot) continue;
    if (accept === null || accept(slot)) hits.push({ slot, value });
  }
  const dir = asc ? 1 : -1;
  hits.sort((a, b) => dir * (a.value - b.value || comparePointIds(idOf(a.slot), idOf(b.slot))));
  return hits.slice(0, limit).map((h) => ({ slot: h.slot, value: h.value * scale }));
}
