// The manifest of one shard's saved graphs, as bytes and in memory: the binary format 4
// (encodeManifest, decodeManifest) and the JSON formats 3 and 2 an older version wrote (read and
// brought to today's shape by fromJson). The files it lives in, and when it is written or trusted,
// are graph-snapshots.ts's.
//
// Why binary (issue 14, start-up): at 100k points the JSON manifest took ~60 ms of the worker's
// CPU to parse and place id by id, the binary one a few: typed arrays read as they are and placed
// in one pass (IdTracker.restore).
//
// Invariants: a binary manifest is read only when its own CRC-32 matches and its length is the one
// its header gives; decoding what was encoded gives the same manifest (and encoding it again the
// same bytes).

import { crc32 } from 'node:zlib';
import type { PointId } from '../../shared/types.js';
import type { HnswParams } from '../index/hnsw.js';
import { SLOT_INT, SLOT_UUID, type SlotIds } from './id-tracker.js';

/** The binary manifest. */
export const FORMAT = 4;
/** The JSON manifest with CRC-32s (still read). */
export const FORMAT_JSON = 3;
/** The JSON manifest before the CRC-32: its sha256 is checked instead (a save from an older version). */
export const FORMAT_SHA256 = 2;

/**
 * What a saved graph's rows are: float32 in hnswlib's space (hnsw.ts), or codes (quantized-graph.ts)
 * named `<kind>:<space over the codes>`. A version without quantized graphs finds the latter of
 * "other parameters" than its own and rebuilds, rather than reading codes as float32 rows.
 */
export type GraphSpace = HnswParams['space'] | `${'int8' | 'binary'}:${'l2' | 'ip'}`;

/** A quantized graph's GraphSpace. */
export function codesSpace(kind: 'int8' | 'binary', space: 'l2' | 'ip'): GraphSpace {
  return `${kind}:${space}`;
}

/** The kind and the space over the codes a GraphSpace names, or null for a float32 one. */
export function parseCodesSpace(g: GraphSpace): { kind: 'int8' | 'binary'; space: 'l2' | 'ip' } | null {
  const [kind, space] = g.split(':');
  return (kind === 'int8' || kind === 'binary') && (space === 'l2' || space === 'ip') ? { kind, space } : null;
}

/** A quantized graph's codes: the int8 range they map (binary: alpha 1, offset 0) and the quantile it was learned at. */
export interface SavedCodes {
  alpha: number;
  offset: number;
  quantile: number | null;
}

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
  space: GraphSpace;
  dim: number;
  m: number;
  efConstruct: number;
  /** Quantized graphs only. */
  codes?: SavedCodes;
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
export interface JsonManifest {
  format: typeof FORMAT_JSON | typeof FORMAT_SHA256;
  gen: number;
  seq: number;
  count: number;
  slots: [PointId, number][];
  spaces: Record<string, Omit<SavedGraph, 'labels' | 'deleted'> & { labels: number[]; deleted: number[] }>;
}

/** A manifest that passed every check, or why none can be used. */
export type ManifestRead = { manifest: GraphManifest; reason: null } | { manifest: null; reason: string };

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
      if (g.codes !== undefined) out.codes = g.codes;
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
export function fromJson(m: JsonManifest): GraphManifest {
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
export function isJson(m: GraphManifest | JsonManifest): m is JsonManifest {
  return Array.isArray(m.slots);
}

/** The ids a slot layout holds. */
export function slotCount(slots: SlotIds): number {
  let n = 0;
  for (const k of slots.kind) if (k !== 0) n++;
  return n;
}

