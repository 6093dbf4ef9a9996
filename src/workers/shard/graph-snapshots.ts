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
// The manifest's formats are graph-manifest.ts's; putting a read save to use at load (the graphs
// read, the writes after it replayed) is graph-restore.ts's; the formats are re-exported here.
//
// The binary manifest's name starts with the shard's prefix so that an older version's save (a
// downgrade) deletes it with its other files, rather than leaving a stale one to be preferred
// after the next upgrade.
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
import { FORMAT, FORMAT_JSON, FORMAT_SHA256, codesSpace, decodeManifest, encodeManifest, fromJson, isJson, type GraphManifest, type JsonManifest, type ManifestRead, type SavedGraph } from './graph-manifest.js';
import type { IdTrackerRead, SlotIds } from './id-tracker.js';
import type { VectorSpace, WantedGraph } from './vector-space.js';

export { decodeManifest, encodeManifest, slotCount, type GraphManifest, type ManifestRead, type SavedGraph } from './graph-manifest.js';

/** What a save captured synchronously (while the shard's writes are held): graphs and layout at one sequence. */
export interface CapturedSave {
  seq: number;
  count: number;
  slots: SlotIds;
  graphs: CapturedGraph[];
}

/** One graph a save writes: float32 (HnswIndex) or over codes (QuantizedGraph), and what its manifest entry says of it. */
interface CapturedGraph {
  name: string;
  graph: { saveAsync(file: string): Promise<void> };
  params: Pick<SavedGraph, 'space' | 'dim' | 'm' | 'efConstruct' | 'codes'>;
  labels: Uint32Array;
  deleted: Uint32Array;
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
      const graph = space.servingGraph;
      // A quantized graph still being built for the setting in force has nothing to save yet.
      if (graph === null) continue;
      // The graph's own parameters, not the configuration's: a graph serving while its rebuild
      // with new ones runs is saved as what it is, so the next load rebuilds it.
      const p = graph.params;
      const params: CapturedGraph['params'] =
        'encode' in graph && 'kind' in p
          ? { space: codesSpace(p.kind, p.space), dim: p.dim, m: p.m, efConstruct: p.efConstruct, codes: { alpha: p.alpha, offset: p.offset, quantile: space.quantized?.spec.quantile ?? null } }
          : { space: p.space, dim: p.dim, m: p.m, efConstruct: p.efConstruct };
      graphs.push({ name: space.name, graph, params, labels: labelArray(graph.labels), deleted: labelArray(graph.deletedLabels) });
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
      await save.graphs[n]!.graph.saveAsync(join(this.#dir, file));
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
      spaces[g.name] = { file, crc32: await crc32FileAsync(path), size: statSync(path).size, labels: g.labels, deleted: g.deleted, ...g.params };
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

  /** Why a vector's saved graph `g` cannot be used where `params` is wanted, or null when it can. */
  #unusable(name: string, g: SavedGraph | undefined, params: WantedGraph): string | null {
    if (g === undefined) return `no saved graph for vector '${name}'`;
    if (g.space !== params.space || g.dim !== params.dim || g.m !== params.m || g.efConstruct !== params.efConstruct || (g.codes?.quantile ?? null) !== (params.quantile ?? null)) {
      return `graph of vector '${name}' saved with other parameters (${g.codes === undefined ? '' : `${g.space} codes, quantile ${g.codes.quantile ?? 'none'}, `}m ${g.m}, ef_construct ${g.efConstruct})`;
    }
    const file = join(this.#dir, g.file);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return `graph file ${g.file} missing`;
    }
    if (size !== g.size) return `graph file ${g.file} damaged (size ${size}, expected ${g.size})`;
    const watch = new Stopwatch();
    const intact = g.sha256 !== undefined ? sha256File(file) === g.sha256 : g.crc32 !== undefined && crc32File(file) === g.crc32;
    const [wall, cpu] = watch.lap();
    this.checksumTime = [this.checksumTime[0] + wall, cpu === null || this.checksumTime[1] === null ? null : this.checksumTime[1] + cpu];
    return intact ? null : `graph file ${g.file} damaged (checksum mismatch)`;
  }

  /**
   * The newest manifest, when it is intact (its own checksum, format 4), its graph files are
   * intact (size and checksum) and were built with the parameters `want` asks (null: that vector
   * has no graph; a quantized one also the same quantile), else why it cannot be used.
   */
  read(want: ReadonlyMap<string, WantedGraph | null>): ManifestRead {
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
      const why = this.#unusable(name, g, params);
      if (why === null) continue;
      // A quantized graph is rebuilt in the background from the vectors (quantized-space.ts), the
      // rest of the save still used: one may be missing (not built by the save), saved for the
      // setting before a PATCH, or damaged.
      if (params.quantile !== undefined) {
        delete m.spaces[name];
        continue;
      }
      return { manifest: null, reason: why };
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
