// When and how one shard saves its HNSW graphs (the files are graph-snapshots.ts's): in the
// background as the policy asks (every N writes or T seconds), at a clean shutdown, never for a
// copy that does not save (saveGraphs false, or a secondary). Counts the writes a save does not
// cover yet, for the policy and for shardInfo.
//
// Invariants: one save at a time; a save captures the graphs at the current write sequence and
// writes them only after the last write's commit, so it covers committed data only; the shard's
// writes wait (writeHold) from the capture until the manifest is switched; no background save
// starts while replayed rows wait to be added to a graph (ShardState.behind; a shutdown save adds
// them first).

import type { ShardState } from './shard-state.js';

/** When a shard saves its graphs in the background (config `graph_save_writes` / `graph_save_seconds`). */
export interface GraphSavePolicy {
  /** Save after this many writes since the last save (0: never by count). */
  everyWrites: number;
  /** Save when this many seconds passed since the last save and anything was written (0: never by time). */
  everySeconds: number;
}

export const DEFAULT_SAVE_POLICY: GraphSavePolicy = { everyWrites: 0, everySeconds: 0 };

export class ShardSaves {
  readonly #s: ShardState;
  /** The sequence the newest saved graphs cover (-1: none, or they are known to be behind). */
  #savedSeq = -1;
  #writesSinceSave = 0;
  #lastSaveAt = Date.now();
  #saves = 0;
  /** A maybeSave is queued for the end of this turn's writes (see #saveSoon). */
  #saveQueued = false;
  /** The last write's commit: a save waits for it, so the graphs never cover an uncommitted write. */
  #lastCommit: Promise<unknown> | null = null;
  /** Set while a save is in flight (graph files written, checksummed, manifest switched): writes wait for it (hnswlib reads the graph off-thread; see #save). */
  #hold: Promise<void> | null = null;
  /** The whole save in flight, checksums and manifest included. */
  #saving: Promise<void> | null = null;
  readonly #saveGraphs: boolean;
  readonly #policy: GraphSavePolicy;
  /** The graph objects the last save or load left: one replaced since (a rebuild with new parameters) must be saved. */
  readonly #savedIndexes = new Map<string, unknown>();

  constructor(state: ShardState, saveGraphs: boolean, policy: GraphSavePolicy) {
    this.#s = state;
    this.#saveGraphs = saveGraphs;
    this.#policy = policy;
  }

  /** False for a copy that never writes graph files. */
  get enabled(): boolean {
    return this.#saveGraphs;
  }

  /** Writes still to wait for before a write may run (a save is writing the graphs), or null. */
  get writeHold(): Promise<void> | null {
    return this.#hold;
  }

  /** Resolves once no save is in flight (before a drop deletes the files, or at shutdown). */
  async idle(): Promise<void> {
    while (this.#saving !== null) await this.#saving;
  }

  /** Background saves so far, and writes not yet covered by a saved graph (for shardInfo). */
  get graphSaves(): { saves: number; unsaved: number; savedSeq: number } {
    return { saves: this.#saves, unsaved: this.#writesSinceSave, savedSeq: this.#savedSeq };
  }

  /** One point written or deleted: not covered by a save yet. */
  wrote(): void {
    this.#writesSinceSave++;
  }

  /** A batch of writes queued to LMDB: the next save waits for `last`'s commit; the policy is asked once the turn's writes are done. */
  committing(last: Promise<unknown>): void {
    this.#lastCommit = last;
    this.#saveSoon();
  }

  /**
   * What a load left: whether the graphs read are those of the newest save with nothing to
   * replay (`upToDate`), and how many writes no save covers.
   */
  loaded(upToDate: boolean, unsaved: number): void {
    this.#savedSeq = upToDate ? this.#s.seq : -1;
    this.#writesSinceSave = unsaved;
    for (const space of this.#s.spaces.values()) this.#savedIndexes.set(space.name, space.servingGraph);
  }

  /**
   * Starts a background save when the policy asks for one (`now` in ms; see GraphSavePolicy).
   * Called after each write and by the host's timer.
   */
  maybeSave(now: number): void {
    if (!this.#saveGraphs || this.#saving !== null || this.#writesSinceSave === 0 || this.#s.behind) return;
    const { everyWrites, everySeconds } = this.#policy;
    const byCount = everyWrites > 0 && this.#writesSinceSave >= everyWrites;
    const byTime = everySeconds > 0 && now - this.#lastSaveAt >= everySeconds * 1000;
    if (byCount || byTime) void this.#save().catch(() => undefined);
  }

  /**
   * maybeSave once the writes run in this turn are done. A save captures the graphs at once but
   * writes them later, and writes wait for it only when they arrive after it started: a caller
   * running several writes back to back (the cluster log's applier) would otherwise change the
   * graph captured by the first between the capture and the file (which then holds more than
   * its manifest, and is rebuilt at the next load).
   */
  #saveSoon(): void {
    if (this.#saveQueued) return;
    this.#saveQueued = true;
    queueMicrotask(() => {
      this.#saveQueued = false;
      this.maybeSave(Date.now());
    });
  }

  /**
   * Writes the HNSW graphs and the slot layout at the current write sequence, atomically
   * replacing the previous save. The shard's writes are held from now until the save is complete:
   * the graph files written (after the last write's commit, so the save covers committed data
   * only), checksummed and the manifest switched. Reads go on.
   */
  #save(): Promise<void> {
    const seq = this.#s.seq;
    const captured = this.#s.snapshots.capture(this.#s.spaces.values(), this.#s.ids, seq);
    const lastCommit = this.#lastCommit;
    const written = (async () => {
      // A failed commit ends this thread (NotCommittedError): no graph write may be running then.
      const committed = await (lastCommit ?? Promise.resolve()).then(
        () => true,
        () => false,
      );
      if (!committed) throw new Error('a write was not committed: graphs not saved');
      return this.#s.snapshots.writeGraphs(captured);
    })();
    this.#writesSinceSave = 0;
    this.#lastSaveAt = Date.now();
    const saving = (async () => {
      try {
        await this.#s.snapshots.commit(captured, await written);
        this.#savedSeq = seq;
        this.#saves++;
      } catch (err) {
        // A failed save leaves the previous one in place: the writes count toward the next try.
        this.#writesSinceSave += 1;
        throw err;
      }
    })();
    // Writes wait until the manifest is switched, not only until the graph file is written: the
    // checksum reads the file back in chunks, and with writes let through, each chunk waited
    // behind a write batch, so the save became the one a crash falls back to thousands of writes
    // later (in-process at 60k x 128 on the busy machine, 4 batches of 1,000 in flight: one
    // committed 13,000 writes after its capture). Reads go on meanwhile.
    const hold = saving.then(
      () => undefined,
      () => undefined,
    );
    this.#hold = hold;
    void hold.then(() => {
      if (this.#hold === hold) this.#hold = null;
    });
    this.#saving = saving;
    void saving
      .catch(() => undefined)
      .finally(() => {
        if (this.#saving === saving) this.#saving = null;
      });
    return saving;
  }

  /**
   * Saves the graphs at a clean shutdown when anything changed since the last save, so that the
   * next start replays nothing. A copy that never saves (saveGraphs false) does nothing.
   */
  async saveIndexes(): Promise<void> {
    await this.idle();
    if (!this.#saveGraphs) return;
    // Replayed rows still waiting for the graph go in now: the save covers them.
    for (const space of this.#s.spaces.values()) space.catchUp();
    if (this.#savedSeq === this.#s.seq && this.#writesSinceSave === 0 && !this.#graphsReplaced) return;
    await this.#save();
  }

  get #graphsReplaced(): boolean {
    for (const space of this.#s.spaces.values()) if (space.servingGraph !== (this.#savedIndexes.get(space.name) ?? null)) return true;
    return false;
  }
}
