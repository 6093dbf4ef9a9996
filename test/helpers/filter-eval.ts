// Shared setup of the filter evaluator tests (test/workers/filter-eval-*.test.ts): points as a
// FilterView, the slots a filter selects, whether one condition matches one payload, and a
// table of payloads against one condition (one test per row).

import { describe, expect, it } from 'vitest';
import { compileFilter, type FilterView } from '../../src/workers/shard/filter-eval.js';
import type { Condition, Filter } from '../../src/shared/filter.js';
import type { Payload, PointId, TextIndexParams } from '../../src/shared/types.js';

export interface Point {
  id?: PointId;
  payload: Payload | null;
  vectors?: string[];
}

function view(points: Point[], text: Record<string, TextIndexParams> = {}): FilterView {
  return {
    payload: (slot) => points[slot]!.payload,
    id: (slot) => points[slot]!.id ?? slot,
    hasVector: (slot, name) => (points[slot]!.vectors ?? []).includes(name),
    textIndex: (key) => text[key],
  };
}

/** Slots (indices into `points`) that the filter accepts. */
export function select(filter: Filter, points: Point[], text: Record<string, TextIndexParams> = {}): number[] {
  const pred = compileFilter(filter, view(points, text));
  return points.map((_, i) => i).filter((i) => pred(i));
}

export function matches(cond: Condition, payload: Payload | null): boolean {
  return compileFilter({ must: [cond] }, view([{ payload }]))(0);
}

export type Row = [payload: Payload | null, expected: boolean];

/** A condition against a table of payloads. */
export function table(name: string, cond: Condition, rows: Row[]): void {
  describe(name, () => {
    it.each(rows.map(([payload, expected]) => ({ label: JSON.stringify(payload), payload, expected })))(
      '$label -> $expected',
      ({ payload, expected }) => {
        expect(matches(cond, payload)).toBe(expected);
      },
    );
  });
}
