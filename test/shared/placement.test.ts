import { describe, expect, it } from 'vitest';
import { copyIndexOn, copyWorker, effectiveReplicas, replicaTable, shardOf, workerOf } from '../../src/shared/placement.js';

function uuid(i: number): string {
  // Deterministic, varied UUID-shaped strings.
  const h = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  const a = Math.imul(i + 1, 0x9e3779b1);
  const b = Math.imul(i + 7, 0x85ebca6b);
  const c = Math.imul(i + 13, 0xc2b2ae35);
  const s = h(a) + h(b) + h(c) + h(a ^ c);
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

describe('shardOf', () => {
  it('is deterministic, an integer in [0, n)', () => {
    for (const n of [1, 2, 3, 4, 7, 16, 256]) {
      for (const id of [0, 1, 2, 12345, Number.MAX_SAFE_INTEGER, uuid(0), uuid(1)]) {
        const s = shardOf(id, n);
        expect(Number.isInteger(s)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThan(n);
        expect(shardOf(id, n)).toBe(s);
      }
    }
  });

  it('puts everything on shard 0 when there is one shard', () => {
    for (let i = 0; i < 100; i++) expect(shardOf(i, 1)).toBe(0);
  });

  it('is stable across releases (FNV-1a of the canonical text)', () => {
    // Independent FNV-1a 32-bit, over "n<digits>" or "u<uuid>": placement must never change,
    // or points written before an upgrade would be looked for on the wrong shard.
    const fnv = (s: string): number => {
      let h = 0x811c9dc5;
      for (const b of Buffer.from(s, 'utf8')) {
        h ^= b;
        h = Number((BigInt(h) * 0x01000193n) & 0xffffffffn);
      }
      return h;
    };
    for (const id of [0, 1, 42, 10_000_000, uuid(3)]) {
      const text = typeof id === 'number' ? `n${id}` : `u${id}`;
      for (const n of [2, 3, 4, 10]) expect(shardOf(id, n)).toBe(fnv(text) % n);
    }
  });

  it('spreads 10k integer ids over 4 shards evenly (each 20%..30%)', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[shardOf(i, 4)]!++;
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(2000);
      expect(c).toBeLessThanOrEqual(3000);
    }
  });

  it('spreads 10k UUIDs over 4 shards evenly (each 20%..30%)', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[shardOf(uuid(i), 4)]!++;
    for (const c of counts) {
      expect(c).toBeGreaterThanOrEqual(2000);
      expect(c).toBeLessThanOrEqual(3000);
    }
  });

  it('spreads ids over 3 and 8 shards too (no empty or overloaded shard)', () => {
    for (const n of [3, 8]) {
      const counts = new Array<number>(n).fill(0);
      for (let i = 0; i < 10_000; i++) counts[shardOf(i, n)]!++;
      for (const c of counts) {
        expect(c).toBeGreaterThan((10_000 / n) * 0.8);
        expect(c).toBeLessThan((10_000 / n) * 1.2);
      }
    }
  });
});

describe('workerOf', () => {
  it('is in [0, workers)', () => {
    for (const workers of [1, 2, 3, 8]) {
      for (let collection = 0; collection < 20; collection++) {
        for (let shard = 0; shard < 16; shard++) {
          const w = workerOf(collection, shard, workers);
          expect(Number.isInteger(w)).toBe(true);
          expect(w).toBeGreaterThanOrEqual(0);
          expect(w).toBeLessThan(workers);
        }
      }
    }
  });

  it('spreads the shards of one collection over distinct workers when there are enough', () => {
    for (const collection of [0, 1, 5, 1001]) {
      const ws = [0, 1, 2, 3].map((s) => workerOf(collection, s, 4));
      expect(new Set(ws).size).toBe(4);
      const more = [0, 1, 2, 3, 4, 5, 6, 7].map((s) => workerOf(collection, s, 4));
      // 8 shards on 4 workers: 2 each.
      for (let w = 0; w < 4; w++) expect(more.filter((x) => x === w)).toHaveLength(2);
    }
  });
});

describe('copies of a shard (replication_factor)', () => {
  it('copy r sits r workers after the primary, so the copies of one shard are on distinct workers', () => {
    for (const workers of [1, 2, 3, 8]) {
      for (let collection = 1; collection < 5; collection++) {
        for (let shard = 0; shard < 6; shard++) {
          const copies = effectiveReplicas(workers, workers);
          const on = Array.from({ length: copies }, (_, r) => copyWorker(collection, shard, r, workers));
          expect(on[0]).toBe(workerOf(collection, shard, workers));
          expect(new Set(on).size).toBe(copies);
          // The workers' loaders find the same copy index the router writes to.
          on.forEach((w, r) => expect(copyIndexOn(collection, shard, copies, w, workers)).toBe(r));
        }
      }
    }
  });

  it('a worker holding no copy finds -1', () => {
    // 4 workers, 2 copies: shard 0 of collection 1 is on workers 1 and 2.
    expect([0, 1, 2, 3].map((w) => copyIndexOn(1, 0, 2, w, 4))).toEqual([-1, 0, 1, -1]);
  });

  it('keeps at most one copy per worker, at least one, and 1 when unset', () => {
    expect(effectiveReplicas(5, 2)).toBe(2);
    expect(effectiveReplicas(2, 8)).toBe(2);
    expect(effectiveReplicas(undefined, 8)).toBe(1);
  });

  it('replicaTable lists every copy of every shard, plain data', () => {
    const t = replicaTable(3, 2, 2, 2);
    expect(t).toEqual({
      collection: 3,
      shards: [
        [{ worker: 1, state: 'Active' }, { worker: 0, state: 'Active' }],
        [{ worker: 0, state: 'Active' }, { worker: 1, state: 'Active' }],
      ],
    });
    expect(structuredClone(t)).toEqual(t);
  });
});
