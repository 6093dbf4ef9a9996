// The HNSW graphs of one shard on disk: saved in the background as writes arrive (every N writes
// or T seconds) and at a clean shutdown, read back at the next start so that only the writes
// after the save are replayed. This module alone knows the file layout, in the worker's index
// directory:
//
//   <collection>-<shard>-<n>-g<gen>.hnsw  one hnswlib graph per dense vector that has one, of
//                                         save generation <gen>
//   <collection>-<shard>-manifest.bin     the manifest (format 4, binary; see encodeManifest):
//                                         the shard write sequence the graphs cover, the id of
//                                         every slot then, and per vector its graph file with
//                                         CRC-32, size, labels (live and marked deleted) and
//                                         build parameters; its own CRC-32 last
//   <collection>-<shard>.json             the manifest of formats 3 and 2 (JSON, [id, slot]
//                                         pairs; format 2 with sha256 instead of the CRC-32),
//                                         still read when no binary one is there; the next save
//                                         replaces it
//
// Why binary (issue 14, start-up): at 100k points the JSON manifest took ~60 ms of the worker's
// CPU to parse and place id by id, the binary one a few: typed arrays read as they are and placed
// in one pass (IdTracker.restore). Its name starts with the shard's prefix so that an older
// version's save (a downgrade) deletes it with its other files, rather than leaving a stale one
// to be preferred after the next upgrade.
//
// Invariants: the manifest is replaced atomically (temp file + rename) and only after every graph
// file it names is complete, so a crash mid-save leaves the previous manifest and its files in
// place; files of older generations (and a JSON manifest) are deleted only after the new manifest
// is in place. The manifest is trusted only when its own checksum matches, a graph only when its
// size and checksum match the manifest and its parameters are the collection's; otherwise the
// shard rebuilds it from the vectors (the reason is reported). The manifest covers exactly the
// LMDB state at `seq`: the shard holds its writes and waits for their commit before the graphs
// are written (see Shard), so every point record with a sequence above `seq` and every manifest
// id missing from LMDB is a write to replay.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { PhaseTime } from '../../shared/protocol.js';
import { Stopwatch } from '../../shared/startup-clock.js';
import type { PointId } from '../../shared/types.js';
import { HnswIndex, type HnswParams } from '../index/hnsw.js';
import { SLOT_INT, SLOT_UUID, type IdTrackerRead, type SlotIds } from './id-tracker.js';
import type { VectorSpace } from './vector-space.js';

/** The binary manifest. */
const FORMAT = 4;
/** The JSON manifest with CRC-32s (still read). */
const FORMAT_JSON = 3;
/** The JSON manifest before the CRC-32: its sha256 is checked instead (a save from an older version). */
const FORMAT_SHA256 = 2;

/** One saved graph, as the manifest describes it. */
export interface SavedGraph {
  /** File name inside the index directory. */
  file: string;
  /**
   * CRC-32 of the file (formats 3 and 4). It detects damage (a flipped or lost run of bytes, a
   * torn write) as surely as sha256 did, which guarded against no adversary either, at 2-3x the
   * speed (node:zlib, 62 MiB: 36-86 ms against 107-175 ms here): the whole file is checksummed at load.
   */
  crc32?: number;
  /** Format 2 manifests. */
  sha256?: string;
  size: number;
  /** Labels the graph holds, live or marked deleted, and those marked deleted. */
  labels: Uint32Array;
  deleted: Uint32Array;
  space: HnswParams['space'];
  dim: number;
  m: number;
  efConstruct: number;
}

/** A manifest in memory, whichever format it was read from (`format`). */
export interface GraphManifest {
  format: typeof FORMAT | typeof FORMAT_JSON | typeof FORMAT_SHA256;
  /** Save generation: part of the graph file names, so a new save never overwrites a file the current manifest names. */
  gen: number;
  /** The shard write sequence the graphs cover: writes with a higher sequence are replayed. */
  seq: number;
  /** Live points at `seq`. */
  count: number;
  /** The id of every slot at `seq`. */
  slots: SlotIds;
  spaces: Record<string, SavedGraph>;
}

/** A manifest of formats 2 and 3, as its JSON holds it (and as an older node's shard snapshot carries it). */
interface JsonManifest {
  format: typeof FORMAT_JSON | typeof FORMAT_SHA256;
  gen: number;
  seq: number;
  count: number;
  slots: [PointId, number][];
  spaces: Record<string, Omit<SavedGraph, 'labels' | 'deleted'> & { labels: number[]; deleted: number[] }>;
}

/** A manifest that passed every check, or why none can be used. */
export type ManifestRead = { manifest: GraphManifest; reason: null } | { manifest: null; reason: string };

/** What a save captured synchronously (while the shard's writes are held): graphs and layout at one sequence. */
export interface CapturedSave {
  seq: number;
  count: number;
  slots: SlotIds;
  graphs: { name: string; index: HnswIndex; labels: Uint32Array; deleted: Uint32Array }[];
}

const MAGIC = 0x4d475651; // 'QVGM', little-endian
/** What the header of a binary manifest says of each graph (the arrays follow it). */
interface HeaderGraph extends Omit<SavedGraph, 'labels' | 'deleted' | 'sha256'> {
  name: string;
  labels: number;
  deleted: number;
}
interface Header {
  gen: number;
  seq: number;
  count: number;
  /** Slots in the layout, UUID slots among them, and the UTF-8 bytes of their UUIDs. */
  slots: number;
  uuids: number;
  uuidBytes: number;
  /** An array, not an object: vector names such as '1' would be reordered as object keys. */
  graphs: HeaderGraph[];
}

const pad8 = (n: number): number => (n + 7) & ~7;

/**
 * The binary manifest (format 4; little-endian, as typed arrays are on every platform Node runs
 * on), each array 8-byte aligned in the file:
 *
 *   u32 magic 'QVGM' | u32 format (4) | u32 header bytes H | H bytes of header JSON (Header)
 *   u8[slots]  kind per slot (IdTracker's: 0 free, 1 integer, 2 UUID)
 *   f64[slots] integer id per slot (0 where the slot holds none)
 *   per graph, in header order: u32[labels] labels, u32[deleted] deleted labels
 *   u32[uuids] end offset of each UUID in the UUID bytes, then the UUID bytes (UTF-8), by slot
 *   u32 CRC-32 of every byte before it
 *
 * Every section is padded with zeros to 8 bytes, the file's length follows from the header: a
 * file of another length, or whose CRC-32 does not match, is not read.
 */
export function encodeManifest(m: GraphManifest): Buffer {
  const names = Object.keys(m.spaces);
  const uuidText = Buffer.from(m.slots.uuids.join(''), 'utf8');
  const header: Header = {
    gen: m.gen,
    seq: m.seq,
    count: m.count,
    slots: m.slots.kind.length,
    uuids: m.slots.uuids.length,
    uuidBytes: uuidText.length,
    graphs: names.map((name) => {
      const g = m.spaces[name]!;
      const out: HeaderGraph = { name, file: g.file, size: g.size, space: g.space, dim: g.dim, m: g.m, efConstruct: g.efConstruct, labels: g.labels.length, deleted: g.deleted.length };
      if (g.crc32 !== undefined) out.crc32 = g.crc32;
      return out;
    }),
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const n = header.slots;
  const parts: Uint8Array[] = [new Uint8Array(new Uint32Array([MAGIC, FORMAT, head.length]).buffer), head];
  let size = 12 + head.length;
  const push = (bytes: Uint8Array): void => {
    const fill = pad8(size) - size;
    if (fill > 0) parts.push(new Uint8Array(fill));
    parts.push(bytes);
    size = pad8(size) + bytes.length;
  };
  const bytesOf = (a: Float64Array | Uint32Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  push(bytesOf(m.slots.kind.subarray(0, n)));
  push(bytesOf(m.slots.num.subarray(0, n)));
  for (const name of names) {
    push(bytesOf(m.spaces[name]!.labels));
    push(bytesOf(m.spaces[name]!.deleted));
  }
  const ends = new Uint32Array(header.uuids);
  let end = 0;
  m.slots.uuids.forEach((u, i) => (ends[i] = end += Buffer.byteLength(u, 'utf8')));
  push(bytesOf(ends));
  push(uuidText);
  push(new Uint8Array(0));
  const body = Buffer.concat(parts, size);
  const out = Buffer.alloc(size + 4);
  body.copy(out);
  out.writeUInt32LE(crc32(body), size);
  return out;
}

/** A typed array over `n` elements at `offset` of `buf`: a view where aligned, else a copy. */
function typedAt<T extends Float64Array | Uint32Array>(make: { new (b: ArrayBuffer, o: number, n: number): T; new (n: number): T; BYTES_PER_ELEMENT: number }, buf: Buffer, offset: number, n: number): T {
  const at = buf.byteOffset + offset;
  if (at % make.BYTES_PER_ELEMENT === 0) return new make(buf.buffer as ArrayBuffer, at, n);
  const copy = new make(n);
  new Uint8Array(copy.buffer).set(buf.subarray(offset, offset + n * make.BYTES_PER_ELEMENT));
  return copy;
}

/** Reads a binary manifest, or throws why it cannot be one (damaged, truncated, another format). */
export function decodeManifest(buf: Buffer): GraphManifest {
  if (buf.length < 16) throw new Error(`manifest of ${buf.length} bytes`);
  const magic = buf.readUInt32LE(0);
  const format = buf.readUInt32LE(4);
  if (magic !== MAGIC) throw new Error('not a manifest (magic)');
  if (format !== FORMAT) throw new Error(`manifest format ${format}`);
  const headBytes = buf.readUInt32LE(8);
  if (12 + headBytes + 4 > buf.length) throw new Error('manifest truncated (header)');
  const stored = buf.readUInt32LE(buf.length - 4);
  if (crc32(buf.subarray(0, buf.length - 4)) !== stored) throw new Error('manifest damaged (checksum mismatch)');
  const h = JSON.parse(buf.toString('utf8', 12, 12 + headBytes)) as Header;
  let at = 12 + headBytes;
  // Each section's start: 8-byte aligned, and inside the file.
  const take = (bytes: number): number => {
    const start = pad8(at);
    if (start + bytes > buf.length - 4) throw new Error('manifest truncated');
    at = start + bytes;
    return start;
  };
  const n = h.slots;
  const kind = new Uint8Array(buf.buffer, buf.byteOffset + take(n), n);
  const num = typedAt(Float64Array, buf, take(n * 8), n);
  const spaces: Record<string, SavedGraph> = {};
  for (const g of h.graphs) {
    const labels = typedAt(Uint32Array, buf, take(g.labels * 4), g.labels);
    const deleted = typedAt(Uint32Array, buf, take(g.deleted * 4), g.deleted);
    const { name, labels: _l, deleted: _d, ...rest } = g;
    spaces[name] = { ...rest, labels, deleted };
  }
  const ends = typedAt(Uint32Array, buf, take(h.uuids * 4), h.uuids);
  const text = take(h.uuidBytes);
  if (pad8(at) + 4 !== buf.length) throw new Error(`manifest of ${buf.length} bytes, its header says ${pad8(at) + 4}`);
  const uuids: string[] = new Array<string>(h.uuids);
  let from = 0;
  for (let i = 0; i < h.uuids; i++) {
    const to = ends[i]!;
    if (to < from || to > h.uuidBytes) throw new Error('manifest UUIDs damaged');
    uuids[i] = buf.toString('utf8', text + from, text + to);
    from = to;
  }
  return { format: FORMAT, gen: h.gen, seq: h.seq, count: h.count, slots: { kind, num, uuids }, spaces };
}

/** A manifest of formats 2 and 3 in today's shape: [id, slot] pairs to a slot layout, label lists to typed arrays. */
function fromJson(m: JsonManifest): GraphManifest {
  let limit = 0;
  for (const [, slot] of m.slots) if (slot + 1 > limit) limit = slot + 1;
  const kind = new Uint8Array(limit);
  const num = new Float64Array(limit);
  const byUuidSlot = new Map<number, string>();
  for (const [id, slot] of m.slots) {
    if (typeof id === 'number') {
      kind[slot] = SLOT_INT;
      num[slot] = id;
    } else {
      kind[slot] = SLOT_UUID;
      byUuidSlot.set(slot, id);
    }
  }
  const uuids: string[] = [];
  for (let slot = 0; slot < limit; slot++) if (kind[slot] === SLOT_UUID) uuids.push(byUuidSlot.get(slot)!);
  const spaces: Record<string, SavedGraph> = {};
  for (const [name, g] of Object.entries(m.spaces)) spaces[name] = { ...g, labels: Uint32Array.from(g.labels), deleted: Uint32Array.from(g.deleted) };
  return { format: m.format, gen: m.gen, seq: m.seq, count: m.count, slots: { kind, num, uuids }, spaces };
}

/** True for a manifest still in the JSON shape (an older node's shard snapshot carries one). */
function isJson(m: GraphManifest | JsonManifest): m is JsonManifest {
  return Array.isArray(m.slots);
}

/** The ids a slot layout holds. */
export function slotCount(slots: SlotIds): number {
  let n = 0;
  for (const k of slots.kind) if (k !== 0) n++;
  return n;
}

/** Labels in a typed array, for a manifest. */
function labelArray(labels: readonly number[]): Uint32Array {
  return Uint32Array.from(labels);
}

function sha256File(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(8 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

function crc32File(path: string): number {
  const fd = openSync(path, 'r');
  let crc = 0;
  try {
    const buf = Buffer.allocUnsafe(8 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      crc = crc32(buf.subarray(0, n), crc);
    }
  } finally {
    closeSync(fd);
  }
  return crc;
}

/** Bytes read per turn by crc32FileAsync: one buffer, reused for the whole file. */
const CRC_CHUNK = 1 << 20;

/**
 * Checksums a file without holding the thread: reads in chunks between which requests run, into
 * one reused buffer. A read stream allocated a new 4 MiB buffer per chunk instead: the ~80 MiB of
 * a 100k x 128 graph became garbage that sat in the worker's RssAnon until its next collection
 * (issue 14's "right after ingest" figure: the save in flight at the end of an ingest).
 */
async function crc32FileAsync(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafeSlow(CRC_CHUNK);
    let crc = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return crc;
      crc = crc32(buf.subarray(0, bytesRead), crc);
    }
  } finally {
    await file.close();
  }
}

export class GraphSnapshots {
  readonly #dir: string;
  readonly #collection: number;
  readonly #shard: number;
  /** The generation of the newest manifest read or written (0: none). */
  #gen = 0;
  /** Wall and CPU ms read() spent checksumming graph files (start-up timing). */
  checksumTime: PhaseTime = [0, 0];

  constructor(dir: string, collection: number, shard: number) {
    this.#dir = dir;
    this.#collection = collection;
    this.#shard = shard;
  }

  get #prefix(): string {
    return `${this.#collection}-${this.#shard}`;
  }

  get #manifestName(): string {
    return `${this.#prefix}-manifest.bin`;
  }

  get #manifestPath(): string {
    return join(this.#dir, this.#manifestName);
  }

  /** Where formats 3 and 2 were kept. */
  get #jsonPath(): string {
    return join(this.#dir, `${this.#prefix}.json`);
  }

  /** Captures what a save writes. Synchronous: call it while the shard's writes are held. */
  capture(spaces: Iterable<VectorSpace>, ids: IdTrackerRead, seq: number): CapturedSave {
    const graphs: CapturedSave['graphs'] = [];
    for (const space of spaces) {
      if (space.index === null) continue;
      graphs.push({ name: space.name, index: space.index, labels: labelArray(space.index.labels), deleted: labelArray(space.index.deletedLabels) });
    }
    return { seq, count: ids.live, slots: ids.slotIds(), graphs };
  }

  /**
   * Writes the captured graphs to new files (the part during which the shard's writes must stay
   * held: hnswlib reads the graph off-thread). Returns the files written, for commit().
   */
  async writeGraphs(save: CapturedSave): Promise<{ gen: number; files: string[] }> {
    mkdirSync(this.#dir, { recursive: true });
    const gen = this.#gen + 1;
    this.#gen = gen;
    const files: string[] = [];
    for (let n = 0; n < save.graphs.length; n++) {
      const file = `${this.#prefix}-${n}-g${gen}.hnsw`;
      await save.graphs[n]!.index.saveAsync(join(this.#dir, file));
      files.push(file);
    }
    return { gen, files };
  }

  /**
   * Checksums the written files and switches the manifest to them (atomically), then deletes
   * older generations. The shard's writes may run meanwhile: the files are not touched again.
   */
  async commit(save: CapturedSave, written: { gen: number; files: string[] }): Promise<void> {
    const spaces: Record<string, SavedGraph> = {};
    for (let n = 0; n < save.graphs.length; n++) {
      const g = save.graphs[n]!;
      const file = written.files[n]!;
      const path = join(this.#dir, file);
      const p = g.index.params;
      spaces[g.name] = {
        file,
        crc32: await crc32FileAsync(path),
        size: statSync(path).size,
        labels: g.labels,
        deleted: g.deleted,
        space: p.space,
        dim: p.dim,
        m: p.m,
        efConstruct: p.efConstruct,
      };
    }
    const manifest: GraphManifest = { format: FORMAT, gen: written.gen, seq: save.seq, count: save.count, slots: save.slots, spaces };
    this.#writeManifest(manifest);
    this.#removeExcept(new Set([this.#manifestName, ...written.files]));
  }

  /**
   * Rewrites a JSON manifest of format 3 (read and checked: `manifest`) as the binary one, then
   * deletes the JSON one, so that the starts after an upgrade in place read the binary one even
   * before the next save. Format 2 is left as it is (its sha256s are not CRC-32s). Best effort:
   * a failure leaves the JSON manifest, still read.
   */
  upgrade(manifest: GraphManifest): void {
    if (manifest.format !== FORMAT_JSON) return;
    try {
      this.#writeManifest({ ...manifest, format: FORMAT });
      rmSync(this.#jsonPath, { force: true });
    } catch {
      // Read again from the JSON one next time.
    }
  }

  /** Replaces the manifest atomically (temp file + rename), in the binary format. */
  #writeManifest(manifest: GraphManifest): void {
    const tmp = `${this.#manifestPath}.tmp`;
    writeFileSync(tmp, encodeManifest(manifest));
    renameSync(tmp, this.#manifestPath);
  }

  /** Deletes this shard's files other than `keep` (older generations, temp files of an interrupted save). */
  #removeExcept(keep: ReadonlySet<string>): void {
    let files: string[] = [];
    try {
      files = readdirSync(this.#dir);
    } catch {
      return; // No directory: nothing was ever saved.
    }
    for (const f of files) {
      if ((f.startsWith(`${this.#prefix}-`) || f.startsWith(`${this.#prefix}.json`)) && !keep.has(f)) rmSync(join(this.#dir, f), { force: true });
    }
  }

  /**
   * The newest manifest as written: the binary one, else (a save of an older version) the JSON
   * one; null when there is none. Throws when it cannot be read (damaged, truncated, a format
   * not known).
   */
  #load(): GraphManifest | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.#manifestPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      let text: string;
      try {
        text = readFileSync(this.#jsonPath, 'utf8');
      } catch (err2) {
        if ((err2 as NodeJS.ErrnoException).code !== 'ENOENT') throw err2;
        // The primary may have just rewritten the JSON one as binary (upgrade(), a read copy
        // loading in another worker meanwhile): look again.
        if (!existsSync(this.#manifestPath)) return null;
        return decodeManifest(readFileSync(this.#manifestPath));
      }
      const m = JSON.parse(text) as JsonManifest;
      if (m.format !== FORMAT_JSON && m.format !== FORMAT_SHA256) throw new Error(`manifest of format ${String(m.format)}`);
      return fromJson(m);
    }
    return decodeManifest(bytes);
  }

  /**
   * The newest manifest, when it is intact (its own checksum, format 4), its graph files are
   * intact (size and checksum) and were built with the parameters `want` asks (null: that vector
   * has no graph), else why it cannot be used.
   */
  read(want: ReadonlyMap<string, HnswParams | null>): ManifestRead {
    let loaded: GraphManifest | null;
    try {
      loaded = this.#load();
    } catch (err) {
      return { manifest: null, reason: `manifest unreadable: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (loaded === null) return { manifest: null, reason: 'no saved graph' };
    const m = loaded;
    this.#gen = Math.max(this.#gen, m.gen);
    for (const [name, params] of want) {
      const g = m.spaces[name];
      if (params === null) continue;
      if (g === undefined) return { manifest: null, reason: `no saved graph for vector '${name}'` };
      if (g.space !== params.space || g.dim !== params.dim || g.m !== params.m || g.efConstruct !== params.efConstruct) {
        return { manifest: null, reason: `graph of vector '${name}' saved with other parameters (m ${g.m}, ef_construct ${g.efConstruct})` };
      }
      const file = join(this.#dir, g.file);
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        return { manifest: null, reason: `graph file ${g.file} missing` };
      }
      if (size !== g.size) return { manifest: null, reason: `graph file ${g.file} damaged (size ${size}, expected ${g.size})` };
      const watch = new Stopwatch();
      const intact = m.format === FORMAT_SHA256 ? g.sha256 !== undefined && sha256File(file) === g.sha256 : g.crc32 !== undefined && crc32File(file) === g.crc32;
      const [wall, cpu] = watch.lap();
      this.checksumTime = [this.checksumTime[0] + wall, cpu === null || this.checksumTime[1] === null ? null : this.checksumTime[1] + cpu];
      if (!intact) return { manifest: null, reason: `graph file ${g.file} damaged (checksum mismatch)` };
    }
    return { manifest: m, reason: null };
  }

  /**
   * The newest manifest as written, unchecked (a shard snapshot carries it with its files; the
   * restoring side checks them at load), or null when there is none or it cannot be parsed.
   */
  current(): GraphManifest | null {
    try {
      return this.#load();
    } catch {
      return null;
    }
  }

  /**
   * Replaces this shard's saves with `manifest` and its graph files, moved from `files` (manifest
   * file name -> a path on the same file system): the files first, the manifest last, so a crash
   * midway leaves no manifest naming a missing file. Names must be this shard's (no path parts).
   * A manifest in the JSON shape (an older node's snapshot) is written in today's format.
   */
  install(given: GraphManifest, files: ReadonlyMap<string, string>): void {
    const manifest = isJson(given) ? fromJson(given) : given;
    const ours = (f: string): boolean => f.startsWith(`${this.#prefix}-`) && f.endsWith('.hnsw') && !f.includes('/') && !f.includes('\\');
    for (const f of files.keys()) if (!ours(f)) throw new Error(`graph file ${JSON.stringify(f)} is not one of shard ${this.#prefix}'s`);
    for (const g of Object.values(manifest.spaces)) if (!files.has(g.file)) throw new Error(`graph file ${JSON.stringify(g.file)} missing`);
    this.drop();
    mkdirSync(this.#dir, { recursive: true });
    for (const [file, from] of files) renameSync(from, join(this.#dir, file));
    this.#writeManifest(manifest);
    this.#gen = Math.max(this.#gen, manifest.gen);
  }

  /** The full path of a saved graph file. */
  path(file: string): string {
    return join(this.#dir, file);
  }

  /** Deletes the shard's graph files and manifest: the shard is dropped for good. */
  drop(): void {
    this.#removeExcept(new Set());
  }
}

/**
 * Starts reading, on libuv threads, every saved graph the manifest holds for a space that should
 * have one; resolves with each graph read, or the error that stopped it (restoreGraphs then
 * rebuilds that one, saying why). Nothing is read without a manifest.
 */
export async function readSavedGraphs(manifest: GraphManifest | null, snapshots: GraphSnapshots, spaces: Iterable<VectorSpace>): Promise<Map<string, HnswIndex | Error>> {
  const out = new Map<string, HnswIndex | Error>();
  if (manifest === null) return out;
  await Promise.all(
    [...spaces].map(async (space) => {
      const params = space.graphParams();
      const saved = manifest.spaces[space.name];
      if (params === null || saved === undefined) return;
      try {
        out.set(space.name, await HnswIndex.read(params, { file: snapshots.path(saved.file), labels: saved.labels, deleted: saved.deleted }));
      } catch (err) {
        out.set(space.name, err instanceof Error ? err : new Error(String(err)));
      }
    }),
  );
  return out;
}

/**
 * Replays at least this many slots onto a restored graph in the background rather than before the
 * load ends (deferReplay in restoreGraphs; VectorSpace.replay): fewer cost at most ~80 ms.
 */
export const DEFER_REPLAY_MIN = 512;

/**
 * Gives every space that should have a graph one: the saved graph when the manifest holds it,
 * brought up to date with the slots written since (`changed`: re-added when they hold a vector
 * now, else marked deleted), or else rebuilt from the stored vectors. `preRead`: graphs
 * readSavedGraphs read already. `deferReplay`: DEFER_REPLAY_MIN or more re-added slots are added
 * in the background (VectorSpace.replay), so the load ends sooner. Answers how many graphs were
 * read and rebuilt, and why a rebuild happened.
 */
export function restoreGraphs(
  manifest: GraphManifest | null,
  snapshots: GraphSnapshots,
  spaces: Iterable<VectorSpace>,
  ids: IdTrackerRead,
  changed: Iterable<number>,
  preRead: ReadonlyMap<string, HnswIndex | Error> = new Map(),
  deferReplay = false,
): { read: number; rebuilt: number; reason: string | null } {
  let read = 0;
  let rebuilt = 0;
  let reason: string | null = null;
  const dirty = [...changed];
  for (const space of spaces) {
    const params = space.graphParams();
    if (params === null) continue;
    const saved = manifest?.spaces[space.name];
    if (saved !== undefined) {
      try {
        const pre = preRead.get(space.name);
        if (pre instanceof Error) throw pre;
        const index = pre ?? new HnswIndex(params, { file: snapshots.path(saved.file), labels: saved.labels, deleted: saved.deleted });
        // The rows staged during the load are dropped: the graph is their one in-memory copy.
        space.useGraph(index);
        space.replay(dirty, deferReplay && dirty.length >= DEFER_REPLAY_MIN);
        read++;
        continue;
      } catch (err) {
        reason = `graph of vector '${space.name}' unreadable: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    space.buildGraph(params, ids.slotLimit);
    if ((space.index?.size ?? 0) > 0) rebuilt++;
  }
  return { read, rebuilt, reason };
}
