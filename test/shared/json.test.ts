// nestedDeeperThan: the depth guard in front of every recursive step over request bodies.

import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/shared/json.js';

function nest(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

describe('nestedDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan(null, 0)).toBe(false);
    expect(nestedDeeperThan('x', 0)).toBe(false);
    expect(nestedDeeperThan([], 0)).toBe(true);
    expect(nestedDeeperThan([], 1)).toBe(false);
    expect(nestedDeeperThan({ a: [1, 2, 3], b: 'x' }, 2)).toBe(false);
    expect(nestedDeeperThan({ a: [1, 2, { c: 1 }] }, 2)).toBe(true);
  });

  it('is exact at the limit', () => {
    expect(nestedDeeperThan(nest(128), 128)).toBe(false);
    expect(nestedDeeperThan(nest(129), 128)).toBe(true);
  });

  it('finds the deep branch among shallow ones', () => {
    const wide = { a: Array.from({ length: 1000 }, (_, i) => ({ i })), deep: nest(10) };
    expect(nestedDeeperThan(wide, 10)).toBe(true);
    expect(nestedDeeperThan(wide, 11)).toBe(false);
  });

  it('survives depths that would overflow a recursive walk', () => {
    expect(nestedDeeperThan(nest(200_000), 128)).toBe(true);
  });
});
