// The payloads of one shard, by slot, and the field indexes over them.
//
// Invariant: every index holds exactly the current payload of every live slot (set() reindexes
// the slot in every index; an index created later is filled from the payloads at once).

import type { Filter } from '../../shared/filter.js';
import { type FacetValue } from '../../shared/protocol.js';
import { compareFacetValues } from '../../shared/shard-results.js';
import type { FieldIndexSchema, Payload, PointId, TextIndexParams } from '../../shared/types.js';
import { createFieldIndex, planCandidates, type FieldIndex } from '../index/payload-index.js';
import { fieldValues, parsePath, type PathPart } from './filter-eval.js';

export class PayloadSpace {
  readonly #payloads: (Payload | null)[] = [];
  readonly #indexes = new Map<string, FieldIndex>();
  readonly #paths = new Map<string, PathPart[]>();

  get(slot: number): Payload | null {
    return this.#payloads[slot] ?? null;
  }

  /** The slot's payload from now on (null: none, or the slot is gone), reindexed. */
  set(slot: number, payload: Payload | null): void {
    this.#payloads[slot] = payload;
    for (const [key, index] of this.#indexes) {
      index.remove(slot);
      if (payload) index.add(slot, fieldValues(payload, this.#paths.get(key)!));
    }
  }

  /** Builds (or rebuilds) the index on `key` from the payloads of `slots` (every live one). */
  createIndex(key: string, schema: FieldIndexSchema, slots: Iterable<number>): void {
    const index = createFieldIndex(schema);
    const path = parsePath(key);
    for (const slot of slots) {
      const payload = this.#payloads[slot];
      if (payload) index.add(slot, fieldValues(payload, path));
    }
    this.#indexes.set(key, index);
    this.#paths.set(key, path);
  }

  /** Estimated bytes of the field indexes (the payloads themselves not counted). */
  get indexBytes(): number {
    let n = 0;
    for (const index of this.#indexes.values()) n += index.bytes;
    return n;
  }

  dropIndex(key: string): void {
    this.#indexes.delete(key);
    this.#paths.delete(key);
  }

  index(key: string): FieldIndex | undefined {
    return this.#indexes.get(key);
  }

  /** The text index parameters of `key`, when its index is a text one (filters tokenize with them). */
  textParams(key: string): TextIndexParams | undefined {
    const schema = this.index(key)?.schema;
    return schema?.type === 'text' ? schema.text : undefined;
  }

  /** Candidate slots for the filter from the indexes, or null when no index narrows it. */
  candidates(filter: Filter, slotOf: (id: PointId) => number | undefined): Set<number> | null {
    return planCandidates(filter, this.#indexes, (ids) => {
      const out = new Set<number>();
      for (const id of ids) {
        const slot = slotOf(id);
        if (slot !== undefined) out.add(slot);
      }
      return out;
    });
  }

  /** Per indexed key, how many points have an indexed value. */
  indexedPoints(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, index] of this.#indexes) out[key] = index.points;
    return out;
  }
}

/**
 * Facet counts over `slots` of the values `index` holds (a point counts once per value). With
 * `top`, only the `top` most frequent values are kept (ties by value).
 */
export function facetCounts(index: FieldIndex, slots: Iterable<number>, top: number | null): { values: FacetValue[]; counts: number[] } {
  const counts = new Map<FacetValue, number>();
  for (const slot of slots) {
    for (const fv of index.facetValues?.(slot) ?? []) counts.set(fv, (counts.get(fv) ?? 0) + 1);
  }
  let entries = [...counts];
  if (top !== null && entries.length > top) {
    entries.sort((a, b) => b[1] - a[1] || compareFacetValues(a[0], b[0]));
    entries = entries.slice(0, top);
  }
  return { values: entries.map((e) => e[0]), counts: entries.map((e) => e[1]) };
}
