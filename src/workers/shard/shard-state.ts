// What one Shard holds in memory, shared by its parts (load, writes, reads, saves; see shard.ts):
// the collection's configuration, IdTracker (id <-> slot, versions), payloads by slot with their
// field indexes, and per named vector a VectorSpace (dense: store, presence, graph;
// vector-space.ts), a SparseIndex or a MultiSpace (multivectors); the write sequence, and the rows of writes LMDB has not
// applied yet. Also the few steps every part takes on that memory: a vector looked up by name, a
// whole point written in (apply), a row read back from outside its graph (readRow).
//
// Invariants: the vectors (spaces, sparse, multi and their lists) change only through
// syncVectors (a vector name created or deleted on the live collection); a slot's
// version changes only after its vectors (see apply); `pending` holds, by slot, only the newest
// write whose LMDB put has not settled.

import { bytesVector, storedPayload, type PointKey, type QuiverDb } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import { effectiveHnsw, effectiveQuantization, graphM } from '../../shared/hnsw-params.js';
import type { CollectionMeta, Payload, PointId } from '../../shared/types.js';
import { MultiSpace } from '../index/multi-space.js';
import { SparseIndex } from '../index/sparse-index.js';
import type { Row } from './batch-rows.js';
import { GraphSnapshots } from './graph-snapshots.js';
import { IdTracker } from './id-tracker.js';
import { PayloadSpace } from './payload-space.js';
import { plainRecordRow, storedPayloadText } from './record-decode.js';
import { VectorSpace, type GraphConfig } from './vector-space.js';

/**
 * A load whose graphs come from the save (see apply): per entry of spaceList, whether its
 * graph does, and the vectors the record being applied stores.
 */
export interface FromSave {
  saved: boolean[];
  stored: Record<string, Uint8Array>;
}

/**
 * The graph a vector's configuration asks for. `secondary`: a read copy, which never writes LMDB,
 * so its records may be at another version than its rows: it keeps quantized originals in RAM.
 */
export function graphConfig(meta: CollectionMeta, name: string, secondary: boolean): GraphConfig {
  const { ef_construct } = effectiveHnsw(meta, name);
  const m = graphM(meta, name);
  const q = effectiveQuantization(meta, name);
  const quantization = q === null ? null : 'scalar' in q ? { kind: 'int8' as const, quantile: q.scalar.quantile ?? null } : { kind: 'binary' as const, quantile: null };
  // On disk where nothing else holds the rows: a graph over codes, or none (the service refuses
  // on_disk for a float32 graph, which holds its rows: storage-settings.ts).
  const noGraph = m === 0 || meta.config.vectors[name]?.distance === 'Manhattan';
  return { m, ef_construct, quantization, originalsOnDisk: (quantization !== null || noGraph) && meta.config.vectors[name]?.on_disk === true && !secondary };
}

/** Whether a shard keeps its payloads in LMDB only: on_disk_payload, except on a read copy (it never writes LMDB). */
export function payloadsOnDisk(meta: CollectionMeta, secondary: boolean): boolean {
  return meta.config.on_disk_payload === true && !secondary;
}

export class ShardState {
  readonly collection: number;
  readonly shard: number;
  /** A read copy: memory only, never writes LMDB or graph files (see shard.ts's file comment). */
  readonly secondary: boolean;
  meta: CollectionMeta;
  readonly db: QuiverDb;
  readonly ids = new IdTracker();
  readonly payloads: PayloadSpace;
  readonly spaces = new Map<string, VectorSpace>();
  readonly sparse = new Map<string, SparseIndex>();
  /** Multivector names (multivector_config): rows in memory, no graph (multi-space.ts). */
  readonly multi = new Map<string, MultiSpace>();
  /** spaces', sparse's and multi's entries (see syncVectors): apply walks these, no iterator per point. */
  spaceList: VectorSpace[] = [];
  sparseList: [string, SparseIndex][] = [];
  multiList: MultiSpace[] = [];
  /** Dense names (multivectors among them) then sparse names: what with_vector can return. */
  names: string[] = [];
  /** Per vector name, what its stored rows are (vectorKind): a change there is a new vector. */
  readonly #kinds = new Map<string, string>();
  readonly snapshots: GraphSnapshots;
  maxVersion = 0;
  /**
   * The shard's write sequence: raised by every point written or deleted, and stored in the
   * point's record in the same LMDB write, so that a saved graph's position (the sequence it
   * covers) tells which records were written after it.
   */
  seq = 0;
  /** The dense vectors the current write gave its point, for persist (null between writes). */
  fresh: Record<string, Float32Array> | null = null;
  /**
   * By slot, the dense vectors of the newest write whose LMDB put has not resolved yet: lmdb-js
   * applies puts asynchronously, so until then a get() returns the previous record. Rows are read
   * here before LMDB (#readRow); an entry leaves when its own put settles.
   */
  readonly pending = new Map<number, { x: Record<string, Float32Array>; p: Payload | null }>();

  constructor(meta: CollectionMeta, shard: number, db: QuiverDb, indexDir: string, secondary: boolean) {
    this.collection = meta.id;
    this.shard = shard;
    this.secondary = secondary;
    this.meta = meta;
    this.db = db;
    this.snapshots = new GraphSnapshots(indexDir, meta.id, shard);
    this.payloads = new PayloadSpace((slot) => this.#readPayload(slot), payloadsOnDisk(meta, secondary));
    this.syncVectors(meta);
  }

  /**
   * Makes the vectors held those of `meta`: a vector it no longer has (or has with other rows: a
   * name deleted and created again) is dropped, with its graph; one it adds starts empty. Returns
   * the names dropped (their bytes are still in the points' records: see Shard.updateMeta) and added.
   */
  syncVectors(meta: CollectionMeta): { dropped: string[]; added: string[] } {
    const want = new Map<string, string>();
    for (const [name, p] of Object.entries(meta.config.vectors)) want.set(name, `${p.multivector_config === undefined ? 'dense' : `multi ${p.datatype ?? 'float32'}`} ${p.size} ${p.distance}`);
    // A sparse vector's modifier is applied at query time (PATCHable): its rows stay.
    for (const name of Object.keys(meta.config.sparse_vectors)) want.set(name, 'sparse');
    const dropped = [...this.#kinds].filter(([name, kind]) => want.get(name) !== kind).map(([name]) => name);
    for (const name of dropped) {
      this.spaces.get(name)?.dispose();
      this.spaces.delete(name);
      this.sparse.delete(name);
      this.multi.delete(name);
      this.#kinds.delete(name);
    }
    const added: string[] = [];
    for (const [name, kind] of want) {
      if (this.#kinds.has(name)) continue;
      this.#kinds.set(name, kind);
      added.push(name);
      const sparse = meta.config.sparse_vectors[name];
      if (sparse !== undefined) {
        this.sparse.set(name, new SparseIndex());
        continue;
      }
      const params = meta.config.vectors[name]!;
      if (params.multivector_config !== undefined) {
        this.multi.set(name, new MultiSpace(name, params.size, params.distance, params.datatype ?? 'float32'));
        continue;
      }
      const space = new VectorSpace(name, params.size, params.distance, graphConfig(meta, name, this.secondary));
      // A name every object has is left to msgpackr (plainRecordRow cannot answer for it).
      const nameBytes = name in Object.prototype || !/^[\x00-\x7f]{0,31}$/.test(name) ? null : new TextEncoder().encode(name);
      space.readRows((slot, into) => this.#readRow(name, nameBytes, params.size, slot, space.originalsOnDisk, into));
      this.spaces.set(name, space);
    }
    // In the configuration's order (dense names, then sparse), whatever order they came in.
    const order = [...Object.keys(meta.config.vectors), ...Object.keys(meta.config.sparse_vectors)];
    this.names = order;
    this.spaceList = order.flatMap((n) => this.spaces.get(n) ?? []);
    this.sparseList = order.flatMap((n): [string, SparseIndex][] => (this.sparse.has(n) ? [[n, this.sparse.get(n)!]] : []));
    this.multiList = order.flatMap((n) => this.multi.get(n) ?? []);
    return { dropped, added };
  }

  space(name: string): VectorSpace {
    const s = this.spaces.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  sparseIndex(name: string): SparseIndex {
    const s = this.sparse.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  multiSpace(name: string): MultiSpace {
    const s = this.multi.get(name);
    if (s === undefined) throw QuiverError.unknownVector(name);
    return s;
  }

  /** Whether the slot holds vector `name`, of any kind. */
  hasVector(slot: number, name: string): boolean {
    return this.spaces.get(name)?.has(slot) === true || this.sparse.get(name)?.has(slot) === true || this.multi.get(name)?.has(slot) === true;
  }

  /** True while a graph is being rebuilt (the collection then reports status yellow). */
  get rebuilding(): boolean {
    for (const space of this.spaces.values()) if (space.rebuilding) return true;
    return false;
  }

  /** True while replayed rows wait to be added to a graph (see loadAsync): no save until then. */
  get behind(): boolean {
    for (const space of this.spaces.values()) if (space.behind > 0) return true;
    return false;
  }

  /** Resolves once every graph holds every row (a load's background replay is done). */
  async caughtUp(): Promise<void> {
    await Promise.all([...this.spaces.values()].map((space) => space.caughtUp()));
  }

  /**
   * Writes one whole point into memory (vectors not named are removed). `fromSave` (a load whose
   * graphs are restored): for the vectors it names, only whether the record stores one is taken.
   */
  apply(id: PointId, version: number, payload: Payload | null, row: Row, graph = true, fromSave: FromSave | null = null): number {
    const slot = this.ids.slotFor(id);
    if (version > this.maxVersion) this.maxVersion = version;
    // A load (graph false) applies the stored record: its payload is on disk already.
    this.payloads.set(slot, payload, !graph);
    // The slot's version changes after its vectors: until then the row reader trusts the stored
    // record, which tells an unchanged row without reading the graph back (VectorSpace.set).
    const spaces = this.spaceList;
    for (let i = 0; i < spaces.length; i++) {
      const space = spaces[i]!;
      if (fromSave !== null && fromSave.saved[i] === true) space.setPresence(slot, fromSave.stored[space.name] !== undefined);
      else space.set(slot, row.dense[space.name], graph);
    }
    this.ids.setVersion(slot, version);
    const sparse = this.sparseList;
    for (let i = 0; i < sparse.length; i++) {
      const [name, index] = sparse[i]!;
      const v = row.sparse[name];
      if (v !== undefined) index.set(slot, v);
      else index.remove(slot);
    }
    const multi = this.multiList;
    for (let i = 0; i < multi.length; i++) {
      const space = multi[i]!;
      const v = row.multi[space.name];
      if (v !== undefined) space.set(slot, v);
      else space.remove(slot);
    }
    return slot;
  }

  /** A live slot's payload where payloads are on disk (see PayloadSpace): the write in flight's, else the record's. */
  #readPayload(slot: number): Payload | null {
    const pending = this.pending.get(slot);
    if (pending !== undefined) return pending.p;
    const id = this.ids.idOf(slot);
    if (id === undefined) return null;
    const key: PointKey = [this.collection, this.shard, id];
    // Its JSON text read straight from the record's bytes (record-decode.ts), its vectors left alone.
    const bytes = this.db.points.getBinaryFast(key);
    if (bytes === undefined) return null;
    const text = storedPayloadText(bytes, bytes.length);
    if (text !== undefined) return text === null ? null : (JSON.parse(text) as Payload);
    return storedPayload(this.db.points.get(key)?.p);
  }

  /**
   * The row of vector `name` at a present slot, from outside the graph that holds it (see
   * VectorSpace.readRows): the vectors of a write not committed yet, else the point's LMDB record
   * when its version is the slot's (a secondary's primary commits at its own pace, ahead of or
   * behind this copy). Undefined when neither can be trusted: the graph is read then. `into`:
   * the row may be copied there (see RowReader). `nameBytes`: the name in ASCII, or null where the
   * record's bytes cannot be read directly for it.
   */
  #readRow(name: string, nameBytes: Uint8Array | null, dim: number, slot: number, onDisk: boolean, into: Float32Array | undefined): Float32Array | undefined {
    const pending = this.pending.get(slot);
    if (pending !== undefined) return pending.x[name];
    const id = this.ids.idOf(slot);
    if (id === undefined) return undefined;
    const key: PointKey = [this.collection, this.shard, id];
    if (nameBytes !== null) {
      // The record's bytes read in place (record-decode.ts); valid only until the next read.
      const bytes = this.db.points.getBinaryFast(key);
      if (bytes === undefined) return undefined;
      const at = plainRecordRow(bytes, bytes.length, nameBytes);
      if (at !== undefined) {
        if (!onDisk && at.v !== this.ids.versionOf(slot)) return undefined;
        if (at.length !== dim * 4) return undefined;
        const row = into !== undefined && into.length === dim ? into : new Float32Array(dim);
        new Uint8Array(row.buffer, row.byteOffset, dim * 4).set(new Uint8Array(bytes.buffer, bytes.byteOffset + at.at, at.length));
        return row;
      }
    }
    const record = this.db.points.get(key);
    // A record at another version than the slot is not trusted where the rows have another home
    // (the graph: getPoint reads it back; a read copy never writes LMDB). Originals on disk have
    // none: a copy that writes LMDB holds their newest rows there or in `pending`, and a record
    // one version behind is the one a payload-only write is replacing, vectors unchanged.
    if (record === undefined || (!onDisk && record.v !== this.ids.versionOf(slot))) return undefined;
    const b = record.x[name];
    if (b === undefined || b.byteLength !== dim * 4) return undefined;
    // msgpack decodes each binary into its own buffer: a view is safe where it is aligned.
    return b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, dim) : bytesVector(b);
  }
}
