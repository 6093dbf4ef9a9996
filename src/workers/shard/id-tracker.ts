// Maps external point ids (integers, UUID strings) to dense shard-local slots and back, with the
// version (operation id) that last wrote each point.
// Invariants: a live id has exactly one slot; a freed slot is on the free list and maps to no id;
// slots are reused before new ones are allocated, so the slot space stays dense.

import { comparePointIds } from '../../shared/ids.js';
import type { PointId } from '../../shared/types.js';

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

export class IdTracker implements IdTrackerRead {
  readonly #slots = new Map<PointId, number>();
  readonly #ids: (PointId | undefined)[] = [];
  readonly #versions: number[] = [];
  readonly #free: number[] = [];
  #sorted: Int32Array | null = null;

  get live(): number {
    return this.#slots.size;
  }

  get slotLimit(): number {
    return this.#ids.length;
  }

  slotOf(id: PointId): number | undefined {
    return this.#slots.get(id);
  }

  idOf(slot: number): PointId | undefined {
    return this.#ids[slot];
  }

  versionOf(slot: number): number {
    return this.#versions[slot] ?? 0;
  }

  /** The slot for `id`, allocating one if the id is new. `fresh` tells which. */
  acquire(id: PointId): { slot: number; fresh: boolean } {
    const existing = this.#slots.get(id);
    if (existing !== undefined) return { slot: existing, fresh: false };
    const slot = this.#free.pop() ?? this.#ids.length;
    this.#slots.set(id, slot);
    this.#ids[slot] = id;
    this.#versions[slot] = 0;
    this.#sorted = null;
    return { slot, fresh: true };
  }

  /** Puts `id` at a given slot (restoring a saved layout); call settle() when all are placed. */
  place(id: PointId, slot: number): void {
    this.#slots.set(id, slot);
    this.#ids[slot] = id;
    this.#versions[slot] = 0;
    this.#sorted = null;
  }

  /** After placement: every slot below the limit that holds no id is free for reuse. */
  settle(): void {
    this.#free.length = 0;
    for (let slot = this.#ids.length - 1; slot >= 0; slot--) if (this.#ids[slot] === undefined) this.#free.push(slot);
  }

  setVersion(slot: number, version: number): void {
    this.#versions[slot] = version;
  }

  release(id: PointId): number | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    this.#slots.delete(id);
    this.#ids[slot] = undefined;
    this.#free.push(slot);
    this.#sorted = null;
    return slot;
  }

  sortedSlots(): Int32Array {
    if (this.#sorted === null) {
      const ids = [...this.#slots.keys()].sort(comparePointIds);
      const out = new Int32Array(ids.length);
      for (let i = 0; i < ids.length; i++) out[i] = this.#slots.get(ids[i]!)!;
      this.#sorted = out;
    }
    return this.#sorted;
  }
}
