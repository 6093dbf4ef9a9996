// Payload field indexes of one shard, and the planner that turns a filter into candidate slots.
//
// Each index maps payload values at one key to the slots holding them: keyword/uuid/bool (and
// integer lookups) as value -> slot sets; integer/float/datetime as a sorted (value, slot)
// column, rebuilt lazily after writes; geo as 1-degree grid cells; text as an inverted index of
// tokenizer terms. Invariant: an index holds exactly the current payload of every live slot.
// Candidates may be a superset of the matches (the filter predicate always refines them), never
// a subset.
//
// This module holds the registry (createFieldIndex: schema -> index kind, with each kind's value
// conversion and facet mapping) and the planner; the index kinds live in value-index.ts,
// range-index.ts, geo-index.ts and text-index.ts, their shared parts in field-index.ts. The
// FieldIndex interface, intersect and RangeIndex are re-exported for this module's importers.

import { parseDatetime } from '../../shared/datetime.js';
import type { Condition, Filter } from '../../shared/filter.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FieldIndexSchema, JsonValue } from '../../shared/types.js';
import { intersect, union, type FieldIndex } from './field-index.js';
import { GeoIndex } from './geo-index.js';
import { RangeIndex } from './range-index.js';
import { TextIndex } from './text-index.js';
import { ValueIndex } from './value-index.js';

export { intersect, RangeIndex, type FieldIndex };

const asString = (v: JsonValue): string | undefined => (typeof v === 'string' ? v : undefined);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Facets count a narrower set than the indexes match on, as Qdrant's: a uuid facet counts valid
// UUIDs, lowercased (the index matches the exact string); an integer facet counts exact integers
// only (beyond 2^53 a number is no longer the integer it was written as, and gRPC would carry it
// as a wrapped int64).
const keywordFacet = (k: string): FacetValue => k;
const uuidFacet = (k: string): FacetValue | undefined => (UUID_RE.test(k) ? k.toLowerCase() : undefined);
const integerFacet = (n: number): FacetValue | undefined => (Number.isSafeInteger(n) ? n : undefined);

export function createFieldIndex(schema: FieldIndexSchema): FieldIndex {
  switch (schema.type) {
    case 'keyword':
      return new ValueIndex<string>(schema, asString, keywordFacet);
    case 'uuid':
      return new ValueIndex<string>(schema, asString, uuidFacet);
    case 'bool':
      // Booleans are posted under 'true'/'false' so one map type serves every exact-value index.
      return new ValueIndex<'true' | 'false'>(
        schema,
        (v) => (typeof v === 'boolean' ? (String(v) as 'true' | 'false') : undefined),
        (k) => k === 'true',
      );
    case 'integer': {
      const toInt = (v: JsonValue): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
      // `range: false`: exact matches only, from value -> slots postings (no sorted column to
      // build); `lookup: false`: ranges only, matches left to the filter predicate, no facets.
      if (schema.params?.['range'] === false) {
        return new ValueIndex<string>(schema, (v) => (toInt(v) === undefined ? undefined : String(v)), (k) => integerFacet(Number(k)));
      }
      return schema.params?.['lookup'] === false ? new RangeIndex(schema, toInt, undefined, false) : new RangeIndex(schema, toInt, integerFacet);
    }
    case 'float':
      return new RangeIndex(schema, (v) => (typeof v === 'number' ? v : undefined));
    case 'datetime':
      return new RangeIndex(schema, (v) => {
        if (typeof v !== 'string') return undefined;
        const t = parseDatetime(v);
        return Number.isNaN(t) ? undefined : t;
      });
    case 'geo':
      return new GeoIndex(schema);
    case 'text':
      return new TextIndex(schema, schema.text ?? { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true });
  }
}

/**
 * The planner: candidate slots for a filter from its indexed `must` conditions (intersected, or
 * a principal key's alone), an all-indexed `should` (united) and has_id, or null when no index
 * narrows it.
 */
export function planCandidates(
  filter: Filter,
  indexes: ReadonlyMap<string, FieldIndex>,
  slotsOfIds: (ids: readonly (number | string)[]) => Set<number>,
): Set<number> | null {
  const list = (c: Condition[] | Condition | undefined): Condition[] => (c === undefined ? [] : Array.isArray(c) ? c : [c]);
  const forCondition = (c: Condition): Set<number> | null => {
    if ('key' in c) return indexes.get(c.key)?.candidates(c) ?? null;
    if ('has_id' in c) return slotsOfIds(c.has_id);
    if ('filter' in c) return planCandidates(c.filter, indexes, slotsOfIds);
    if ('must' in c || 'should' in c || 'must_not' in c || 'min_should' in c) return planCandidates(c as Filter, indexes, slotsOfIds);
    return null;
  };
  const must = list(filter.must);
  // A condition on a principal key (is_principal: the key most filters name) answers alone: its
  // index's set is the candidates, and the predicate checks the other conditions on them.
  for (const c of must) {
    if (!('key' in c) || indexes.get(c.key)?.schema.params?.['is_principal'] !== true) continue;
    const s = forCondition(c);
    if (s !== null) return s;
  }
  const sets: Set<number>[] = [];
  for (const c of must) {
    const s = forCondition(c);
    if (s !== null) sets.push(s);
  }
  const should = list(filter.should);
  if (should.length > 0) {
    const parts = should.map(forCondition);
    if (parts.every((p): p is Set<number> => p !== null)) sets.push(union(parts));
  }
  // The sets are fresh (never an index's own postings), so a lone one is returned uncopied.
  if (sets.length <= 1) return sets[0] ?? null;
  return intersect(sets);
}
