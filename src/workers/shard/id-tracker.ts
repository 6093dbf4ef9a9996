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

export interface IdTrackerRead {
  readonly live: number;
  slotOf(id: PointId): number | undefined;
  idOf(slot: number): PointId | undefined;
  versionOf(slot: number): number;
  /** Live slots in external id order (integers first, then UUIDs). Cached until ids change. */
  sortedSlots(): Int32Array;
  /** Upper bound (exclusive) of slots ever allocated. */
  readonly slotLimit: number;
}

// Made once: place() runs once per point at every load, and a closure per call was garbage.
const makeU8 = (n: number): Uint8Array<ArrayBuffer> => new Uint8Array(n);
const makeF64 = (n: number): Float64Array<ArrayBuffer> => new Float64Array(n);
const makeI32 = (n: number): Int32Array<ArrayBuffer> => new Int32Array(n);

const FREE = 0;
const INT = 1;
const UUID = 2;
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
    const slot = this.#freeTop > 0 ? this.#free[--this.#freeTop]! : this.#limit;
    this.place(id, slot);
    return { slot, fresh: true };
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
