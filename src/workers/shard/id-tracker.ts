// Maps external point ids (integers, UUID strings) to dense shard-local slots and back, with the
// version (operation id) that last wrote each point.
// Invariants: a live id has exactly one slot; a freed slot is on the free list and maps to no id;
// slots are reused before new ones are allocated, so the slot space stays dense.
//
// Layout (issue 14: typed arrays, not a Map and arrays of JS values per point): per slot, a kind
// byte (free, integer id, UUID), the integer id (Float64Array: ids go up to 2^53 - 1) and the
// version (Float64Array); UUID strings only in an array made when the first UUID arrives. The
// id -> slot index is an open-addressing hash table (linear probing, power-of-two size, at most
// 70% full, removal by backward shift so there are no tombstones) whose buckets hold slot + 1
// (0: empty): the key is read from the slot's own arrays, never stored twice. Per-slot arrays
// grow by 25% (grownArray). About 25 bytes per integer-id point against about 70 for the Map and
// arrays before (bench/shard-memory.ts).

import { comparePointIds } from '../../shared/ids.js';
import type { PointId } from '../../shared/types.js';
import { grownArray } from '../storage/capacity.js';

/**
 * Every id by slot, in the tracker's own layout (a saved manifest's, graph-snapshots.ts): per slot
 * below `kind.length` a kind (0 free, 1 integer in `num`, 2 UUID), and the UUIDs of the UUID slots
 * in slot order.
 */
export interface SlotIds {
  kind: Uint8Array;
  num: Float64Array;
  uuids: string[];
}

export const SLOT_FREE = 0;
export const SLOT_INT = 1;
export const SLOT_UUID = 2;

export interface IdTrackerRead {
  readonly live: number;
  slotOf(id: PointId): number | undefined;
  idOf(slot: number): PointId | undefined;
  versionOf(slot: number): number;
  /** Live slots in external id order (integers first, then UUIDs). Cached until ids change. */
  sortedSlots(): Int32Array;
  /** Upper bound (exclusive) of slots ever allocated. */
  readonly slotLimit: number;
  /** A copy of every id by slot (what a save keeps). */
  slotIds(): SlotIds;
}

// Made once: place() runs once per point at every load, and a closure per call was garbage.
const makeU8 = (n: number): Uint8Array<ArrayBuffer> => new Uint8Array(n);
const makeF64 = (n: number): Float64Array<ArrayBuffer> => new Float64Array(n);
const makeI32 = (n: number): Int32Array<ArrayBuffer> => new Int32Array(n);

const FREE = SLOT_FREE;
const INT = SLOT_INT;
const UUID = SLOT_UUID;
const MAX_LOAD = 0.7;
const TWO_32 = 2 ** 32;

/** A 32-bit hash of an id (integers: both 32-bit halves mixed; UUIDs: FNV-1a over the characters). */
function hashOf(id: PointId): number {
  let h: number;
  if (typeof id === 'number') {
    h = Math.imul((id >>> 0) ^ Math.imul(Math.floor(id / TWO_32), 0x9e3779b1), 0x85ebca6b);
  } else {
    h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class IdTracker implements IdTrackerRead {
  #kind = new Uint8Array(0);
  #num = new Float64Array(0);
  #versions = new Float64Array(0);
  #uuids: (string | undefined)[] | null = null;
  #table = new Int32Array(16);
  #free = new Int32Array(0);
  #freeTop = 0;
  #limit = 0;
  #live = 0;
  #sorted: Int32Array | null = null;

  get live(): number {
    return this.#live;
  }

  get slotLimit(): number {
    return this.#limit;
  }

  /** Bytes of the typed arrays (UUID strings not counted). */
  get bytes(): number {
    return this.#kind.byteLength + this.#num.byteLength + this.#versions.byteLength + this.#table.byteLength + this.#free.byteLength + (this.#sorted?.byteLength ?? 0) + (this.#uuids?.length ?? 0) * 8;
  }

  #matches(slot: number, id: PointId): boolean {
    return typeof id === 'number' ? this.#kind[slot] === INT && this.#num[slot] === id : this.#kind[slot] === UUID && this.#uuids![slot] === id;
  }

  /** The bucket holding `id`, or the empty bucket where it would go. */
  #bucket(id: PointId): number {
    const mask = this.#table.length - 1;
    let i = hashOf(id) & mask;
    for (;;) {
      const e = this.#table[i]!;
      if (e === 0 || this.#matches(e - 1, id)) return i;
      i = (i + 1) & mask;
    }
  }

  slotOf(id: PointId): number | undefined {
    const e = this.#table[this.#bucket(id)]!;
    return e === 0 ? undefined : e - 1;
  }

  idOf(slot: number): PointId | undefined {
    const k = this.#kind[slot];
    return k === INT ? this.#num[slot]! : k === UUID ? this.#uuids![slot] : undefined;
  }

  versionOf(slot: number): number {
    return slot < this.#limit ? this.#versions[slot]! : 0;
  }

  /** The slot for `id`, allocating one if the id is new. `fresh` tells which. */
  acquire(id: PointId): { slot: number; fresh: boolean } {
    const existing = this.slotOf(id);
    if (existing !== undefined) return { slot: existing, fresh: false };
    return { slot: this.slotFor(id), fresh: true };
  }

  /** acquire()'s slot alone: no object per call (a load's pass calls it once per point). */
  slotFor(id: PointId): number {
    const e = this.#table[this.#bucket(id)]!;
    if (e !== 0) return e - 1;
    const slot = this.#freeTop > 0 ? this.#free[--this.#freeTop]! : this.#limit;
    this.place(id, slot);
    return slot;
  }

  /**
   * Sizes the id table for `count` ids at once (a load that knows how many it places), instead
   * of doubling it through every power of two on the way.
   */
  reserve(count: number): void {
    let size = this.#table.length;
    while (count / size > MAX_LOAD) size *= 2;
    if (size > this.#table.length) this.#rehash(size);
  }

  /** Puts `id` at a given slot (restoring a saved layout); call settle() when all are placed. */
  place(id: PointId, slot: number): void {
    if (slot >= this.#limit) {
      if (slot >= this.#kind.length) {
        this.#kind = grownArray(this.#kind, slot + 1, makeU8);
        this.#num = grownArray(this.#num, slot + 1, makeF64);
        this.#versions = grownArray(this.#versions, slot + 1, makeF64);
      }
      this.#limit = slot + 1;
    }
    if (typeof id === 'number') {
      this.#kind[slot] = INT;
      this.#num[slot] = id;
    } else {
      this.#kind[slot] = UUID;
      (this.#uuids ??= [])[slot] = id;
    }
    this.#versions[slot] = 0;
    if ((this.#live + 1) / this.#table.length > MAX_LOAD) this.#rehash(this.#table.length * 2);
    this.#table[this.#bucket(id)] = slot + 1;
    this.#live++;
    this.#sorted = null;
  }

  slotIds(): SlotIds {
    const uuids: string[] = [];
    if (this.#uuids !== null) for (let slot = 0; slot < this.#limit; slot++) if (this.#kind[slot] === UUID) uuids.push(this.#uuids[slot]!);
    return { kind: this.#kind.slice(0, this.#limit), num: this.#num.slice(0, this.#limit), uuids };
  }

  /**
   * Places every id of a saved layout at its slot at once (a load: issue 14, one pass over typed
   * arrays instead of a place() per id), then settles. Only on an empty tracker. Throws on a
   * layout that cannot be one (a kind out of range, an integer id that is not one, too few UUIDs,
   * an id twice).
   */
  restore(ids: SlotIds): void {
    if (this.#limit !== 0 || this.#live !== 0) throw new Error('restore on a tracker in use');
    const limit = ids.kind.length;
    if (ids.num.length !== limit) throw new Error(`slot layout of ${limit} kinds and ${ids.num.length} ids`);
    const kind = new Uint8Array(limit);
    kind.set(ids.kind);
    const num = new Float64Array(limit);
    num.set(ids.num);
    let live = 0;
    let u = 0;
    let uuids: (string | undefined)[] | null = null;
    for (let slot = 0; slot < limit; slot++) {
      const k = kind[slot]!;
      if (k === FREE) continue;
      live++;
      if (k === INT) {
        const n = num[slot]!;
        if (!Number.isSafeInteger(n) || n < 0) throw new Error(`slot ${slot}: ${n} is not a point id`);
      } else if (k === UUID) {
        const id = ids.uuids[u++];
        if (id === undefined) throw new Error(`slot ${slot}: UUID missing`);
        (uuids ??= new Array<string | undefined>(limit))[slot] = id;
      } else throw new Error(`slot ${slot}: kind ${k}`);
    }
    if (u !== ids.uuids.length) throw new Error(`${ids.uuids.length} UUIDs for ${u} UUID slots`);
    let size = 16;
    while (live / size > MAX_LOAD) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let slot = 0; slot < limit; slot++) {
      const k = kind[slot]!;
      if (k === FREE) continue;
      const id = k === INT ? num[slot]! : uuids![slot]!;
      let i = hashOf(id) & mask;
      for (;;) {
        const e = table[i]!;
        if (e === 0) break;
        if (this.#matchesIn(kind, num, uuids, e - 1, id)) throw new Error(`point id ${JSON.stringify(id)} at slots ${e - 1} and ${slot}`);
        i = (i + 1) & mask;
      }
      table[i] = slot + 1;
    }
    // Nothing changes before the layout passed every check.
    this.#kind = kind;
    this.#num = num;
    this.#versions = new Float64Array(limit);
    this.#uuids = uuids;
    this.#limit = limit;
    this.#table = table;
    this.#live = live;
    this.#sorted = null;
    this.settle();
  }

  #matchesIn(kind: Uint8Array, num: Float64Array, uuids: (string | undefined)[] | null, slot: number, id: PointId): boolean {
    return typeof id === 'number' ? kind[slot] === INT && num[slot] === id : kind[slot] === UUID && uuids![slot] === id;
  }

  #rehash(size: number): void {
    const old = this.#table;
    this.#table = new Int32Array(size);
    const mask = size - 1;
    for (const e of old) {
      if (e === 0) continue;
      let i = hashOf(this.idOf(e - 1)!) & mask;
      while (this.#table[i] !== 0) i = (i + 1) & mask;
      this.#table[i] = e;
    }
  }

  /** After placement: every slot below the limit that holds no id is free for reuse. */
  settle(): void {
    this.#freeTop = 0;
    for (let slot = this.#limit - 1; slot >= 0; slot--) if (this.#kind[slot] === FREE) this.#pushFree(slot);
  }

  #pushFree(slot: number): void {
    this.#free = grownArray(this.#free, this.#freeTop + 1, makeI32, 16);
    this.#free[this.#freeTop++] = slot;
  }

  setVersion(slot: number, version: number): void {
    this.#versions[slot] = version;
  }

  release(id: PointId): number | undefined {
    let i = this.#bucket(id);
    const e = this.#table[i]!;
    if (e === 0) return undefined;
    const slot = e - 1;
    // Backward-shift deletion: later entries of the probe run move up so no lookup stops early.
    const mask = this.#table.length - 1;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const f = this.#table[j]!;
      if (f === 0) break;
      const home = hashOf(this.idOf(f - 1)!) & mask;
      // f may move to i when its home is not cyclically within (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        this.#table[i] = f;
        i = j;
      }
    }
    this.#table[i] = 0;
    this.#kind[slot] = FREE;
    if (this.#uuids !== null) this.#uuids[slot] = undefined;
    this.#live--;
    this.#pushFree(slot);
    this.#sorted = null;
    return slot;
  }

  sortedSlots(): Int32Array {
    if (this.#sorted === null) {
      const out = new Int32Array(this.#live);
      let n = 0;
      for (let slot = 0; slot < this.#limit; slot++) if (this.#kind[slot] !== FREE) out[n++] = slot;
      out.sort((a, b) => comparePointIds(this.idOf(a)!, this.idOf(b)!));
      this.#sorted = out;
    }
    return this.#sorted;
  }
}
