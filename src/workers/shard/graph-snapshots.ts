// The HNSW graphs of one shard on disk: saved in the background as writes arrive (every N writes
// or T seconds) and at a clean shutdown, read back at the next start so that only the writes
// after the save are replayed. This module alone knows the file layout, in the worker's index
// directory:
//
//   <collection>-<shard>-<n>-g<gen>.hnsw  one hnswlib graph per dense vector that has one, of
//                                         save generation <gen>
//   <collection>-<shard>.json             the manifest (format 3): the shard write sequence the
//                                         graphs cover, the slot of every id then, and per
//                                         vector its graph file with CRC-32, size, element
//                                         count, labels (live and marked deleted) and build
//                                         parameters (format 2, still read: sha256 instead of
//                                         the CRC-32)
//
// Invariants: the manifest is replaced atomically (temp file + rename) and only after every graph
// file it names is complete, so a crash mid-save leaves the previous manifest and its files in
// place; files of older generations are deleted only after the new manifest is in place. A graph
// is trusted only when its size and checksum match the manifest and its parameters are the
// collection's; otherwise the shard rebuilds it from the vectors (the reason is reported). The
// manifest covers exactly the LMDB state at `seq`: the shard holds its writes and waits for their
// commit before the graphs are written (see Shard), so every point record with a sequence above
// `seq` and every manifest id missing from LMDB is a write to replay.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { PhaseTime } from '../../shared/protocol.js';
import { Stopwatch } from '../../shared/startup-clock.js';
import type { PointId } from '../../shared/types.js';
import { HnswIndex, type HnswParams } from '../index/hnsw.js';
import type { IdTrackerRead } from './id-tracker.js';
import type { VectorSpace } from './vector-space.js';

const FORMAT = 3;
/** The format before the CRC-32: its sha256 is checked instead (a save from an older version). */
const FORMAT_SHA256 = 2;

/** One saved graph, as the manifest describes it. */
export interface SavedGraph {
  /** File name inside the index directory. */
  file: string;
  /**
   * CRC-32 of the file (format 3). It detects damage (a flipped or lost run of bytes, a torn
   * write) as surely as sha256 did, which guarded against no adversary either, at 2-3x the speed
   * (node:zlib, 62 MiB: 36-86 ms against 107-175 ms here): the whole file is checksummed at load.
   */
  crc32?: number;
  /** Format 2 manifests. */
  sha256?: string;
  size: number;
  /** Labels the graph holds, live or marked deleted, and those marked deleted. */
  labels: number[];
  deleted: number[];
  space: HnswParams['space'];
  dim: number;
  m: number;
  efConstruct: number;
}

export interface GraphManifest {
  format: typeof FORMAT | typeof FORMAT_SHA256;
  /** Save generation: part of the graph file names, so a new save never overwrites a file the current manifest names. */
  gen: number;
  /** The shard write sequence the graphs cover: writes with a higher sequence are replayed. */
  seq: number;
  /** Live points at `seq`. */
  count: number;
  slots: [PointId, number][];
  spaces: Record<string, SavedGraph>;
}

/** A manifest that passed every check, or why none can be used. */
export type ManifestRead = { manifest: GraphManifest; reason: null } | { manifest: null; reason: string };

/** What a save captured synchronously (while the shard's writes are held): graphs and layout at one sequence. */
export interface CapturedSave {
  seq: number;
  count: number;
  slots: [PointId, number][];
  graphs: { name: string; index: HnswIndex; labels: number[]; deleted: number[] }[];
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

  get #manifestPath(): string {
    return join(this.#dir, `${this.#prefix}.json`);
  }

  /** Captures what a save writes. Synchronous: call it while the shard's writes are held. */
  capture(spaces: Iterable<VectorSpace>, ids: IdTrackerRead, seq: number): CapturedSave {
    const slots: [PointId, number][] = [];
    for (let slot = 0; slot < ids.slotLimit; slot++) {
      const id = ids.idOf(slot);
      if (id !== undefined) slots.push([id, slot]);
    }
    const graphs: CapturedSave['graphs'] = [];
    for (const space of spaces) {
      if (space.index === null) continue;
      graphs.push({ name: space.name, index: space.index, labels: space.index.labels, deleted: space.index.deletedLabels });
    }
    return { seq, count: ids.live, slots, graphs };
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
    const tmp = `${this.#manifestPath}.tmp`;
    writeFileSync(tmp, JSON.stringify(manifest));
    renameSync(tmp, this.#manifestPath);
    this.#removeExcept(new Set([`${this.#prefix}.json`, ...written.files]));
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
   * The newest manifest, when its graph files are intact (size and sha256) and were built with
   * the parameters `want` asks (null: that vector has no graph), else why it cannot be used.
   */
  read(want: ReadonlyMap<string, HnswParams | null>): ManifestRead {
    const path = this.#manifestPath;
    if (!existsSync(path)) return { manifest: null, reason: 'no saved graph' };
    let m: GraphManifest;
    try {
      m = JSON.parse(readFileSync(path, 'utf8')) as GraphManifest;
    } catch (err) {
      return { manifest: null, reason: `manifest unreadable: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (m.format !== FORMAT && m.format !== FORMAT_SHA256) return { manifest: null, reason: 'manifest of an older format' };
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
      const intact = m.format === FORMAT ? g.crc32 !== undefined && crc32File(file) === g.crc32 : g.sha256 !== undefined && sha256File(file) === g.sha256;
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
      const m = JSON.parse(readFileSync(this.#manifestPath, 'utf8')) as GraphManifest;
      return m.format === FORMAT || m.format === FORMAT_SHA256 ? m : null;
    } catch {
      return null;
    }
  }

  /**
   * Replaces this shard's saves with `manifest` and its graph files, moved from `files` (manifest
   * file name -> a path on the same file system): the files first, the manifest last, so a crash
   * midway leaves no manifest naming a missing file. Names must be this shard's (no path parts).
   */
  install(manifest: GraphManifest, files: ReadonlyMap<string, string>): void {
    const ours = (f: string): boolean => f.startsWith(`${this.#prefix}-`) && f.endsWith('.hnsw') && !f.includes('/') && !f.includes('\\');
    for (const f of files.keys()) if (!ours(f)) throw new Error(`graph file ${JSON.stringify(f)} is not one of shard ${this.#prefix}'s`);
    for (const g of Object.values(manifest.spaces)) if (!files.has(g.file)) throw new Error(`graph file ${JSON.stringify(g.file)} missing`);
    this.drop();
    mkdirSync(this.#dir, { recursive: true });
    for (const [file, from] of files) renameSync(from, join(this.#dir, file));
    const tmp = `${this.#manifestPath}.tmp`;
    writeFileSync(tmp, JSON.stringify(manifest));
    renameSync(tmp, this.#manifestPath);
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
