// The payloads of one shard, by slot, and the field indexes over them.
//
// Payloads are held as JS objects in the worker's heap, or, with the collection's on_disk_payload
// (docs/storage.md, "Payloads on disk"), only in the points' LMDB records: then a payload is read
// back through the shard's reader (the newest write whose record is not committed yet, else the
// memory-mapped record) where a filter on an unindexed key, a payload operation or a response
// needs it, and memory holds only what the field indexes index. A read copy never writes LMDB, so
// it keeps its payloads in memory whatever the setting.
//
// Invariants: every index holds exactly the current payload of every live slot (set() reindexes
// the slot in every index; an index created later is filled from the payloads at once). On disk, a
// payload set by a write is staged until its record takes it (take), so reads see it meanwhile.

import type { Filter } from '../../shared/filter.js';
import { type FacetValue } from '../../shared/protocol.js';
import { compareFacetValues } from '../../shared/shard-results.js';
import type { FieldIndexSchema, Payload, PointId, TextIndexParams } from '../../shared/types.js';
import { createFieldIndex, planCandidates, type FieldIndex } from '../index/payload-index.js';
import { fieldValues, parsePath, type PathPart } from './filter-eval.js';

/** A live slot's payload from outside memory: the newest uncommitted write's, else its LMDB record's. */
export type PayloadReader = (slot: number) => Payload | null;

export class PayloadSpace {
  /** By slot, where payloads are held in memory; null: on disk (read through `#reader`). */
  #payloads: (Payload | null)[] | null = [];
  /** On disk: payloads written whose records have not taken them yet (see take). */
  readonly #staged = new Map<number, Payload | null>();
  readonly #reader: PayloadReader;
  readonly #indexes = new Map<string, FieldIndex>();
  readonly #paths = new Map<string, PathPart[]>();
  /** By slot, the bytes of the payload's JSON as stored (see sized), and their sum. */
  #sizes = new Uint32Array(1024);
  #bytes = 0;

  /** `onDisk`: payloads are read through `reader` rather than held (see the file comment). */
  constructor(reader: PayloadReader, onDisk = false) {
    this.#reader = reader;
    if (onDisk) this.#payloads = null;
  }

  get onDisk(): boolean {
    return this.#payloads === null;
  }

  /** Whether any field is indexed. */
  get indexed(): boolean {
    return this.#indexes.size > 0;
  }

  get(slot: number): Payload | null {
    if (this.#payloads !== null) return this.#payloads[slot] ?? null;
    const staged = this.#staged.get(slot);
    if (staged !== undefined || this.#staged.has(slot)) return staged ?? null;
    return this.#reader(slot);
  }

  /**
   * The slot's payload from now on (null: none), reindexed. `stored`: the payload is the slot's
   * LMDB record's already (a load), so on disk nothing is staged.
   */
  set(slot: number, payload: Payload | null, stored = false): void {
    if (this.#payloads !== null) this.#payloads[slot] = payload;
    else if (!stored) this.#staged.set(slot, payload);
    this.#reindex(slot, payload);
  }

  /** The slot is gone (its point deleted): nothing held for it, unindexed. */
  remove(slot: number): void {
    if (this.#payloads !== null) this.#payloads[slot] = null;
    else this.#staged.delete(slot);
    this.#reindex(slot, null);
    this.sized(slot, 0);
  }

  /** The slot's payload is `bytes` of JSON as stored (a write's record, or a load's). */
  sized(slot: number, bytes: number): void {
    if (slot >= this.#sizes.length) {
      if (bytes === 0) return;
      const grown = new Uint32Array(Math.max(slot + 1, this.#sizes.length * 2));
      grown.set(this.#sizes);
      this.#sizes = grown;
    }
    this.#bytes += bytes - this.#sizes[slot]!;
    this.#sizes[slot] = bytes;
  }

  /** Bytes of the live payloads' JSON: strict mode's payload storage size. */
  get storedBytes(): number {
    return this.#bytes;
  }

  /**
   * The payload a write's record is given. On disk it leaves memory here: from now on the record
   * (or the write's pending entry until it commits) holds it.
   */
  take(slot: number): Payload | null {
    const payload = this.get(slot);
    this.#staged.delete(slot);
    return payload;
  }

  /**
   * Moves the payloads of `slots` (every live one) into memory or out of it (a PATCH of
   * on_disk_payload). Staged payloads are already on their way into their records.
   */
  setOnDisk(onDisk: boolean, slots: Iterable<number>): void {
    if (onDisk === this.onDisk) return;
    if (onDisk) {
      this.#payloads = null;
      return;
    }
    const held: (Payload | null)[] = [];
    for (const slot of slots) held[slot] = this.get(slot);
    this.#payloads = held;
    this.#staged.clear();
  }

  #reindex(slot: number, payload: Payload | null): void {
    for (const [key, index] of this.#indexes) {
      index.remove(slot);
      if (payload) index.add(slot, fieldValues(payload, this.#paths.get(key)!));
    }
  }

  /** Builds (or rebuilds) the index on `key` from the payloads of `slots` (every live one). */
  createIndex(key: string, schema: FieldIndexSchema, slots: Iterable<number>): void {
    const index = createFieldIndex(schema);
    const path = parsePath(key);
    for (const slot of slots) {
      const payload = this.get(slot);
      if (payload) index.add(slot, fieldValues(payload, path));
    }
    this.#indexes.set(key, index);
    this.#paths.set(key, path);
  }

  /** Estimated bytes of the field indexes (the payloads themselves not counted). */
  get indexBytes(): number {
    let n = 0;
    for (const index of this.#indexes.values()) n += index.bytes;
    return n;
  }

  dropIndex(key: string): void {
    this.#indexes.delete(key);
    this.#paths.delete(key);
  }

  index(key: string): FieldIndex | undefined {
    return this.#indexes.get(key);
  }

  /** The text index parameters of `key`, when its index is a text one (filters tokenize with them). */
  textParams(key: string): TextIndexParams | undefined {
    const schema = this.index(key)?.schema;
    return schema?.type === 'text' ? schema.text : undefined;
  }

  /** Candidate slots for the filter from the indexes, or null when no index narrows it. */
  candidates(filter: Filter, slotOf: (id: PointId) => number | undefined): Set<number> | null {
    return planCandidates(filter, this.#indexes, (ids) => {
      const out = new Set<number>();
      for (const id of ids) {
        const slot = slotOf(id);
        if (slot !== undefined) out.add(slot);
      }
      return out;
    });
  }

  /** Per indexed key, how many points have an indexed value. */
  indexedPoints(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, index] of this.#indexes) out[key] = index.points;
    return out;
  }
}

/**
 * Facet counts over `slots` of the values `index` holds (a point counts once per value). With
 * `top`, only the `top` most frequent values are kept (ties by value).
 */
export function facetCounts(index: FieldIndex, slots: Iterable<number>, top: number | null): { values: FacetValue[]; counts: number[] } {
  const counts = new Map<FacetValue, number>();
  for (const slot of slots) {
    for (const fv of index.facetValues?.(slot) ?? []) counts.set(fv, (counts.get(fv) ?? 0) + 1);
  }
  let entries = [...counts];
  if (top !== null && entries.length > top) {
    entries.sort((a, b) => b[1] - a[1] || compareFacetValues(a[0], b[0]));
    entries = entries.slice(0, top);
  }
  return { values: entries.map((e) => e[0]), counts: entries.map((e) => e[1]) };
}
