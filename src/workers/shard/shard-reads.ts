// One shard's reads, over its memory only (ShardState; LMDB is never read here): filters
// compiled against the payloads and ids, points retrieved, counted, scrolled (by id or by an
// indexed key), sampled and faceted, searches (the choice of exact or HNSW search is
// search-planner.ts's), and the shard's info and memory estimate. The writes use the filter
// helpers (predicate, matching) to pick their targets.
//
// Invariant: reads never change memory; they see every write at once, its LMDB commit or not.

import { type CustomScore, type FacetValue, type OrderBySpec, type OrderedRecord, type SearchSpec, type SparseVec } from '../../shared/protocol.js';
import type { MemoryBytes, ShardInfo, StoredBytes } from '../../shared/shard-reports.js';
import { missingRangeIndex } from '../../shared/shard-results.js';
import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import { asymmetricBinary, effectiveHnsw } from '../../shared/hnsw-params.js';
import { searchCustom, searchCustomSparse } from './custom-search.js';
import { searchMulti } from './multi-search.js';
import { comparePointIds } from '../../shared/ids.js';
import type { PayloadSelector, PointId, PointRecord, ScoredPoint, VectorSelector } from '../../shared/types.js';
import { RangeIndex } from '../index/payload-index.js';
import { compileFilter, type FilterView } from './filter-eval.js';
import { orderedEntries } from './order-by.js';
import { facetCounts } from './payload-space.js';
import { searchDense, searchSparse, type Scored } from './search-planner.js';
import { selectPayload, selectVector, VectorCopies } from './select.js';
import type { ShardState } from './shard-state.js';

export class ShardReads {
  readonly #s: ShardState;
  readonly #view: FilterView;

  constructor(state: ShardState) {
    this.#s = state;
    this.#view = {
      payload: (slot) => state.payloads.get(slot),
      id: (slot) => state.ids.idOf(slot)!,
      hasVector: (slot, name) => state.hasVector(slot, name),
      textIndex: (key) => state.payloads.textParams(key),
      indexMatch: (key, match) => state.payloads.index(key)?.matcher?.(match) ?? null,
    };
  }

  /** Candidate slots from the payload indexes, or null when no index narrows the filter. */
  #candidates(filter: Filter | null): Set<number> | null {
    return filter === null ? null : this.#s.payloads.candidates(filter, (id) => this.#s.ids.slotOf(id));
  }

  /** Candidate slots in external id order. */
  #sortedById(slots: Iterable<number>): number[] {
    return [...slots].sort((a, b) => comparePointIds(this.#s.ids.idOf(a)!, this.#s.ids.idOf(b)!));
  }

  predicate(filter: Filter | null): ((slot: number) => boolean) | null {
    return filter === null ? null : compileFilter(filter, this.#view);
  }

  /** Slots matching the filter: the index's candidates (or every live slot), refined by the predicate. */
  #matchingSlots(filter: Filter | null): number[] {
    const pred = this.predicate(filter);
    const out: number[] = [];
    for (const slot of this.#candidates(filter) ?? this.#s.ids.sortedSlots()) if (pred === null || pred(slot)) out.push(slot);
    return out;
  }

  /**
   * `limit` distinct slots drawn at random among the points and kept when the filter lets them
   * through, which is a uniform sample of the matching ones; null when 4 x limit draws (or a small
   * shard) do not find them, and the caller scans. A filter most points pass (has_vector, say) then
   * costs `limit` draws, not a predicate over every point.
   */
  #drawMatching(limit: number, filter: Filter | null): number[] | null {
    const all = this.#s.ids.sortedSlots();
    if (filter === null || all.length <= limit * 8) return null;
    const pred = this.predicate(filter)!;
    const seen = new Set<number>();
    const out: number[] = [];
    for (let tries = 0; tries < limit * 4 && out.length < limit; tries++) {
      const slot = all[Math.floor(Math.random() * all.length)]!;
      if (seen.has(slot)) continue;
      seen.add(slot);
      if (pred(slot)) out.push(slot);
    }
    return out.length === limit ? out : null;
  }

  /** Ids of the points matching the filter (a write's targets). */
  matching(filter: Filter | null): PointId[] {
    return this.#matchingSlots(filter).map((slot) => this.#s.ids.idOf(slot)!);
  }

  #record(slot: number, withPayload: PayloadSelector, withVector: VectorSelector, copies?: VectorCopies): PointRecord {
    const rec: PointRecord = { id: this.#s.ids.idOf(slot)! };
    const payload = selectPayload(this.#s.payloads.get(slot), withPayload);
    if (payload !== undefined) rec.payload = payload;
    const vector = selectVector(this.#s.names, withVector, (name) => {
      const space = this.#s.spaces.get(name);
      if (space !== undefined) return space.has(slot) ? space.vector(slot) : undefined;
      const multi = this.#s.multi.get(name);
      if (multi !== undefined) return multi.rowsOf(slot);
      return this.#s.sparse.get(name)?.get(slot);
    }, copies);
    if (vector !== undefined) rec.vector = vector;
    return rec;
  }

  /**
   * Facet counts: every distinct value of the indexed `key` among the points matching `filter`,
   * with how many points hold it (a point counts once per value). Values of another type than
   * the index's are not counted, as the index does not hold them. With `top`, only the `top`
   * most frequent values are returned (ties by value), which bounds the answer for keys with many
   * distinct values.
   */
  facet(key: string, filter: Filter | null, top: number | null): { values: FacetValue[]; counts: number[] } {
    const index = this.#s.payloads.index(key);
    if (index === undefined) throw QuiverError.badInput(`No index for facet key \`${key}\``);
    return facetCounts(index, this.#matchingSlots(filter), top);
  }

  /** A point that does not match `filter` (a tenant binding's) is left out, as a missing one is. */
  retrieve(ids: PointId[], withPayload: PayloadSelector, withVector: VectorSelector, filter: Filter | null = null): PointRecord[] {
    const out: PointRecord[] = [];
    const copies = new VectorCopies();
    const pred = this.predicate(filter);
    for (const id of ids) {
      const slot = this.#s.ids.slotOf(id);
      if (slot !== undefined && (pred === null || pred(slot))) out.push(this.#record(slot, withPayload, withVector, copies));
    }
    return out;
  }

  /** Exact, or (exact=false) the index's candidate count where an index narrows the filter. */
  count(filter: Filter | null, exact: boolean): number {
    if (filter === null) return this.#s.ids.live;
    const candidates = this.#candidates(filter);
    if (!exact && candidates !== null) return candidates.size;
    const pred = this.predicate(filter)!;
    let n = 0;
    for (const slot of candidates ?? this.#s.ids.sortedSlots()) if (pred(slot)) n++;
    return n;
  }

  /** Up to `limit` points with id >= offset, in id order. */
  scroll(offset: PointId | null, limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    // Index candidates pay a sort by id; worth it only when they are few. A broad filter is
    // cheaper walked in id order, stopping at `limit`.
    const fromIndex = this.#candidates(filter);
    const candidates = fromIndex !== null && fromIndex.size * 8 < this.#s.ids.live ? fromIndex : null;
    const sorted = candidates === null ? this.#s.ids.sortedSlots() : this.#sortedById(candidates);
    let lo = 0;
    if (offset !== null) {
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (comparePointIds(this.#s.ids.idOf(sorted[mid]!)!, offset) < 0) lo = mid + 1;
        else hi = mid;
      }
    }
    const pred = this.predicate(filter);
    const out: PointRecord[] = [];
    const copies = new VectorCopies();
    for (let i = lo; i < sorted.length && out.length < limit; i++) {
      const slot = sorted[i]!;
      if (pred === null || pred(slot)) out.push(this.#record(slot, withPayload, withVector, copies));
    }
    return out;
  }

  /**
   * Up to `limit` entries in the order of an indexed numeric or datetime key, from `startFrom`
   * (inclusive) on, as Qdrant: a point with several values appears once per distinct value, with
   * that value as order_value; ties by point id (see compareOrdered). A datetime index holds
   * milliseconds; its order_value (and startFrom) is in microseconds, as Qdrant's.
   */
  scrollOrdered(order: OrderBySpec, limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): OrderedRecord[] {
    const index = this.#s.payloads.index(order.key);
    if (!(index instanceof RangeIndex)) throw QuiverError.badInput(missingRangeIndex(order.key));
    const hits = orderedEntries(index, order, limit, this.predicate(filter), (slot) => this.#s.ids.idOf(slot)!);
    const copies = new VectorCopies();
    return hits.map((h) => ({ ...this.#record(h.slot, withPayload, withVector, copies), order_value: h.value }));
  }

  /** Up to `limit` matching points drawn at random (Fisher-Yates over the matches). */
  sample(limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const drawn = this.#drawMatching(limit, filter);
    const copies = new VectorCopies();
    if (drawn !== null) return drawn.map((slot) => this.#record(slot, withPayload, withVector, copies));
    const pool = this.#matchingSlots(filter);
    const n = Math.min(limit, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, n).map((slot) => this.#record(slot, withPayload, withVector, copies));
  }

  /** Points having the sparse vector, and per term how many of them hold it (for idf). */
  sparseStats(name: string, terms: readonly number[]): { points: number; df: number[] } {
    const index = this.#s.sparseIndex(name);
    return { points: index.size, df: terms.map((t) => index.df(t)) };
  }

  /** Records of the top (slot, score) pairs, score_threshold applied for dense ones. */
  #scored(hits: Scored[], spec: SearchSpec, higherIsBetter: boolean): ScoredPoint[] {
    const out: ScoredPoint[] = [];
    const copies = new VectorCopies();
    // Most searches ask for neither payload nor vector: one literal per hit, no record to spread.
    const bare = spec.withPayload.kind === 'none' && spec.withVector.kind === 'none';
    for (const { slot, score } of hits) {
      if (spec.scoreThreshold !== null) {
        if (higherIsBetter ? score < spec.scoreThreshold : score > spec.scoreThreshold) continue;
      }
      if (bare) out.push({ id: this.#s.ids.idOf(slot)!, version: this.#s.ids.versionOf(slot), score });
      else out.push({ ...this.#record(slot, spec.withPayload, spec.withVector, copies), version: this.#s.ids.versionOf(slot), score });
    }
    return out;
  }

  search(spec: SearchSpec): ScoredPoint[] {
    const predicate = this.predicate(spec.filter);
    if (spec.sparse !== null && spec.custom !== undefined) {
      const hits = searchCustomSparse(this.#s.sparseIndex(spec.vector), spec, spec.custom as CustomScore<SparseVec>, { ids: this.#s.ids, predicate });
      return this.#scored(hits, spec, true);
    }
    if (spec.sparse !== null) {
      const hits = searchSparse(this.#s.sparseIndex(spec.vector), spec.sparse, spec, { ids: this.#s.ids, predicate });
      return this.#scored(hits, spec, true);
    }
    const multi = this.#s.multi.get(spec.vector);
    if (multi !== undefined) {
      const hits = searchMulti(multi, spec, { ids: this.#s.ids, predicate, indexCandidates: () => this.#candidates(spec.filter) });
      return this.#scored(hits, spec, spec.custom !== undefined || multi.higherIsBetter);
    }
    const space = this.#s.space(spec.vector);
    const ctx = {
      ids: this.#s.ids,
      predicate,
      indexCandidates: () => this.#candidates(spec.filter),
      fullScanKb: effectiveHnsw(this.#s.meta, spec.vector).full_scan_threshold,
      asymmetric: asymmetricBinary(this.#s.meta, spec.vector),
    };
    if (spec.custom !== undefined) return this.#scored(searchCustom(space, spec, spec.custom as CustomScore, ctx), spec, true);
    return this.#scored(searchDense(space, spec, ctx), spec, space.metric.higherIsBetter);
  }

  /** The shard's figures for shardInfo; `graphSaves`: the background saves so far and the writes none covers. */
  info(worker: number, graphSaves: { saves: number; unsaved: number }, loadMs: number): ShardInfo {
    const indexedVectors: Record<string, number> = {};
    const vectors: Record<string, number> = {};
    for (const space of this.#s.spaces.values()) {
      indexedVectors[space.name] = space.indexedCount;
      vectors[space.name] = space.count();
    }
    for (const [name, index] of this.#s.sparse) {
      indexedVectors[name] = index.size;
      vectors[name] = index.size;
    }
    // No graph over multivectors: none of them is indexed (multi-space.ts).
    for (const space of this.#s.multiList) {
      indexedVectors[space.name] = 0;
      vectors[space.name] = space.size;
    }
    const indexedPayload = this.#s.payloads.indexedPoints();
    return {
      shard: this.#s.shard,
      worker,
      points: this.#s.ids.live,
      indexedVectors,
      vectors,
      indexedPayload,
      rebuilding: this.#s.rebuilding,
      catchingUp: this.#s.behind,
      secondary: this.#s.secondary,
      graphSaves: graphSaves.saves,
      unsavedWrites: graphSaves.unsaved,
      memory: this.memory(),
      stored: this.storedBytes(),
      loadMs,
    };
  }

  /** Bytes of the live vectors (each dense row 4 bytes a dimension) and payloads (see StoredBytes). */
  storedBytes(): StoredBytes {
    let vectors = 0;
    for (const space of this.#s.spaces.values()) vectors += space.count() * space.dim * 4;
    for (const index of this.#s.sparse.values()) vectors += index.dataBytes;
    for (const space of this.#s.multiList) vectors += space.bytes;
    return { points: this.#s.ids.live, vectors, payload: this.#s.payloads.storedBytes };
  }

  /** Estimated in-memory bytes by kind (see MemoryBytes). */
  memory(): MemoryBytes {
    const out: MemoryBytes = { vectors: 0, graph: 0, payload_index: this.#s.payloads.indexBytes, ids: this.#s.ids.bytes };
    for (const space of this.#s.spaces.values()) {
      const m = space.memory();
      out.vectors += m.vectors;
      out.graph += m.graph;
    }
    for (const index of this.#s.sparse.values()) out.vectors += index.bytes;
    for (const space of this.#s.multiList) out.vectors += space.bytes;
    return out;
  }
}
