// HedgeDeadlines: the ceiling until a read kind has enough answers, then their 95th percentile,
// never under the floor nor over the ceiling, learned per kind; 0 turns hedging off.

import { describe, expect, it } from 'vitest';
import { FLOOR_MS, HedgeDeadlines } from '../../../src/shared/cluster/hedge.js';

describe('HedgeDeadlines', () => {
  it('a ceiling of 0 never hedges', () => {
    const h = new HedgeDeadlines(0);
    for (let i = 0; i < 50; i++) h.answered('search', 5);
    expect(h.deadline('search')).toBeNull();
  });

  it('the ceiling stands until a kind has 20 answers', () => {
    const h = new HedgeDeadlines(800);
    expect(h.deadline('search')).toBe(800);
    for (let i = 0; i < 19; i++) h.answered('search', 40);
    expect(h.deadline('search')).toBe(800);
    h.answered('search', 40);
    expect(h.deadline('search')).toBe(40);
  });

  it('then the 95th percentile of the answers, rounded up', () => {
    const h = new HedgeDeadlines(10_000);
    // 1..100 ms, shuffled: the 95th percentile is 96 (index 95 of 100 sorted).
    const ms = Array.from({ length: 100 }, (_, i) => i + 1).sort((a, b) => ((a * 37) % 101) - ((b * 37) % 101));
    for (const m of ms) h.answered('count', m - 0.5);
    expect(h.deadline('count')).toBe(96);
  });

  it('never under the floor, never over the ceiling', () => {
    const h = new HedgeDeadlines(300);
    for (let i = 0; i < 40; i++) h.answered('fast', 0.4);
    for (let i = 0; i < 40; i++) h.answered('slow', 2_000);
    expect(h.deadline('fast')).toBe(FLOOR_MS);
    expect(h.deadline('slow')).toBe(300);
  });

  it('each kind is learned apart, and only the last 128 answers count', () => {
    const h = new HedgeDeadlines(10_000);
    for (let i = 0; i < 30; i++) h.answered('retrieve', 20);
    for (let i = 0; i < 30; i++) h.answered('retrieve@end', 200);
    expect([h.deadline('retrieve'), h.deadline('retrieve@end')]).toEqual([20, 200]);
    // A change of load: 128 answers at 60 ms replace the 20 ms ones.
    for (let i = 0; i < 128; i++) h.answered('retrieve', 60);
    expect(h.deadline('retrieve')).toBe(60);
  });
});
