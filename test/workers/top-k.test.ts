import { describe, expect, it } from 'vitest';
import { rng } from '../helpers/random.js';
import { TopK } from '../../src/workers/shard/top-k.js';

type Hit = { slot: number; score: number };


function shuffle<T>(xs: T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The reference: sort everything best-first (ties by slot) and cut at k. */
function oracle(hits: Hit[], k: number, higherIsBetter: boolean): Hit[] {
  const sorted = [...hits].sort((a, b) => {
    if (a.score !== b.score) return higherIsBetter ? b.score - a.score : a.score - b.score;
    return a.slot - b.slot;
  });
  return sorted.slice(0, Math.max(0, k));
}

function run(hits: Hit[], k: number, higherIsBetter: boolean): TopK {
  const top = new TopK(k, higherIsBetter);
  for (const h of hits) top.push(h.slot, h.score);
  return top;
}

describe('TopK', () => {
  const scores = [0.1, 0.9, 0.5, 0.7, 0.3];
  const hits = scores.map((score, slot) => ({ slot, score }));

  it('keeps the k highest scores, best first, when higher is better', () => {
    expect(run(hits, 3, true).drain()).toEqual([
      { slot: 1, score: 0.9 },
      { slot: 3, score: 0.7 },
      { slot: 2, score: 0.5 },
    ]);
  });

  it('keeps the k lowest scores, best first, when lower is better (distances)', () => {
    expect(run(hits, 3, false).drain()).toEqual([
      { slot: 0, score: 0.1 },
      { slot: 4, score: 0.3 },
      { slot: 2, score: 0.5 },
    ]);
  });

  it('handles negative and infinite scores', () => {
    const h = [-3, -1, -Infinity, -2, Infinity].map((score, slot) => ({ slot, score }));
    expect(run(h, 2, true).drain()).toEqual([
      { slot: 4, score: Infinity },
      { slot: 1, score: -1 },
    ]);
    expect(run(h, 2, false).drain()).toEqual([
      { slot: 2, score: -Infinity },
      { slot: 0, score: -3 },
    ]);
  });

  it('size grows to k and no further; bar is undefined until full, then the worst kept score', () => {
    const top = new TopK(3, true);
    expect(top.size).toBe(0);
    expect(top.bar).toBeUndefined();
    top.push(0, 5);
    top.push(1, 1);
    expect(top.size).toBe(2);
    expect(top.bar).toBeUndefined();
    top.push(2, 3);
    expect(top.size).toBe(3);
    expect(top.bar).toBe(1);
    top.push(3, 4); // evicts 1
    expect(top.size).toBe(3);
    expect(top.bar).toBe(3);
    top.push(4, 2); // worse than the bar: ignored
    expect(top.bar).toBe(3);
    expect(top.drain().map((h) => h.slot)).toEqual([0, 3, 2]);
  });

  it('bar is the largest kept distance when lower is better', () => {
    const top = new TopK(2, false);
    top.push(0, 10);
    top.push(1, 4);
    expect(top.bar).toBe(10);
    top.push(2, 7);
    expect(top.bar).toBe(7);
    top.push(3, 8); // not better than 7
    expect(top.drain()).toEqual([
      { slot: 1, score: 4 },
      { slot: 2, score: 7 },
    ]);
  });

  it('k = 0 keeps nothing', () => {
    const top = run(hits, 0, true);
    expect(top.size).toBe(0);
    expect(top.drain()).toEqual([]);
  });

  it('k larger than the candidates returns them all, sorted', () => {
    expect(run(hits, 100, true).drain().map((h) => h.slot)).toEqual([1, 3, 2, 4, 0]);
    expect(run(hits, 100, false).drain().map((h) => h.slot)).toEqual([0, 4, 2, 3, 1]);
  });

  it('drain orders equal scores by slot', () => {
    const top = new TopK(10, true);
    top.push(5, 1);
    top.push(2, 1);
    top.push(9, 1);
    top.push(1, 0.5);
    top.push(7, 2);
    expect(top.drain().map((h) => h.slot)).toEqual([7, 2, 5, 9, 1]);
    const low = new TopK(10, false);
    low.push(5, 1);
    low.push(2, 1);
    low.push(0, 3);
    expect(low.drain().map((h) => h.slot)).toEqual([2, 5, 0]);
  });

  describe('against a sort-based oracle on random data', () => {
    const sizes = [1, 2, 7, 100, 2000];
    const ks = [1, 2, 3, 10, 64, 5000];
    for (const higherIsBetter of [true, false]) {
      it(`distinct scores, higherIsBetter=${higherIsBetter}`, () => {
        let seed = higherIsBetter ? 1 : 1000;
        for (const n of sizes) {
          for (const k of ks) {
            const rand = rng(seed++);
            // Distinct slots in random push order; continuous scores, negatives included.
            const slots = shuffle(
              Array.from({ length: n }, (_, i) => i * 3 + 1),
              rand,
            );
            const h = slots.map((slot) => ({ slot, score: rand() * 2 - 1 }));
            const top = run(h, k, higherIsBetter);
            const want = oracle(h, k, higherIsBetter);
            expect(top.size, `n=${n} k=${k}`).toBe(want.length);
            expect(top.drain(), `n=${n} k=${k}`).toEqual(want);
            if (k <= n) expect(top.bar).toBe(want[want.length - 1]!.score);
            else expect(top.bar).toBeUndefined();
          }
        }
      });

      it(`many tied scores, higherIsBetter=${higherIsBetter}: kept scores match and order is (score, slot)`, () => {
        let seed = higherIsBetter ? 50 : 5000;
        for (const n of sizes) {
          for (const k of ks) {
            const rand = rng(seed++);
            const slots = shuffle(
              Array.from({ length: n }, (_, i) => i),
              rand,
            );
            const h = slots.map((slot) => ({ slot, score: Math.floor(rand() * 5) }));
            const got = run(h, k, higherIsBetter).drain();
            const want = oracle(h, k, higherIsBetter);
            // Which of several tied candidates survives at the cut is checked separately below;
            // the multiset of kept scores must be exact.
            expect(got.map((x) => x.score)).toEqual(want.map((x) => x.score));
            const misordered = got.findIndex((b, i) => {
              if (i === 0) return false;
              const a = got[i - 1]!;
              return !(a.score === b.score ? a.slot < b.slot : higherIsBetter ? a.score > b.score : a.score < b.score);
            });
            expect(misordered, `n=${n} k=${k}`).toBe(-1);
            // Every kept hit is a real candidate, kept once.
            const seen = new Set(got.map((x) => x.slot));
            expect(seen.size).toBe(got.length);
            const bySlot = new Map(h.map((x) => [x.slot, x.score]));
            expect(got.every((x) => bySlot.get(x.slot) === x.score)).toBe(true);
          }
        }
      });
    }
  });

  // BUG (reported): drain() breaks ties by slot, but eviction at the cut does not, so which of
  // several equally scored candidates survives depends on heap layout. With slots pushed in scan
  // order (0, 1, 2) the k=2 result keeps slot 1 instead of slot 0, i.e. it is not the first k of
  // the (score, slot) order that drain() itself uses; `limit`/`offset` pages can then disagree.
  it('at the cut, equal scores keep the lower slot (the first k of drain order)', () => {
    const top = new TopK(2, true);
    top.push(0, 5);
    top.push(1, 5);
    top.push(2, 7);
    expect(top.drain()).toEqual([
      { slot: 2, score: 7 },
      { slot: 0, score: 5 },
    ]);
  });
});
