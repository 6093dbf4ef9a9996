// What both threads compute over the protocol's shapes (protocol.ts holds the shapes only): the
// orders Qdrant gives order_by results and facet values, the unconditional write, the messages
// Qdrant words for a missing range index, and memory figures summed and read.

import { comparePointIds } from './ids.js';
import type { FacetValue, OrderedRecord, WriteCondition } from './protocol.js';
import type { MemoryBytes, ThreadMemory } from './shard-reports.js';

/** Qdrant's answer to order_by on a key without an integer, float or datetime index. */
export function missingRangeIndex(key: string): string {
  return `No range index for \`order_by\` key: \`${key}\`. Please create one to use \`order_by\`. Integer, float, and datetime payloads can have range indexes, see https://qdrant.tech/documentation/concepts/indexing/#payload-index.`;
}

/**
 * Qdrant's order of an order_by result: by (value, point id), both ascending for `asc` and both
 * descending for `desc`. Ties are therefore stable across pages and shards.
 */
export function compareOrdered(direction: 'asc' | 'desc'): (a: OrderedRecord, b: OrderedRecord) => number {
  const dir = direction === 'asc' ? 1 : -1;
  return (a, b) => dir * (a.order_value - b.order_value || comparePointIds(a.id, b.id));
}

export const UNCONDITIONAL: WriteCondition = { mode: 'upsert', updateFilter: null };

/** The order of facet values among equal counts: numbers by value, the rest as strings. */
export function compareFacetValues(a: FacetValue, b: FacetValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

export const MEMORY_KINDS = ['vectors', 'graph', 'payload_index', 'ids'] as const satisfies readonly (keyof MemoryBytes)[];

/** The sum of memory figures, kind by kind. */
export function sumMemory(parts: readonly MemoryBytes[]): MemoryBytes {
  const out: MemoryBytes = { vectors: 0, graph: 0, payload_index: 0, ids: 0 };
  for (const p of parts) for (const k of MEMORY_KINDS) out[k] += p[k];
  return out;
}

/** This thread's figures (see ThreadMemory). */
export function threadMemory(): ThreadMemory {
  const m = process.memoryUsage();
  return { heap_total_bytes: m.heapTotal, heap_used_bytes: m.heapUsed, external_bytes: m.external, array_buffers_bytes: m.arrayBuffers };
}
