import { describe, expect, it } from 'vitest';
import { rng } from '../helpers/random.js';
import { IdTracker } from '../../src/workers/shard/id-tracker.js';
import type { PointId } from '../../src/shared/types.js';

const U1 = '00000000-0000-0000-0000-000000000001';
const UA = 'a0000000-0000-0000-0000-000000000000';
const UF = 'f0000000-0000-0000-0000-000000000000';


function sortedIds(t: IdTracker): PointId[] {
  return Array.from(t.sortedSlots(), (s) => t.idOf(s)!);
}

describe('IdTracker', () => {
  it('acquire allocates dense slots for new ids and returns the same slot for known ids', () => {
    const t = new IdTracker();
    expect(t.acquire(10)).toEqual({ slot: 0, fresh: true });
    expect(t.acquire(U1)).toEqual({ slot: 1, fresh: true });
    expect(t.acquire(3)).toEqual({ slot: 2, fresh: true });
    expect(t.acquire(10)).toEqual({ slot: 0, fresh: false });
    expect(t.acquire(U1)).toEqual({ slot: 1, fresh: false });
    expect(t.live).toBe(3);
    expect(t.slotLimit).toBe(3);
    expect(t.slotOf(3)).toBe(2);
    expect(t.idOf(1)).toBe(U1);
    expect(t.slotOf(999)).toBeUndefined();
    expect(t.idOf(99)).toBeUndefined();
  });

  it('integer 1 and the string "1" are different ids', () => {
    const t = new IdTracker();
    t.acquire(1);
    expect(t.slotOf('1')).toBeUndefined();
    expect(t.acquire('1').fresh).toBe(true);
    expect(t.live).toBe(2);
  });

  it('release frees the slot; the next new id reuses it before growing', () => {
    const t = new IdTracker();
    for (const id of [1, 2, 3, 4]) t.acquire(id);
    expect(t.release(2)).toBe(1);
    expect(t.live).toBe(3);
    expect(t.slotOf(2)).toBeUndefined();
    expect(t.idOf(1)).toBeUndefined();
    expect(t.slotLimit).toBe(4); // the slot space does not shrink

    const r = t.acquire(UA);
    expect(r).toEqual({ slot: 1, fresh: true });
    expect(t.idOf(1)).toBe(UA);
    expect(t.slotLimit).toBe(4);
    // Free list exhausted: the next id grows the slot space.
    expect(t.acquire(5)).toEqual({ slot: 4, fresh: true });
    expect(t.slotLimit).toBe(5);
  });

  it('reuses every freed slot before allocating new ones', () => {
    const t = new IdTracker();
    for (let i = 0; i < 10; i++) t.acquire(i);
    const freed = [2, 5, 7].map((id) => t.release(id)!);
    const reused = [100, 101, 102].map((id) => t.acquire(id).slot);
    expect([...reused].sort((a, b) => a - b)).toEqual([...freed].sort((a, b) => a - b));
    expect(t.slotLimit).toBe(10);
    expect(t.acquire(103).slot).toBe(10);
  });

  it('releasing an unknown or already released id is a no-op that frees nothing twice', () => {
    const t = new IdTracker();
    t.acquire(1);
    t.acquire(2);
    expect(t.release(42)).toBeUndefined();
    expect(t.release(1)).toBe(0);
    expect(t.release(1)).toBeUndefined();
    expect(t.live).toBe(1);
    // If slot 0 had been pushed twice on the free list, two new ids would share it.
    const a = t.acquire(3).slot;
    const b = t.acquire(4).slot;
    expect(a).not.toBe(b);
    expect(t.slotOf(2)).toBe(1);
    expect(new Set([a, b, 1]).size).toBe(3);
  });

  it('tracks versions per slot; a reused slot starts again at version 0', () => {
    const t = new IdTracker();
    const { slot } = t.acquire(7);
    expect(t.versionOf(slot)).toBe(0);
    t.setVersion(slot, 12);
    expect(t.versionOf(slot)).toBe(12);
    expect(t.acquire(7)).toEqual({ slot, fresh: false });
    expect(t.versionOf(slot)).toBe(12); // re-acquiring a live id keeps its version
    t.release(7);
    const again = t.acquire(8);
    expect(again.slot).toBe(slot);
    expect(t.versionOf(again.slot)).toBe(0);
    expect(t.versionOf(1234)).toBe(0);
  });

  it('sortedSlots lists live slots by id: integers ascending (numerically), then UUIDs', () => {
    const t = new IdTracker();
    for (const id of [UF, 10, U1, 2, 100, UA, 9]) t.acquire(id);
    expect(sortedIds(t)).toEqual([2, 9, 10, 100, U1, UA, UF]);
    // The slots themselves are the allocation slots of those ids.
    expect(Array.from(t.sortedSlots())).toEqual([3, 6, 1, 4, 2, 5, 0]);
    expect(t.sortedSlots()).toBeInstanceOf(Int32Array);
  });

  it('sortedSlots is cached while ids are unchanged and invalidated by acquire and release', () => {
    const t = new IdTracker();
    t.acquire(5);
    t.acquire(UA);
    const first = t.sortedSlots();
    expect(t.sortedSlots()).toBe(first);
    // Re-acquiring a live id and setting versions change no ids.
    t.acquire(5);
    t.setVersion(0, 3);
    expect(t.sortedSlots()).toBe(first);

    t.acquire(1);
    const second = t.sortedSlots();
    expect(second).not.toBe(first);
    expect(sortedIds(t)).toEqual([1, 5, UA]);

    t.release(5);
    expect(sortedIds(t)).toEqual([1, UA]);
    expect(t.sortedSlots()).toHaveLength(2);

    // A failed release changes nothing.
    const third = t.sortedSlots();
    t.release(5);
    expect(t.sortedSlots()).toBe(third);

    // Reusing the freed slot for a new id shows up too.
    t.acquire(U1);
    expect(sortedIds(t)).toEqual([1, U1, UA]);
  });

  it('random acquire/release keeps the maps consistent and the slot space dense', () => {
    const rand = rng(7);
    const t = new IdTracker();
    const model = new Map<PointId, number>();
    let peakLive = 0;
    for (let step = 0; step < 3000; step++) {
      const n = Math.floor(rand() * 200);
      const id: PointId = rand() < 0.5 ? n : `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;
      if (rand() < 0.6) {
        const r = t.acquire(id);
        expect(r.fresh).toBe(!model.has(id));
        if (model.has(id)) expect(r.slot).toBe(model.get(id));
        model.set(id, r.slot);
      } else {
        expect(t.release(id)).toBe(model.get(id));
        model.delete(id);
      }
      peakLive = Math.max(peakLive, model.size);
    }
    expect(t.live).toBe(model.size);
    // Slots are reused before new ones are made, so the slot space never exceeds the peak.
    expect(t.slotLimit).toBe(peakLive);
    const slots = new Set<number>();
    for (const [id, slot] of model) {
      expect(t.slotOf(id)).toBe(slot);
      expect(t.idOf(slot)).toBe(id);
      slots.add(slot);
    }
    expect(slots.size).toBe(model.size);
    const sorted = sortedIds(t);
    expect(sorted).toHaveLength(model.size);
    const ints = sorted.filter((x) => typeof x === 'number') as number[];
    const uuids = sorted.filter((x) => typeof x === 'string') as string[];
    expect(sorted).toEqual([...ints, ...uuids]);
    expect(ints).toEqual([...ints].sort((a, b) => a - b));
    expect(uuids).toEqual([...uuids].sort());
  });

  it('keeps integer ids up to 2^53 - 1 exactly, apart from ids equal modulo 2^32', () => {
    const t = new IdTracker();
    const ids = [0, 2 ** 32, 2 ** 32 + 1, 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1, 2 ** 31, 2 ** 31 - 1];
    for (const id of ids) t.acquire(id);
    expect(t.live).toBe(ids.length);
    for (const [slot, id] of ids.entries()) {
      expect(t.slotOf(id)).toBe(slot);
      expect(t.idOf(slot)).toBe(id);
    }
    expect(sortedIds(t)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('holds 50,000 ids in typed arrays: lookups survive table growth and removals in the middle of probe runs', () => {
    const t = new IdTracker();
    const n = 50_000;
    // Ids spread and clustered both, so probe runs form.
    const idOf = (i: number): PointId => (i % 3 === 0 ? `00000000-0000-0000-0000-${String(i).padStart(12, '0')}` : i * 4096);
    for (let i = 0; i < n; i++) expect(t.acquire(idOf(i)).slot).toBe(i);
    for (let i = 0; i < n; i += 2) expect(t.release(idOf(i))).toBe(i);
    expect(t.live).toBe(n / 2);
    for (let i = 0; i < n; i++) expect(t.slotOf(idOf(i))).toBe(i % 2 === 0 ? undefined : i);
    // Freed slots come back before the slot space grows.
    for (let i = 0; i < n; i += 2) t.acquire(idOf(i + n));
    expect(t.slotLimit).toBe(n);
    expect(t.live).toBe(n);
    for (let i = 0; i < n; i += 2) expect(t.idOf(t.slotOf(idOf(i + n))!)).toBe(idOf(i + n));
    // Typed per-slot columns and the table: well under the ~70 bytes per id of a Map and arrays.
    expect(t.bytes / n).toBeLessThan(48);
  });

  it('place and settle restore a saved layout: gaps become free slots, lowest first', () => {
    const t = new IdTracker();
    t.place(10, 0);
    t.place(UA, 3);
    t.place(12, 5);
    t.settle();
    expect(t.live).toBe(3);
    expect(t.slotLimit).toBe(6);
    expect([t.slotOf(10), t.slotOf(UA), t.slotOf(12)]).toEqual([0, 3, 5]);
    expect([1, 2, 4].map((id) => t.acquire(id + 100).slot)).toEqual([1, 2, 4]);
    expect(t.acquire(200).slot).toBe(6);
  });

  it('reserve sizes the table for a load: ids placed before and after it are all found, and it never shrinks', () => {
    const t = new IdTracker();
    t.place(U1, 0);
    t.reserve(10_000);
    for (let i = 1; i <= 9_999; i++) t.place(i * 7, i);
    t.settle();
    expect(t.slotOf(U1)).toBe(0);
    for (let i = 1; i <= 9_999; i++) expect(t.slotOf(i * 7)).toBe(i);
    expect(t.slotOf(8)).toBeUndefined();
    expect(t.live).toBe(10_000);
    t.reserve(5); // never shrinks
    expect(t.slotOf(9_999 * 7)).toBe(9_999);
  });

  describe('restore (a saved layout placed at once)', () => {
    it('holds what placing the ids one by one holds: lookups, free slots reused first, order', () => {
      const placed = new IdTracker();
      const ids: [PointId, number][] = [[10, 0], [U1, 1], [2 ** 53 - 1, 3], [UA, 5], [0, 6]];
      for (const [id, slot] of ids) placed.place(id, slot);
      placed.settle();
      const restored = new IdTracker();
      restored.restore(placed.slotIds());
      for (const t of [placed, restored]) {
        expect(t.live).toBe(5);
        expect(t.slotLimit).toBe(7);
        for (const [id, slot] of ids) {
          expect(t.slotOf(id)).toBe(slot);
          expect(t.idOf(slot)).toBe(id);
        }
        expect(sortedIds(t)).toEqual([0, 10, 2 ** 53 - 1, U1, UA]);
        expect(t.acquire(UF)).toEqual({ slot: 2, fresh: true });
        expect(t.acquire(11)).toEqual({ slot: 4, fresh: true });
        expect(t.acquire(12)).toEqual({ slot: 7, fresh: true });
        expect(t.release(U1)).toBe(1);
        expect(t.slotOf(U1)).toBeUndefined();
      }
      expect(restored.slotIds()).toEqual(placed.slotIds());
    });

    it('a large layout: every id found at its slot', () => {
      const r = rng(5);
      const placed = new IdTracker();
      for (let i = 0; i < 20_000; i++) placed.acquire(Math.floor(r() * 2 ** 40));
      const restored = new IdTracker();
      restored.restore(placed.slotIds());
      expect(restored.live).toBe(placed.live);
      for (let slot = 0; slot < placed.slotLimit; slot++) expect(restored.slotOf(placed.idOf(slot)!)).toBe(slot);
    });

    it('refuses a layout that cannot be one, and stays empty', () => {
      const bad: [string, Parameters<IdTracker['restore']>[0], string][] = [
        ['an id twice', { kind: Uint8Array.of(1, 1), num: Float64Array.of(4, 4), uuids: [] }, 'point id 4 at slots 0 and 1'],
        ['a UUID twice', { kind: Uint8Array.of(2, 2), num: new Float64Array(2), uuids: [U1, U1] }, `point id "${U1}" at slots 0 and 1`],
        ['a kind out of range', { kind: Uint8Array.of(1, 3), num: Float64Array.of(4, 0), uuids: [] }, 'slot 1: kind 3'],
        ['an integer id that is not one', { kind: Uint8Array.of(1), num: Float64Array.of(1.5), uuids: [] }, 'slot 0: 1.5 is not a point id'],
        ['a negative id', { kind: Uint8Array.of(1), num: Float64Array.of(-1), uuids: [] }, 'slot 0: -1 is not a point id'],
        ['too few UUIDs', { kind: Uint8Array.of(2, 2), num: new Float64Array(2), uuids: [U1] }, 'slot 1: UUID missing'],
        ['too many UUIDs', { kind: Uint8Array.of(2), num: new Float64Array(1), uuids: [U1, UA] }, '2 UUIDs for 1 UUID slots'],
        ['arrays of other lengths', { kind: Uint8Array.of(1, 1), num: Float64Array.of(4), uuids: [] }, 'slot layout of 2 kinds and 1 ids'],
      ];
      for (const [, layout, message] of bad) {
        const t = new IdTracker();
        expect(() => t.restore(layout)).toThrow(message);
        expect(t.live).toBe(0);
        expect(t.slotLimit).toBe(0);
        expect(t.acquire(4)).toEqual({ slot: 0, fresh: true });
      }
      const used = new IdTracker();
      used.acquire(1);
      expect(() => used.restore({ kind: Uint8Array.of(1), num: Float64Array.of(2), uuids: [] })).toThrow('restore on a tracker in use');
    });
  });
});
