// What the metrics and telemetry ask the shards and workers for: point and vector counts, graph
// saves, memory by kind and per worker thread, and the requests each worker served. Each is read
// through this thread's router, whatever the point mode (a count here is this node's own).
//
// Invariant: nothing here writes; a figure is summed over the collection's shards (one copy each).

import type { IssueRecord, MemoryBytes, ThreadMemory } from '../../shared/shard-reports.js';
import { sumMemory } from '../../shared/shard-results.js';
import type { ShardRouter } from '../../shared/shard-router.js';
import type { CollectionMeta } from '../../shared/types.js';
import type { ShardDispatcher } from '../router/dispatcher.js';

/** One collection's live recall, one kind (filtered or not), merged over the workers (/metrics). */
export interface LiveRecallFigures {
  collection: string;
  filtered: boolean;
  samples: number;
  skipped: number;
  /** Mean recall@k of the recent checks; null while none has been made. */
  recall: number | null;
}

export class Sizes {
  readonly #router: ShardRouter;
  readonly #dispatcher: ShardDispatcher;

  constructor(router: ShardRouter, dispatcher: ShardDispatcher) {
    this.#router = router;
    this.#dispatcher = dispatcher;
  }

  /** Points in the collection, counted by its shards (not exact: the metrics' figure). */
  async pointCount(meta: CollectionMeta): Promise<number> {
    const parts = await this.#router.fanOut(meta, { op: 'count', filter: null, exact: false });
    return parts.reduce((a, b) => a + b, 0);
  }

  /** Points and stored vectors per vector name, summed over the collection's shards. */
  async collectionSize(meta: CollectionMeta): Promise<{ points: number; vectors: Record<string, number> }> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    const vectors: Record<string, number> = {};
    for (const s of shards) for (const [v, n] of Object.entries(s.vectors)) vectors[v] = (vectors[v] ?? 0) + n;
    return { points: shards.reduce((n, s) => n + s.points, 0), vectors };
  }

  /** Background graph saves and writes not yet covered by one, summed over the collection's shards. */
  async graphSaves(meta: CollectionMeta): Promise<{ saves: number; unsaved: number }> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    return { saves: shards.reduce((n, s) => n + s.graphSaves, 0), unsaved: shards.reduce((n, s) => n + s.unsavedWrites, 0) };
  }

  /** Estimated in-memory bytes of the collection by kind, summed over its shards. */
  async collectionMemory(meta: CollectionMeta): Promise<MemoryBytes> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    return sumMemory(shards.map((s) => s.memory));
  }

  /** Each worker thread's V8 heap figures, by worker index (telemetry). */
  workerMemory(): Promise<ThreadMemory[]> {
    return Promise.all(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.memory(w)));
  }

  /** Every worker's issues (GET /issues), cleared after when `clear`. */
  async workerIssues(clear: boolean): Promise<IssueRecord[]> {
    return (await Promise.all(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.issues(w, clear)))).flat();
  }

  /**
   * Live recall per collection and kind (filtered or not), the workers' figures merged: samples
   * and skipped summed, recall the mean of every worker's recent checks (null before the first).
   * Only collections that still exist.
   */
  async liveRecall(current: readonly CollectionMeta[]): Promise<LiveRecallFigures[]> {
    const ids = new Map(current.map((m) => [m.id, m.name]));
    // A worker being replaced answers nothing: the others' figures still count.
    const asked = await Promise.allSettled(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.liveRecall(w, [...ids.keys()])));
    const all = asked.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
    const merged = new Map<string, { collection: string; filtered: boolean; samples: number; skipped: number; sum: number; count: number }>();
    for (const r of all) {
      if (ids.get(r.collectionId) !== r.collection) continue;
      const key = `${r.collectionId}/${r.filtered}`;
      const m = merged.get(key) ?? { collection: r.collection, filtered: r.filtered, samples: 0, skipped: 0, sum: 0, count: 0 };
      m.samples += r.samples;
      m.skipped += r.skipped;
      m.sum += r.windowSum;
      m.count += r.windowCount;
      merged.set(key, m);
    }
    return [...merged.values()]
      .filter((m) => m.count > 0 || m.skipped > 0)
      .map((m) => ({ collection: m.collection, filtered: m.filtered, samples: m.samples, skipped: m.skipped, recall: m.count > 0 ? m.sum / m.count : null }));
  }

  /**
   * Requests each worker served, per op (metrics: which copies serve), whichever thread sent them;
   * without worker threads, those this thread's router sent.
   */
  sentCounts(): { worker: number; op: string; count: number }[] {
    return this.#dispatcher.servedCounts?.() ?? this.#router.sentCounts();
  }
}
