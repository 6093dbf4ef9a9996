// One shard of one collection, owned by exactly one worker for the life of the process, so its
// methods never race: every mutation happens synchronously in memory first (reads see it at
// once), then is queued to LMDB in the same order. Writes resolve once LMDB has committed them;
// with wait=true, once the commit is flushed to disk.
//
// The facade the ShardHost calls. In memory: IdTracker (id <-> slot, versions), payloads by
// slot with their field indexes, and per named vector a VectorSpace (dense: store, presence,
// graph; vector-space.ts) or a SparseIndex. Graph files are graph-snapshots.ts's, the choice of
// exact or HNSW search search-planner.ts's. Every write goes through #write.
//
// A secondary shard is a read copy of a primary in another worker (replication_factor): it loads
// from the same LMDB range and applies the same writes, in the same order, in memory only. It
// never writes LMDB or graph files; it reads the primary's newest intact save (checksummed, so a
// save being replaced is never trusted) and replays the records written after it, as a primary does.

import { UNCONDITIONAL, missingRangeIndex, type FacetValue, type MemoryBytes, type OrderBySpec, type OrderedRecord, type PointBatch, type SearchSpec, type ShardInfo, type ShardLoadPhases, type WriteCondition } from '../../shared/protocol.js';
import { bytesU32, bytesVector, shardRange, vectorBytes, type PointKey, type QuiverDb, type StoredPoint } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import { effectiveHnsw } from '../../shared/hnsw-params.js';
import type { CollectionMeta, FieldIndexSchema, Payload, PayloadSelector, PointId, PointRecord, ScoredPoint, VectorSelector } from '../../shared/types.js';
import { SparseIndex } from '../index/sparse-index.js';
import { RangeIndex } from '../index/payload-index.js';
import { compileFilter, type FilterView } from './filter-eval.js';
import { applyPayloadOp, type PayloadOp } from './payload-ops.js';
import { IdTracker } from './id-tracker.js';
import { comparePointIds, pointNotFound } from '../../shared/ids.js';
import { selectPayload, selectVector } from './select.js';
import { failpoint } from '../failpoints.js';
import { Stopwatch } from '../../shared/startup-clock.js';
import { GraphSnapshots, readSavedGraphs, restoreGraphs, type GraphManifest, type ManifestRead } from './graph-snapshots.js';
import type { HnswParams } from '../index/hnsw.js';
import { searchDense, searchSparse, type Scored } from './search-planner.js';
import { VectorSpace, type GraphConfig } from './vector-space.js';
import { PayloadSpace, facetCounts } from './payload-space.js';
import { batchRows, type Row } from './batch-rows.js';
import { orderedEntries } from './order-by.js';
import { decodePlainRecord } from './record-decode.js';

const failCommitId = failpoint('commit_fail_on_id');

/**
 * A load whose graphs come from the save (see #apply): per entry of #spaceList, whether its
 * graph does, and the vectors the record being applied stores.
 */
interface FromSave {
  saved: boolean[];
  stored: Record<string, Uint8Array>;
}

/** What lmdb-js calls to decode a value (msgpackr's Unpackr; see #readRange). */
interface RecordDecoder {
  decode(bytes: Uint8Array, size: number): unknown;
  copyBuffers?: boolean;
}

/** A write LMDB did not commit: this thread's memory is ahead of the disk and must be reloaded. */
export class NotCommittedError extends Error {}

/** Only the last write of a batch is awaited; the others share its commit and its outcome. */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * What one write does to one target point: 'put' (changed: its new state is stored), 'removed'
 * (the point is gone: its record is deleted) or 'skip' (left as it is).
 */
type Outcome = 'put' | 'removed' | 'skip';

/** When a shard saves its graphs in the background (config `graph_save_writes` / `graph_save_seconds`). */
export interface GraphSavePolicy {
  /** Save after this many writes since the last save (0: never by count). */
  everyWrites: number;
  /** Save when this many seconds passed since the last save and anything was written (0: never by time). */
  everySeconds: number;
}

export interface ShardOptions {
  /**
   * False for a copy that loads from the same LMDB and graph files as the primary but must never
   * write graph files (a secondary copy in another worker): no background, shutdown or drop save.
   */
  saveGraphs?: boolean;
  savePolicy?: GraphSavePolicy;
  /** A read copy (replication_factor): applies writes in memory only; implies saveGraphs false. */
  secondary?: boolean;
}

const DEFAULT_SAVE_POLICY: GraphSavePolicy = { everyWrites: 0, everySeconds: 0 };

/** What one shard's load did: for the per-collection start-up log. */
export interface ShardLoad {
  points: number;
  /** Graphs read from disk, and graphs rebuilt from the vectors (empty ones are not counted). */
  graphsRead: number;
  graphsRebuilt: number;
  /** Writes after the saved graphs' position, applied to them: points re-added plus deletions. */
  replayed: number;
  /** Why the graphs were rebuilt, when they were. */
  rebuildReason: string | null;
  phases: ShardLoadPhases;
}

function graphConfig(meta: CollectionMeta, name: string): GraphConfig {
  const { m, ef_construct } = effectiveHnsw(meta, name);
  return { m, ef_construct };
}

export class Shard {
  readonly collection: number;
  readonly shard: number;
  #meta: CollectionMeta;
  readonly #db: QuiverDb;
  readonly #ids = new IdTracker();
  readonly #payloads = new PayloadSpace();
  readonly #spaces = new Map<string, VectorSpace>();
  readonly #sparse = new Map<string, SparseIndex>();
  /** #spaces' and #sparse's entries (both fixed at construction): #apply walks these, no iterator per point. */
  readonly #spaceList: VectorSpace[] = [];
  readonly #sparseList: [string, SparseIndex][] = [];
  /** Dense names then sparse names: what with_vector can return. */
  readonly #names: string[];
  readonly #snapshots: GraphSnapshots;
  #maxVersion = 0;
  /**
   * The shard's write sequence: raised by every point written or deleted, and stored in the
   * point's record in the same LMDB write, so that a saved graph's position (the sequence it
   * covers) tells which records were written after it.
   */
  #seq = 0;
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
  /** The dense vectors the current write gave its point, for #persist (null between writes). */
  #fresh: Record<string, Float32Array> | null = null;
  /**
   * By slot, the dense vectors of the newest write whose LMDB put has not resolved yet: lmdb-js
   * applies puts asynchronously, so until then a get() returns the previous record. Rows are read
   * here before LMDB (#readRow); an entry leaves when its own put settles.
   */
  readonly #pending = new Map<number, { x: Record<string, Float32Array> }>();

  /** A read copy: memory only, never writes LMDB or graph files (see the file comment). */
  readonly secondary: boolean;

  constructor(meta: CollectionMeta, shard: number, db: QuiverDb, indexDir: string, options: ShardOptions = {}) {
    this.collection = meta.id;
    this.shard = shard;
    this.secondary = options.secondary ?? false;
    this.#meta = meta;
    this.#db = db;
    this.#saveGraphs = !this.secondary && (options.saveGraphs ?? true);
    this.#policy = options.savePolicy ?? DEFAULT_SAVE_POLICY;
    this.#snapshots = new GraphSnapshots(indexDir, meta.id, shard);
    this.#names = [...Object.keys(meta.config.vectors), ...Object.keys(meta.config.sparse_vectors)];
    for (const name of Object.keys(meta.config.sparse_vectors)) this.#sparse.set(name, new SparseIndex());
    for (const [name, params] of Object.entries(meta.config.vectors)) {
      const space = new VectorSpace(name, params.size, params.distance, graphConfig(meta, name));
      space.readRows((slot) => this.#readRow(name, params.size, slot));
      this.#spaces.set(name, space);
    }
    this.#spaceList.push(...this.#spaces.values());
    this.#sparseList.push(...this.#sparse);
    for (const [key, schema] of Object.entries(meta.config.payload_schema)) this.createIndex(key, schema);
  }

  // ---- payload indexes ----------------------------------------------------------------------

  /** Builds (or rebuilds) the index on `key` from every live point's payload. */
  createIndex(key: string, schema: FieldIndexSchema): void {
    this.#payloads.createIndex(key, schema, this.#ids.sortedSlots());
  }

  dropIndex(key: string): void {
    this.#payloads.dropIndex(key);
  }

  /** The collection's configuration as this shard last took it. */
  get meta(): CollectionMeta {
    return this.#meta;
  }

  get maxVersion(): number {
    return this.#maxVersion;
  }

  /**
   * Takes a new configuration. A vector whose graph parameters (m, ef_construct) changed gets its
   * HNSW graph rebuilt in the background (see VectorSpace.reconfigure).
   */
  updateMeta(meta: CollectionMeta): void {
    this.#meta = meta;
    for (const space of this.#spaces.values()) space.reconfigure(graphConfig(meta, space.name), this.#ids.slotLimit);
  }

  /** True while a graph is being rebuilt (the collection then reports status yellow). */
  get rebuilding(): boolean {
    for (const space of this.#spaces.values()) if (space.rebuilding) return true;
    return false;
  }

  /** Stops background work: the shard is being dropped, or the thread is about to end. */
  dispose(): void {
    for (const space of this.#spaces.values()) space.dispose();
  }

  // ---- graph snapshots and loading ----------------------------------------------------------

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

  /**
   * Starts a background save when the policy asks for one (`now` in ms; see GraphSavePolicy).
   * Called after each write and by the host's timer.
   */
  maybeSave(now: number): void {
    if (!this.#saveGraphs || this.#saving !== null || this.#writesSinceSave === 0 || this.#behind) return;
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
    const seq = this.#seq;
    const captured = this.#snapshots.capture(this.#spaces.values(), this.#ids, seq);
    const lastCommit = this.#lastCommit;
    const written = (async () => {
      // A failed commit ends this thread (NotCommittedError): no graph write may be running then.
      const committed = await (lastCommit ?? Promise.resolve()).then(
        () => true,
        () => false,
      );
      if (!committed) throw new Error('a write was not committed: graphs not saved');
      return this.#snapshots.writeGraphs(captured);
    })();
    this.#writesSinceSave = 0;
    this.#lastSaveAt = Date.now();
    const saving = (async () => {
      try {
        await this.#snapshots.commit(captured, await written);
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
    for (const space of this.#spaces.values()) space.catchUp();
    if (this.#savedSeq === this.#seq && this.#writesSinceSave === 0 && !this.#graphsReplaced) return;
    await this.#save();
  }

  /** True while replayed rows wait to be added to a graph (see loadAsync): no save until then. */
  get #behind(): boolean {
    for (const space of this.#spaces.values()) if (space.behind > 0) return true;
    return false;
  }

  /** Resolves once every graph holds every row (a load's background replay is done). */
  async caughtUp(): Promise<void> {
    await Promise.all([...this.#spaces.values()].map((space) => space.caughtUp()));
  }

  get #graphsReplaced(): boolean {
    for (const space of this.#spaces.values()) if (space.index !== (this.#savedIndexes.get(space.name) ?? null)) return true;
    return false;
  }

  /**
   * Rebuilds memory from this shard's LMDB range. The HNSW graphs are read from the newest save
   * when it is intact and built with the collection's parameters, then brought up to date with
   * the writes after it; otherwise they are rebuilt from the vectors. `onPoints` is told the
   * points read so far, now and then (start-up progress).
   */
  load(onPoints?: (n: number) => void): ShardLoad {
    const watch = new Stopwatch();
    const { manifest, reason } = this.#readManifest();
    const manifestTime = watch.lap();
    const range = this.#readRange(manifest, onPoints);
    const recordsTime = watch.lap();
    const graphs = restoreGraphs(manifest, this.#snapshots, this.#spaces.values(), this.#ids, range.changed);
    return this.#loaded(manifest, reason, range, graphs, { manifest: manifestTime, checksum: this.#snapshots.checksumTime, records: recordsTime, graphs: watch.lap() });
  }

  /**
   * load(), with the saved graph files read on libuv threads while this thread reads the LMDB
   * records (at start, where nothing else runs on the shard until it resolves). Many writes to
   * replay onto a saved graph (after kill -9) are added in the background once it resolves
   * (VectorSpace.replay: searched exactly until then; no save before; see caughtUp).
   */
  async loadAsync(onPoints?: (n: number) => void): Promise<ShardLoad> {
    const watch = new Stopwatch();
    const { manifest, reason } = this.#readManifest();
    const manifestTime = watch.lap();
    const reading = readSavedGraphs(manifest, this.#snapshots, this.#spaces.values());
    const range = this.#readRange(manifest, onPoints);
    const recordsTime = watch.lap();
    const graphs = restoreGraphs(manifest, this.#snapshots, this.#spaces.values(), this.#ids, range.changed, await reading, true);
    // Once the graphs hold the replayed rows, a save may cover them (none runs before).
    void this.caughtUp().then(() => this.maybeSave(Date.now()));
    return this.#loaded(manifest, reason, range, graphs, { manifest: manifestTime, checksum: this.#snapshots.checksumTime, records: recordsTime, graphs: watch.lap() });
  }

  /** The newest intact save's manifest (its ids placed at their saved slots), or why there is none. */
  #readManifest(): ManifestRead {
    const want = new Map<string, HnswParams | null>();
    for (const space of this.#spaces.values()) want.set(space.name, space.graphParams());
    const read = this.#snapshots.read(want);
    if (read.manifest === null) return read;
    try {
      this.#ids.restore(read.manifest.slots);
    } catch (err) {
      // Only a JSON manifest (no checksum of its own) can get here: its layout is not one.
      return { manifest: null, reason: `manifest unreadable: ${err instanceof Error ? err.message : String(err)}` };
    }
    // A server upgraded in place: its JSON manifest, checked, is kept in the binary format from now on.
    if (this.#saveGraphs) this.#snapshots.upgrade(read.manifest);
    return read;
  }

  #loaded(
    manifest: GraphManifest | null,
    reason: string | null,
    { points, changed }: { points: number; changed: number[] },
    graphs: { read: number; rebuilt: number; reason: string | null },
    phases: ShardLoadPhases,
  ): ShardLoad {
    const replayed = changed.length;
    if (manifest !== null) this.#seq = Math.max(this.#seq, manifest.seq);
    const upToDate = manifest !== null && replayed === 0 && graphs.rebuilt === 0;
    this.#savedSeq = upToDate ? this.#seq : -1;
    // Not covered by a save: every point when none was read, else the replayed writes (at least
    // one when a graph was rebuilt, so that the next save happens).
    this.#writesSinceSave = upToDate ? 0 : manifest === null ? points : Math.max(1, replayed);
    for (const space of this.#spaces.values()) this.#savedIndexes.set(space.name, space.index);
    const rebuildReason = graphs.rebuilt > 0 ? (graphs.reason ?? reason) : null;
    return { points, graphsRead: graphs.read, graphsRebuilt: graphs.rebuilt, replayed, rebuildReason, phases };
  }

  /**
   * Reads every point of the range into memory. With a manifest: answers the slots written after
   * its position (records with a higher sequence) and those of its ids no longer stored (deleted
   * after it), the latter released here.
   */
  #readRange(manifest: GraphManifest | null, onPoints?: (n: number) => void): { points: number; changed: number[] } {
    const { start, end } = shardRange(this.collection, this.shard);
    const covered = manifest?.seq ?? Number.POSITIVE_INFINITY;
    const changed: number[] = [];
    // Which of the manifest's slots LMDB still holds (a byte per slot, not a Set: millions of points).
    const seen = new Uint8Array(manifest === null ? 0 : this.#ids.slotLimit);
    // Vectors whose graph comes from the save: the graph holds their rows, so records only say
    // which slots hold one (the rows to replay are read back from LMDB through the row reader).
    const saved = new Set<string>();
    for (const space of this.#spaces.values()) if (manifest?.spaces[space.name] !== undefined && space.graphParams() !== null) saved.add(space.name);
    // Every vector from the save (the common case): no row to decode, so none is made. Per record
    // nothing is allocated here beyond what decoding it made (at 100k points the load's garbage
    // collection was a fifth of its time).
    const nothingToDecode = saved.size === this.#spaces.size && this.#sparse.size === 0;
    const fromSave: FromSave | null = saved.size === 0 ? null : { saved: this.#spaceList.map((space) => saved.has(space.name)), stored: {} };
    let points = 0;
    // Binaries are decoded as views into LMDB's read buffer, not copied (msgpackr's copyBuffers),
    // for this pass only: a view lasts until the next record is read, and the pass keeps none
    // (bytesVector and bytesU32 copy the rows it stages; a vector from the save only says one is
    // stored; nothing here reads LMDB otherwise). Measured at 100k x 128, the pass over the range
    // took 225-304 ms of CPU with a copy per vector, 152-175 ms without (issue 14, start-up).
    // The commonest records (no payload, dense vectors only) are read by decodePlainRecord, the
    // others by msgpackr as always (record-decode.ts: at 100k x 128 without payloads, the pass's
    // CPU went from 223-233 ms to 136-137, in-process, 3 alternating runs on the busy machine).
    const store = this.#db.points as { decoder?: RecordDecoder };
    const decoder = store.decoder;
    const copies = decoder?.copyBuffers;
    if (decoder !== undefined && copies === true) decoder.copyBuffers = false;
    if (decoder !== undefined) store.decoder = { decode: (bytes, size) => decodePlainRecord(bytes, size) ?? decoder.decode(bytes, size) };
    try {
      points = this.#readRecords(start, end, nothingToDecode, saved, fromSave, seen, covered, changed, onPoints);
    } finally {
      if (decoder !== undefined) store.decoder = decoder;
      if (decoder !== undefined && copies === true) decoder.copyBuffers = true;
    }
    onPoints?.(points);
    if (manifest !== null) {
      const kinds = manifest.slots.kind;
      for (let slot = 0; slot < kinds.length; slot++) {
        if (kinds[slot] === 0 || seen[slot] === 1) continue;
        this.#ids.release(this.#ids.idOf(slot)!);
        changed.push(slot);
      }
    }
    return { points, changed };
  }

  /** #readRange's pass over the records: each applied to memory, the slots written after `covered` noted. */
  #readRecords(
    start: PointKey,
    end: [number, number],
    nothingToDecode: boolean,
    saved: ReadonlySet<string>,
    fromSave: FromSave | null,
    seen: Uint8Array,
    covered: number,
    changed: number[],
    onPoints: ((n: number) => void) | undefined,
  ): number {
    const noRow: Row = { dense: {}, sparse: {} };
    let points = 0;
    for (const { key, value } of this.#db.points.getRange({ start, end })) {
      const id = key[2];
      let row = noRow;
      if (!nothingToDecode) {
        row = { dense: {}, sparse: {} };
        for (const name of Object.keys(value.x)) if (!saved.has(name)) row.dense[name] = bytesVector(value.x[name]!);
        if (value.s !== undefined) for (const [name, sv] of Object.entries(value.s)) row.sparse[name] = { indices: bytesU32(sv.i), values: bytesVector(sv.v) };
      }
      if (fromSave !== null) fromSave.stored = value.x;
      const slot = this.#apply(id, value.v, value.p, row, false, fromSave);
      const q = value.q ?? 0;
      if (q > this.#seq) this.#seq = q;
      if (slot < seen.length) seen[slot] = 1;
      if (q > covered) changed.push(slot);
      if (++points % 4096 === 0) onPoints?.(points);
    }
    return points;
  }

  // ---- writes -------------------------------------------------------------------------------

  #space(name: string): VectorSpace {
    const s = this.#spaces.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  #sparseIndex(name: string): SparseIndex {
    const s = this.#sparse.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  /**
   * Writes one whole point into memory (vectors not named are removed). `fromSave` (a load whose
   * graphs are restored): for the vectors it names, only whether the record stores one is taken.
   */
  #apply(id: PointId, version: number, payload: Payload | null, row: Row, graph = true, fromSave: FromSave | null = null): number {
    const slot = this.#ids.slotFor(id);
    if (version > this.#maxVersion) this.#maxVersion = version;
    this.#payloads.set(slot, payload);
    // The slot's version changes after its vectors: until then the row reader trusts the stored
    // record, which tells an unchanged row without reading the graph back (VectorSpace.set).
    const spaces = this.#spaceList;
    for (let i = 0; i < spaces.length; i++) {
      const space = spaces[i]!;
      if (fromSave !== null && fromSave.saved[i] === true) space.setPresence(slot, fromSave.stored[space.name] !== undefined);
      else space.set(slot, row.dense[space.name], graph);
    }
    this.#ids.setVersion(slot, version);
    const sparse = this.#sparseList;
    for (let i = 0; i < sparse.length; i++) {
      const [name, index] = sparse[i]!;
      const v = row.sparse[name];
      if (v !== undefined) index.set(slot, v);
      else index.remove(slot);
    }
    return slot;
  }

  #row(batch: PointBatch): (i: number) => Row {
    return batchRows(
      batch,
      (name) => this.#space(name).dim,
      (name) => this.#sparseIndex(name),
    );
  }

  /**
   * The row of vector `name` at a present slot, from outside the graph that holds it (see
   * VectorSpace.readRows): the vectors of a write not committed yet, else the point's LMDB record
   * when its version is the slot's (a secondary's primary commits at its own pace, ahead of or
   * behind this copy). Undefined when neither can be trusted: the graph is read then.
   */
  #readRow(name: string, dim: number, slot: number): Float32Array | undefined {
    const pending = this.#pending.get(slot);
    if (pending !== undefined) return pending.x[name];
    const id = this.#ids.idOf(slot);
    if (id === undefined) return undefined;
    const record = this.#db.points.get([this.collection, this.shard, id]);
    if (record === undefined || record.v !== this.#ids.versionOf(slot)) return undefined;
    const b = record.x[name];
    if (b === undefined || b.byteLength !== dim * 4) return undefined;
    // msgpack decodes each binary into its own buffer: a view is safe where it is aligned.
    return b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, dim) : bytesVector(b);
  }

  #persist(id: PointId, slot: number, seq: number): Promise<boolean> | null {
    if (this.secondary) return null;
    const x: Record<string, Uint8Array> = {};
    const rows: Record<string, Float32Array> = {};
    // The vectors just written are at hand; others are read back from memory (from a graph, a
    // copy: see vector-space.ts).
    const fresh = this.#fresh;
    this.#fresh = null;
    for (const space of this.#spaces.values()) {
      if (!space.has(slot)) continue;
      const row = fresh?.[space.name] ?? space.vector(slot);
      rows[space.name] = row;
      x[space.name] = vectorBytes(row);
    }
    const record: StoredPoint = { v: this.#ids.versionOf(slot), q: seq, p: this.#payloads.get(slot), x };
    for (const [name, index] of this.#sparse) {
      const v = index.get(slot);
      if (v !== undefined) (record.s ??= {})[name] = { i: vectorBytes(v.indices), v: vectorBytes(v.values) };
    }
    const put =
      failCommitId !== null && id === failCommitId
        ? Promise.reject(new Error(`failpoint commit_fail_on_id=${failCommitId}`))
        : this.#db.points.put([this.collection, this.shard, id], record);
    const entry = { x: rows };
    this.#pending.set(slot, entry);
    // A later write of the slot replaced the entry: that one stays until its own put settles.
    const settle = (): void => {
      if (this.#pending.get(slot) === entry) this.#pending.delete(slot);
    };
    void put.then(settle, settle);
    return handled(put);
  }

  /**
   * The one write path. Per target point: the replay guard (a point whose stored version is
   * newer than `opId` was written by a later operation: an older one replayed must not undo it),
   * then `mutate`, then the point's version and its record to LMDB. Then the version counter,
   * and the commit (see #durable). With `partial`, a point that fails stops the batch: the points
   * before it stay applied and the error is returned, so the main thread can report a partial
   * failure (spec 7.3 rule 1) instead of a silent one; otherwise the error is thrown.
   */
  async #write(
    targets: readonly PointId[],
    opId: number,
    wait: boolean,
    mutate: (id: PointId, slot: number | undefined, i: number) => Outcome,
    partial = false,
  ): Promise<{ applied: number; error?: string }> {
    let last: Promise<boolean> | null = null;
    let applied = 0;
    const secondary = this.secondary;
    let error: string | undefined;
    for (let i = 0; i < targets.length; i++) {
      const id = targets[i]!;
      try {
        const before = this.#ids.slotOf(id);
        if (before !== undefined && this.#ids.versionOf(before) > opId) continue;
        const outcome = mutate(id, before, i);
        if (outcome === 'skip') continue;
        const seq = ++this.#seq;
        if (outcome === 'put') {
          const slot = this.#ids.slotOf(id)!;
          this.#ids.setVersion(slot, opId);
          last = this.#persist(id, slot, seq) ?? last;
        } else if (!secondary) {
          last = handled(this.#db.points.remove([this.collection, this.shard, id]));
        }
        this.#writesSinceSave++;
        applied++;
      } catch (err) {
        if (!partial) throw err;
        error = `point ${JSON.stringify(id)}: ${err instanceof Error ? err.message : String(err)}`;
        break;
      }
    }
    if (opId > this.#maxVersion) this.#maxVersion = opId;
    if (last !== null) {
      this.#lastCommit = last;
      this.#saveSoon();
    }
    await this.#durable(last, wait);
    return error === undefined ? { applied } : { applied, error };
  }

  /**
   * Waits for the batch's commit (and flush when asked). Every write of a batch shares one LMDB
   * commit, so the last one's promise speaks for all. A commit that fails leaves memory ahead of
   * the disk: the error says so, and the worker ends its thread so that a new one reloads the
   * shard from LMDB (see entry.ts).
   */
  async #durable(last: Promise<unknown> | null, wait: boolean): Promise<void> {
    // A copy's writes are in memory only: the primary's answer carries the durability.
    if (this.secondary) return;
    try {
      if (last !== null) await last;
      if (wait) await this.#db.points.flushed;
    } catch (err) {
      throw new NotCommittedError(`Write was not committed: ${err instanceof Error ? err.message : String(err)}. The shard reloads from disk; check the data before retrying`);
    }
  }

  /** Writes whole points (payload and every vector), as `condition` allows; see #write for partial failure. */
  upsert(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<{ applied: number; error?: string }> {
    const rowOf = this.#row(batch);
    const failAfter = failpoint('upsert_after');
    const onlyIf = this.#predicate(condition.updateFilter);
    return this.#write(
      batch.ids,
      opId,
      wait,
      (id, slot, i) => {
        if (failAfter !== null && i === failAfter) throw new Error(`failpoint upsert_after=${failAfter}`);
        if (slot === undefined ? condition.mode === 'update_only' : condition.mode === 'insert_only' || (onlyIf !== null && !onlyIf(slot))) return 'skip';
        const row = rowOf(i);
        this.#apply(id, opId, batch.payloads[i] ?? null, row);
        this.#fresh = row.dense;
        return 'put';
      },
      true,
    );
  }

  /** Replaces the named vectors given for existing points; every id must exist (else 404, nothing changed). */
  async updateVectors(batch: PointBatch, opId: number, wait: boolean, condition: WriteCondition = UNCONDITIONAL): Promise<number> {
    const missing = batch.ids.find((id) => this.#ids.slotOf(id) === undefined);
    if (missing !== undefined) throw pointNotFound(missing);
    const rowOf = this.#row(batch);
    const onlyIf = this.#predicate(condition.updateFilter);
    const { applied } = await this.#write(batch.ids, opId, wait, (_id, slot, i) => {
      if (onlyIf !== null && !onlyIf(slot!)) return 'skip';
      const row = rowOf(i);
      for (const [name, v] of Object.entries(row.dense)) this.#space(name).set(slot!, v);
      for (const [name, v] of Object.entries(row.sparse)) this.#sparseIndex(name).set(slot!, v);
      this.#fresh = row.dense;
      return 'put';
    });
    return applied;
  }

  async delete(ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (id) => {
      const slot = this.#ids.release(id);
      if (slot === undefined) return 'skip';
      for (const space of this.#spaces.values()) space.set(slot, undefined);
      for (const index of this.#sparse.values()) index.remove(slot);
      this.#payloads.set(slot, null);
      return 'removed';
    });
    return applied;
  }

  /** Set, overwrite, delete keys or clear the payload of the points named or matched; all named ids must exist. */
  async updatePayload(op: PayloadOp, ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    if (ids !== null) {
      const missing = ids.find((id) => this.#ids.slotOf(id) === undefined);
      if (missing !== undefined) throw pointNotFound(missing);
    }
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (_id, slot) => {
      this.#payloads.set(slot!, applyPayloadOp(this.#payloads.get(slot!), op));
      return 'put';
    });
    return applied;
  }

  /** Removes the named vectors (dense or sparse) from the points named or matched. */
  async deleteVectors(names: string[], ids: PointId[] | null, filter: Filter | null, opId: number, wait: boolean): Promise<number> {
    for (const name of names) if (!this.#spaces.has(name)) this.#sparseIndex(name);
    const { applied } = await this.#write(ids ?? this.#matching(filter), opId, wait, (_id, slot) => {
      if (slot === undefined) return 'skip';
      for (const name of names) {
        const dense = this.#spaces.get(name);
        if (dense !== undefined) dense.set(slot, undefined);
        else this.#sparse.get(name)!.remove(slot);
      }
      return 'put';
    });
    return applied;
  }

  // ---- reads --------------------------------------------------------------------------------

  readonly #view: FilterView = {
    payload: (slot) => this.#payloads.get(slot),
    id: (slot) => this.#ids.idOf(slot)!,
    hasVector: (slot, name) => this.#spaces.get(name)?.has(slot) === true || this.#sparse.get(name)?.has(slot) === true,
    textIndex: (key) => this.#payloads.textParams(key),
  };

  /** Candidate slots from the payload indexes, or null when no index narrows the filter. */
  #candidates(filter: Filter | null): Set<number> | null {
    return filter === null ? null : this.#payloads.candidates(filter, (id) => this.#ids.slotOf(id));
  }

  /** Candidate slots in external id order. */
  #sortedById(slots: Iterable<number>): number[] {
    return [...slots].sort((a, b) => comparePointIds(this.#ids.idOf(a)!, this.#ids.idOf(b)!));
  }

  #predicate(filter: Filter | null): ((slot: number) => boolean) | null {
    return filter === null ? null : compileFilter(filter, this.#view);
  }

  /** Slots matching the filter: the index's candidates (or every live slot), refined by the predicate. */
  #matchingSlots(filter: Filter | null): number[] {
    const pred = this.#predicate(filter);
    const out: number[] = [];
    for (const slot of this.#candidates(filter) ?? this.#ids.sortedSlots()) if (pred === null || pred(slot)) out.push(slot);
    return out;
  }

  #matching(filter: Filter | null): PointId[] {
    return this.#matchingSlots(filter).map((slot) => this.#ids.idOf(slot)!);
  }

  #record(slot: number, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord {
    const rec: PointRecord = { id: this.#ids.idOf(slot)! };
    const payload = selectPayload(this.#payloads.get(slot), withPayload);
    if (payload !== undefined) rec.payload = payload;
    const vector = selectVector(this.#names, withVector, (name) => {
      const space = this.#spaces.get(name);
      if (space !== undefined) return space.has(slot) ? space.vector(slot) : undefined;
      return this.#sparse.get(name)?.get(slot);
    });
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
  facet(key: string, filter: Filter | null, top: number | null = null): { values: FacetValue[]; counts: number[] } {
    const index = this.#payloads.index(key);
    if (index === undefined) throw QuiverError.badInput(`No index for facet key \`${key}\``);
    return facetCounts(index, this.#matchingSlots(filter), top);
  }

  retrieve(ids: PointId[], withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const out: PointRecord[] = [];
    for (const id of ids) {
      const slot = this.#ids.slotOf(id);
      if (slot !== undefined) out.push(this.#record(slot, withPayload, withVector));
    }
    return out;
  }

  /** Exact, or (exact=false) the index's candidate count where an index narrows the filter. */
  count(filter: Filter | null, exact: boolean): number {
    if (filter === null) return this.#ids.live;
    const candidates = this.#candidates(filter);
    if (!exact && candidates !== null) return candidates.size;
    const pred = this.#predicate(filter)!;
    let n = 0;
    for (const slot of candidates ?? this.#ids.sortedSlots()) if (pred(slot)) n++;
    return n;
  }

  /** Up to `limit` points with id >= offset, in id order. */
  scroll(
    offset: PointId | null,
    limit: number,
    filter: Filter | null,
    withPayload: PayloadSelector,
    withVector: VectorSelector,
  ): PointRecord[] {
    // Index candidates pay a sort by id; worth it only when they are few. A broad filter is
    // cheaper walked in id order, stopping at `limit`.
    const fromIndex = this.#candidates(filter);
    const candidates = fromIndex !== null && fromIndex.size * 8 < this.#ids.live ? fromIndex : null;
    const sorted = candidates === null ? this.#ids.sortedSlots() : this.#sortedById(candidates);
    let lo = 0;
    if (offset !== null) {
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (comparePointIds(this.#ids.idOf(sorted[mid]!)!, offset) < 0) lo = mid + 1;
        else hi = mid;
      }
    }
    const pred = this.#predicate(filter);
    const out: PointRecord[] = [];
    for (let i = lo; i < sorted.length && out.length < limit; i++) {
      const slot = sorted[i]!;
      if (pred === null || pred(slot)) out.push(this.#record(slot, withPayload, withVector));
    }
    return out;
  }

  /**
   * Up to `limit` entries in the order of an indexed numeric or datetime key, from `startFrom`
   * (inclusive) on, as Qdrant: a point with several values appears once per distinct value, with
   * that value as order_value; ties by point id (see compareOrdered). A datetime index holds
   * milliseconds; its order_value (and startFrom) is in microseconds, as Qdrant's.
   */
  scrollOrdered(
    order: OrderBySpec,
    limit: number,
    filter: Filter | null,
    withPayload: PayloadSelector,
    withVector: VectorSelector,
  ): OrderedRecord[] {
    const index = this.#payloads.index(order.key);
    if (!(index instanceof RangeIndex)) throw QuiverError.badInput(missingRangeIndex(order.key));
    const hits = orderedEntries(index, order, limit, this.#predicate(filter), (slot) => this.#ids.idOf(slot)!);
    return hits.map((h) => ({ ...this.#record(h.slot, withPayload, withVector), order_value: h.value }));
  }

  /** Up to `limit` matching points drawn at random (Fisher-Yates over the matches). */
  sample(limit: number, filter: Filter | null, withPayload: PayloadSelector, withVector: VectorSelector): PointRecord[] {
    const pool = this.#matchingSlots(filter);
    const n = Math.min(limit, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, n).map((slot) => this.#record(slot, withPayload, withVector));
  }

  /** Points having the sparse vector, and per term how many of them hold it (for idf). */
  sparseStats(name: string, terms: readonly number[]): { points: number; df: number[] } {
    const index = this.#sparseIndex(name);
    return { points: index.size, df: terms.map((t) => index.df(t)) };
  }

  /** Records of the top (slot, score) pairs, score_threshold applied for dense ones. */
  #scored(hits: Scored[], spec: SearchSpec, higherIsBetter: boolean): ScoredPoint[] {
    const out: ScoredPoint[] = [];
    // Most searches ask for neither payload nor vector: one literal per hit, no record to spread.
    const bare = spec.withPayload.kind === 'none' && spec.withVector.kind === 'none';
    for (const { slot, score } of hits) {
      if (spec.scoreThreshold !== null) {
        if (higherIsBetter ? score < spec.scoreThreshold : score > spec.scoreThreshold) continue;
      }
      if (bare) out.push({ id: this.#ids.idOf(slot)!, version: this.#ids.versionOf(slot), score });
      else out.push({ ...this.#record(slot, spec.withPayload, spec.withVector), version: this.#ids.versionOf(slot), score });
    }
    return out;
  }

  search(spec: SearchSpec): ScoredPoint[] {
    const predicate = this.#predicate(spec.filter);
    if (spec.sparse !== null) {
      const hits = searchSparse(this.#sparseIndex(spec.vector), spec.sparse, spec, { ids: this.#ids, predicate });
      return this.#scored(hits, spec, true);
    }
    const space = this.#space(spec.vector);
    const hits = searchDense(space, spec, {
      ids: this.#ids,
      predicate,
      indexCandidates: () => this.#candidates(spec.filter),
      fullScanKb: effectiveHnsw(this.#meta, spec.vector).full_scan_threshold,
    });
    return this.#scored(hits, spec, space.metric.higherIsBetter);
  }

  info(worker: number): ShardInfo {
    const indexedVectors: Record<string, number> = {};
    const vectors: Record<string, number> = {};
    for (const space of this.#spaces.values()) {
      indexedVectors[space.name] = space.index?.size ?? 0;
      vectors[space.name] = space.count();
    }
    for (const [name, index] of this.#sparse) {
      indexedVectors[name] = index.size;
      vectors[name] = index.size;
    }
    const indexedPayload = this.#payloads.indexedPoints();
    return {
      shard: this.shard,
      worker,
      points: this.#ids.live,
      indexedVectors,
      vectors,
      indexedPayload,
      rebuilding: this.rebuilding,
      catchingUp: this.#behind,
      secondary: this.secondary,
      graphSaves: this.#saves,
      unsavedWrites: this.#writesSinceSave,
      memory: this.memory(),
    };
  }

  /** Estimated in-memory bytes by kind (see MemoryBytes). */
  memory(): MemoryBytes {
    const out: MemoryBytes = { vectors: 0, graph: 0, payload_index: this.#payloads.indexBytes, ids: this.#ids.bytes };
    for (const space of this.#spaces.values()) {
      const m = space.memory();
      out.vectors += m.vectors;
      out.graph += m.graph;
    }
    for (const index of this.#sparse.values()) out.vectors += index.bytes;
    return out;
  }
}
