// Shared setup of the payload index tests (test/workers/payload-index-*.test.ts): an index on
// key 'k' built over rows of values, its candidates for a condition on 'k' as a sorted list, and
// the text schema and geo condition builders the tests use.

import { expect } from 'vitest';
import { createFieldIndex, type FieldIndex } from '../../src/workers/index/payload-index.js';
import { fieldValues, parsePath } from '../../src/workers/shard/filter-eval.js';
import type { FieldCondition } from '../../src/shared/filter.js';
import type { FieldIndexSchema, JsonValue, Payload, TextIndexParams } from '../../src/shared/types.js';

export type Cond = Omit<FieldCondition, 'key'>;

/** An index on key 'k' over rows of values at 'k' (slot = row; undefined: the key is missing). */
export function build(schema: FieldIndexSchema, rows: (JsonValue | undefined)[]): FieldIndex {
  const index = createFieldIndex(schema);
  rows.forEach((v, slot) => add(index, slot, v));
  return index;
}

export function add(index: FieldIndex, slot: number, v: JsonValue | undefined): void {
  const payload: Payload = v === undefined ? {} : { k: v };
  index.add(slot, fieldValues(payload, parsePath('k')));
}

export function cands(index: FieldIndex, cond: Cond): number[] | null {
  const s = index.candidates({ key: 'k', ...cond });
  return s === null ? null : [...s].sort((a, b) => a - b);
}

/** Asserts that the candidates are a set holding every one of `must` and none of `mustNot`. */
export function expectCovers(index: FieldIndex, cond: Cond, must: number[], mustNot: number[] = []): void {
  const c = cands(index, cond);
  expect(c).not.toBeNull();
  for (const s of must) expect(c, `slot ${s} must be a candidate`).toContain(s);
  for (const s of mustNot) expect(c, `slot ${s} must not be a candidate`).not.toContain(s);
}

export const text = (over: Partial<TextIndexParams> = {}): FieldIndexSchema => ({
  type: 'text',
  text: { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true, ...over },
});

export const box = (west: number, north: number, east: number, south: number): Cond => ({
  geo_bounding_box: { top_left: { lon: west, lat: north }, bottom_right: { lon: east, lat: south } },
});
export const radius = (lon: number, lat: number, r: number): Cond => ({ geo_radius: { center: { lon, lat }, radius: r } });
export const polygon = (...pts: [number, number][]): Cond => ({
  geo_polygon: { exterior: { points: [...pts, pts[0]!].map(([lon, lat]) => ({ lon, lat })) } },
});
