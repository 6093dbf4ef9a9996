// One shard's snapshot as a file (cluster mode, docs/cluster.md section 7 "Snapshots bound replay"):
// what a replica needs to start at a log position without replaying the log from its start. The
// worker that owns the shard writes it (snapshotShard) and restores from it (restoreShard); the
// main thread moves the file to and from the JetStream object store (src/main/cluster/snapshots.ts).
//
// Layout: the magic `QVSNAP01`, then frames of [kind u8][length u32 LE][payload]:
//   1 header   v8 {format, collection, shard, seq, payloadSchema, at}
//   2 points   v8 [id, StoredPoint][]: the shard's LMDB records as stored, in key order
//   3 graphs   v8 {manifest, sizes}: the saved graphs' manifest (graph-snapshots.ts) and file sizes
//   4 bytes    [file index u32 LE][bytes]: a piece of graph file `index`, files in manifest order
//   9 end      v8 {points, graphBytes, crc32}: counts, and the CRC-32 of every byte before this frame
//
// Invariants:
// - The records and `seq` (the shard's applied_seq) come from ONE LMDB read transaction, so the
//   points are exactly those of the log entries up to `seq` (applier.ts commits them together).
// - The graphs are included only when their manifest covers exactly those records (every record
//   at or below its write sequence, as many live points); otherwise the restore rebuilds them.
// - A restore checks the whole file (magic, frames, counts, CRC-32, collection and shard) before
//   it changes anything, then replaces the shard's LMDB range and applied_seq in ONE transaction,
//   then its graph files (manifest last): a crash midway leaves the old state or the new records
//   without graphs (rebuilt at load), never a mix (test/workers/cluster/restore-crash.workers.test.ts
//   kills a restore at many moments). Payload indexes are the collection's config (the catalog),
//   rebuilt at load; the header carries them for the record. Carrying the built indexes was
//   measured and not worth it: a keyword index over 50,000 points costs 0.11 s CPU of a 1.1 s
//   restore, and a carried one would still be re-inserted into its maps (0.02-0.04 s) and mapped
//   from point ids to the new slots, for a second copy that must match the records.

import { closeSync, linkSync, mkdirSync, openSync, readSync, rmSync, statSync, writeSync, copyFileSync } from 'node:fs';
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { shardRange, type QuiverDb, type StoredPoint } from '../../shared/db.js';
import { appliedSeqKey } from '../../shared/log-entry.js';
import type { PointId } from '../../shared/types.js';
import type { FieldIndexSchema } from '../../shared/types.js';
import { slotCount, type GraphManifest, type GraphSnapshots } from '../shard/graph-snapshots.js';

type Transaction = ReturnType<QuiverDb['root']['useReadTransaction']>;

const MAGIC = Buffer.from('QVSNAP01', 'latin1');
const FORMAT = 1;
const enum Kind {
  Header = 1,
  Points = 2,
  Graphs = 3,
  Bytes = 4,
  End = 9,
}
/** Records per points frame, and graph bytes per bytes frame. */
const POINTS_PER_FRAME = 512;
const BYTES_PER_FRAME = 1 << 20;
/** A frame longer than this is damage, not data (a points frame of 512 large records stays far below). */
const MAX_FRAME = 1 << 30;

export interface SnapshotHeader {
  format: number;
  collection: number;
  shard: number;
  /** The shard's applied_seq: the snapshot holds the log's entries up to here. */
  seq: number;
  payloadSchema: Record<string, FieldIndexSchema>;
  /** When it was taken (ISO 8601). */
  at: string;
}

interface GraphsFrame {
  manifest: GraphManifest;
  sizes: number[];
}

interface EndFrame {
  points: number;
  graphBytes: number;
  crc32: number;
}

/**
 * What a snapshot holds, taken synchronously (take()): an open LMDB read transaction (the records
 * and applied_seq it sees) and hard links to the graph files the manifest names (a later save may
 * delete the originals; the links keep these). write() writes the file and ends both; so does
 * release() without writing.
 */
export class ShardCapture {
  readonly header: SnapshotHeader;
  readonly manifest: GraphManifest | null;
  /** Linked graph files, in manifest space order (paths). */
  readonly graphFiles: string[];
  readonly #db: QuiverDb;
  readonly #txn: Transaction;
  #released = false;

  private constructor(db: QuiverDb, txn: Transaction, header: SnapshotHeader, manifest: GraphManifest | null, graphFiles: string[]) {
    this.#db = db;
    this.#txn = txn;
    this.header = header;
    this.manifest = manifest;
    this.graphFiles = graphFiles;
  }

  /**
   * Opens the read transaction and links the saved graph files into `workDir` (created). Call it
   * when no write of the shard is in flight (its apply loop paused), so the newest save and the
   * committed records are taken at the same point.
   */
  static take(db: QuiverDb, graphs: GraphSnapshots, collection: number, shard: number, payloadSchema: Record<string, FieldIndexSchema>, workDir: string): ShardCapture {
    mkdirSync(workDir, { recursive: true });
    const txn = db.root.useReadTransaction();
    const seq = db.meta.get(appliedSeqKey(collection, shard), { transaction: txn }) ?? 0;
    let manifest = graphs.current();
    const graphFiles: string[] = [];
    if (manifest !== null) {
      try {
        for (const g of Object.values(manifest.spaces)) {
          const to = join(workDir, g.file);
          rmSync(to, { force: true });
          try {
            linkSync(graphs.path(g.file), to);
          } catch {
            copyFileSync(graphs.path(g.file), to);
          }
          graphFiles.push(to);
        }
      } catch {
        // A file of the manifest is gone (a save replaced it meanwhile): the restore rebuilds.
        for (const f of graphFiles) rmSync(f, { force: true });
        graphFiles.length = 0;
        manifest = null;
      }
    }
    const header: SnapshotHeader = { format: FORMAT, collection, shard, seq, payloadSchema, at: new Date().toISOString() };
    return new ShardCapture(db, txn, header, manifest, graphFiles);
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#txn.done();
    for (const f of this.graphFiles) rmSync(f, { force: true });
  }

  /**
   * Writes the snapshot to `file`, the records read through the capture's transaction a frame at
   * a time (the thread serves between frames), then releases the capture. Answers the bytes
   * written, the points, and whether the graphs went in.
   */
  async write(file: string): Promise<{ bytes: number; points: number; graphs: boolean }> {
    try {
      return await writeFrames(this, this.#db, this.#txn, file);
    } finally {
      this.release();
    }
  }
}

/** Thrown for a snapshot file that is not one, or not whole: the restore refuses it, changing nothing. */
export class SnapshotDamaged extends Error {}

class FrameWriter {
  readonly #fh: FileHandle;
  #crc = 0;
  bytes = 0;

  constructor(fh: FileHandle) {
    this.#fh = fh;
  }

  async raw(b: Uint8Array): Promise<void> {
    this.#crc = crc32(b, this.#crc);
    this.bytes += b.byteLength;
    await this.#fh.write(b);
  }

  async frame(kind: Kind, payload: Uint8Array, prefix?: Uint8Array): Promise<void> {
    const head = Buffer.allocUnsafe(5);
    head.writeUInt8(kind, 0);
    head.writeUInt32LE(payload.byteLength + (prefix?.byteLength ?? 0), 1);
    await this.raw(head);
    if (prefix !== undefined) await this.raw(prefix);
    await this.raw(payload);
  }

  get crc(): number {
    return this.#crc;
  }
}

async function writeFrames(capture: ShardCapture, db: QuiverDb, txn: Transaction, file: string): Promise<{ bytes: number; points: number; graphs: boolean }> {
  const fh = await openFile(file, 'w');
  try {
    const w = new FrameWriter(fh);
    await w.raw(MAGIC);
    await w.frame(Kind.Header, serialize(capture.header));
    const { collection, shard } = capture.header;
    const { start, end } = shardRange(collection, shard);
    let batch: [PointId, StoredPoint][] = [];
    let points = 0;
    let maxQ = 0;
    for (const { key, value } of db.points.getRange({ start, end, transaction: txn })) {
      batch.push([key[2], value]);
      if ((value.q ?? 0) > maxQ) maxQ = value.q ?? 0;
      points++;
      if (batch.length >= POINTS_PER_FRAME) {
        await w.frame(Kind.Points, serialize(batch));
        batch = [];
      }
    }
    if (batch.length > 0) await w.frame(Kind.Points, serialize(batch));
    // The graphs go in only when they cover exactly these records (see the file comment).
    const m = capture.manifest;
    const exact = m !== null && m.seq >= maxQ && m.count === points && slotCount(m.slots) === points;
    let graphBytes = 0;
    if (exact) {
      const sizes = capture.graphFiles.map((f) => statSync(f).size);
      await w.frame(Kind.Graphs, serialize({ manifest: m, sizes } satisfies GraphsFrame));
      const buf = Buffer.allocUnsafe(BYTES_PER_FRAME);
      for (let i = 0; i < capture.graphFiles.length; i++) {
        const fd = openSync(capture.graphFiles[i]!, 'r');
        try {
          const index = Buffer.allocUnsafe(4);
          index.writeUInt32LE(i, 0);
          for (;;) {
            const n = readSync(fd, buf, 0, buf.length, null);
            if (n === 0) break;
            await w.frame(Kind.Bytes, buf.subarray(0, n), index);
            graphBytes += n;
          }
        } finally {
          closeSync(fd);
        }
      }
    }
    await w.frame(Kind.End, serialize({ points, graphBytes, crc32: w.crc } satisfies EndFrame));
    await fh.sync();
    return { bytes: w.bytes, points, graphs: exact };
  } finally {
    await fh.close();
  }
}

/** Reads a snapshot file frame by frame (synchronously), keeping the running CRC-32. */
class FrameReader {
  readonly #fd: number;
  readonly #size: number;
  #pos = 0;
  #crc = 0;

  constructor(file: string) {
    this.#fd = openSync(file, 'r');
    this.#size = statSync(file).size;
  }

  #read(n: number): Buffer {
    if (this.#pos + n > this.#size) throw new SnapshotDamaged(`snapshot file ends early (at byte ${this.#size}, wanted ${this.#pos + n})`);
    const b = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const k = readSync(this.#fd, b, got, n - got, this.#pos + got);
      if (k === 0) throw new SnapshotDamaged('snapshot file ends early');
      got += k;
    }
    this.#pos += n;
    return b;
  }

  magic(): void {
    const m = this.#read(MAGIC.length);
    if (!m.equals(MAGIC)) throw new SnapshotDamaged('not a Quiver shard snapshot (bad magic)');
    this.#crc = crc32(m, this.#crc);
  }

  /** The next frame, or null at the end of the file. `crcBefore`: the CRC-32 of everything before it. */
  next(): { kind: number; payload: Buffer; crcBefore: number } | null {
    if (this.#pos === this.#size) return null;
    const crcBefore = this.#crc;
    const head = this.#read(5);
    const len = head.readUInt32LE(1);
    if (len > MAX_FRAME) throw new SnapshotDamaged(`snapshot frame of ${len} bytes`);
    const payload = this.#read(len);
    this.#crc = crc32(payload, crc32(head, this.#crc));
    return { kind: head.readUInt8(0), payload, crcBefore };
  }

  close(): void {
    closeSync(this.#fd);
  }
}

function decode<T>(payload: Buffer, what: string): T {
  try {
    return deserialize(payload) as T;
  } catch (err) {
    throw new SnapshotDamaged(`snapshot ${what} frame unreadable: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** One pass over the file: every frame in order, checked; `onPoints` and `onBytes` see the data. */
function readSnapshot(
  file: string,
  on: { header?(h: SnapshotHeader): void; points?(batch: [PointId, StoredPoint][]): void; graphs?(g: GraphsFrame): void; bytes?(index: number, b: Buffer): void } = {},
): { header: SnapshotHeader; graphs: GraphsFrame | null; end: EndFrame } {
  const r = new FrameReader(file);
  try {
    r.magic();
    let header: SnapshotHeader | null = null;
    let graphs: GraphsFrame | null = null;
    let points = 0;
    let graphBytes = 0;
    for (;;) {
      const f = r.next();
      if (f === null) throw new SnapshotDamaged('snapshot file has no end frame (cut short)');
      if (header === null && f.kind !== Kind.Header) throw new SnapshotDamaged('snapshot file does not start with its header');
      switch (f.kind) {
        case Kind.Header: {
          if (header !== null) throw new SnapshotDamaged('snapshot file has two headers');
          header = decode<SnapshotHeader>(f.payload, 'header');
          if (header.format !== FORMAT) throw new SnapshotDamaged(`snapshot format ${String(header.format)} is not ${FORMAT}`);
          on.header?.(header);
          break;
        }
        case Kind.Points: {
          if (graphs !== null) throw new SnapshotDamaged('snapshot points after its graphs');
          const batch = decode<[PointId, StoredPoint][]>(f.payload, 'points');
          points += batch.length;
          on.points?.(batch);
          break;
        }
        case Kind.Graphs:
          graphs = decode<GraphsFrame>(f.payload, 'graphs');
          on.graphs?.(graphs);
          break;
        case Kind.Bytes: {
          if (graphs === null || f.payload.length < 4) throw new SnapshotDamaged('snapshot graph bytes without their manifest');
          const index = f.payload.readUInt32LE(0);
          if (index >= graphs.sizes.length) throw new SnapshotDamaged(`snapshot graph bytes of file ${index}, of ${graphs.sizes.length}`);
          graphBytes += f.payload.length - 4;
          on.bytes?.(index, f.payload.subarray(4));
          break;
        }
        case Kind.End: {
          const end = decode<EndFrame>(f.payload, 'end');
          if (end.crc32 !== f.crcBefore) throw new SnapshotDamaged('snapshot file damaged (CRC-32 mismatch)');
          if (end.points !== points || end.graphBytes !== graphBytes) {
            throw new SnapshotDamaged(`snapshot file incomplete: ${points} points and ${graphBytes} graph bytes of ${end.points} and ${end.graphBytes}`);
          }
          if (graphs !== null && graphs.sizes.reduce((a, b) => a + b, 0) !== graphBytes) throw new SnapshotDamaged('snapshot graph files incomplete');
          if (r.next() !== null) throw new SnapshotDamaged('snapshot file has bytes after its end frame');
          return { header: header!, graphs, end };
        }
        default:
          throw new SnapshotDamaged(`snapshot frame of unknown kind ${f.kind}`);
      }
    }
  } finally {
    r.close();
  }
}

/** Checks the whole file (see the file comment) and answers its header; SnapshotDamaged otherwise. */
export function checkSnapshot(file: string, collection: number, shard: number): SnapshotHeader {
  const { header } = readSnapshot(file);
  if (header.collection !== collection || header.shard !== shard) {
    throw new SnapshotDamaged(`snapshot of shard ${header.collection}/${header.shard}, not ${collection}/${shard}`);
  }
  return header;
}

/**
 * Replaces the shard's LMDB range and applied_seq with the snapshot's (one transaction), then its
 * graph files (none: the next load rebuilds them). The shard must not be loaded or written
 * meanwhile (the host closed it), and the file must have passed checkSnapshot.
 */
export async function installSnapshot(db: QuiverDb, graphs: GraphSnapshots, file: string, workDir: string): Promise<{ seq: number; points: number; graphs: boolean }> {
  let header: SnapshotHeader | null = null;
  let points = 0;
  // No saved graph may describe records other than the ones on disk: gone before the records change.
  graphs.drop();
  await db.root.transaction(() => {
    let first = true;
    readSnapshot(file, {
      header: (h) => {
        header = h;
      },
      points: (batch) => {
        if (first) {
          first = false;
          const { start, end } = shardRange(header!.collection, header!.shard);
          for (const key of [...db.points.getKeys({ start, end })]) void db.points.remove(key);
        }
        for (const [id, rec] of batch) {
          void db.points.put([header!.collection, header!.shard, id], asStored(rec));
          points++;
        }
      },
    });
    const h = header!;
    if (first) {
      const { start, end } = shardRange(h.collection, h.shard);
      for (const key of [...db.points.getKeys({ start, end })]) void db.points.remove(key);
    }
    void db.meta.put(appliedSeqKey(h.collection, h.shard), h.seq);
  });
  await db.meta.flushed;
  const h = header as SnapshotHeader | null;
  if (h === null) throw new SnapshotDamaged('snapshot file has no header');
  // The graph files, extracted next to where they go, then moved in under the manifest.
  mkdirSync(workDir, { recursive: true });
  const fds: number[] = [];
  const paths: string[] = [];
  let manifest: GraphManifest | null = null;
  try {
    readSnapshot(file, {
      graphs: (g) => {
        manifest = g.manifest;
        for (const s of Object.values(g.manifest.spaces)) {
          const p = join(workDir, `${s.file}.part`);
          paths.push(p);
          fds.push(openSync(p, 'w'));
        }
      },
      bytes: (index, b) => {
        const fd = fds[index];
        if (fd !== undefined) writeSync(fd, b);
      },
    });
  } finally {
    for (const fd of fds) closeSync(fd);
  }
  const m = manifest as GraphManifest | null;
  if (m !== null) {
    const files = new Map<string, string>();
    Object.values(m.spaces).forEach((s, i) => files.set(s.file, paths[i]!));
    graphs.install(m, files);
  }
  for (const p of paths) rmSync(p, { force: true });
  return { seq: h.seq, points, graphs: m !== null };
}

/** A record as lmdb-js stores it: vectors as Buffers (msgpack binary), whatever v8 gave back. */
function asStored(rec: StoredPoint): StoredPoint {
  const buf = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  const x: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(rec.x)) x[k] = buf(v);
  const out: StoredPoint = { v: rec.v, p: rec.p, x };
  if (rec.q !== undefined) out.q = rec.q;
  if (rec.s !== undefined) {
    const s: Record<string, { i: Uint8Array; v: Uint8Array }> = {};
    for (const [k, v] of Object.entries(rec.s)) s[k] = { i: buf(v.i), v: buf(v.v) };
    out.s = s;
  }
  return out;
}
