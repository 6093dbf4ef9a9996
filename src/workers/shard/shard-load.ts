// Opening one shard: its memory rebuilt from its LMDB range (every point record read and applied),
// its HNSW graphs read from the newest intact save (graph-snapshots.ts) and brought up to date
// with the writes after it (graph-restore.ts), or rebuilt from the vectors; then what the load
// did, for the start-up log (ShardLoad).
//
// Invariants: the write sequence ends at least at the highest a record or the save's manifest
// holds; the replayed writes are exactly the records with a sequence above the manifest's and its
// ids no longer stored; the save state (ShardSaves.loaded) says the graphs are covered by a save
// only when a manifest was read, nothing was replayed and no graph was rebuilt.

import type { ShardLoadPhases } from '../../shared/protocol.js';
import { bytesU32, bytesVector, shardRange, storedPayload, storedPayloadBytes, type PointKey } from '../../shared/db.js';
import { Stopwatch } from '../../shared/startup-clock.js';
import type { Row } from './batch-rows.js';
import type { GraphManifest, ManifestRead } from './graph-manifest.js';
import { readSavedGraphs, restoreGraphs } from './graph-restore.js';
import { decodePlainRecord } from './record-decode.js';
import type { ShardSaves } from './shard-saves.js';
import type { FromSave, ShardState } from './shard-state.js';
import type { WantedGraph } from './vector-space.js';

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

/** What lmdb-js calls to decode a value (msgpackr's Unpackr; see readRange). */
interface RecordDecoder {
  decode(bytes: Uint8Array, size: number): unknown;
  copyBuffers?: boolean;
}

/** Shard.load: the graphs read on this thread after the records. */
export function loadShard(s: ShardState, saves: ShardSaves, onPoints?: (n: number) => void): ShardLoad {
  const watch = new Stopwatch();
  const { manifest, reason } = readManifest(s, saves);
  const manifestTime = watch.lap();
  const range = readRange(s, manifest, onPoints);
  const recordsTime = watch.lap();
  const graphs = restoreGraphs(manifest, s.snapshots, s.spaces.values(), s.ids, range.changed);
  return loaded(s, saves, manifest, reason, range, graphs, { manifest: manifestTime, checksum: s.snapshots.checksumTime, records: recordsTime, graphs: watch.lap() });
}

/** Shard.loadAsync: the saved graph files read on libuv threads while this thread reads the records. */
export async function loadShardAsync(s: ShardState, saves: ShardSaves, onPoints?: (n: number) => void): Promise<ShardLoad> {
  const watch = new Stopwatch();
  const { manifest, reason } = readManifest(s, saves);
  const manifestTime = watch.lap();
  const reading = readSavedGraphs(manifest, s.snapshots, s.spaces.values());
  const range = readRange(s, manifest, onPoints);
  const recordsTime = watch.lap();
  const graphs = restoreGraphs(manifest, s.snapshots, s.spaces.values(), s.ids, range.changed, await reading, true);
  // Once the graphs hold the replayed rows, a save may cover them (none runs before).
  void s.caughtUp().then(() => saves.maybeSave(Date.now()));
  return loaded(s, saves, manifest, reason, range, graphs, { manifest: manifestTime, checksum: s.snapshots.checksumTime, records: recordsTime, graphs: watch.lap() });
}

/** The newest intact save's manifest (its ids placed at their saved slots), or why there is none. */
function readManifest(s: ShardState, saves: ShardSaves): ManifestRead {
  const want = new Map<string, WantedGraph | null>();
  for (const space of s.spaces.values()) want.set(space.name, space.wantedGraph());
  const read = s.snapshots.read(want);
  if (read.manifest === null) return read;
  try {
    s.ids.restore(read.manifest.slots);
  } catch (err) {
    // Only a JSON manifest (no checksum of its own) can get here: its layout is not one.
    return { manifest: null, reason: `manifest unreadable: ${err instanceof Error ? err.message : String(err)}` };
  }
  // A server upgraded in place: its JSON manifest, checked, is kept in the binary format from now on.
  if (saves.enabled) s.snapshots.upgrade(read.manifest);
  return read;
}

function loaded(
  s: ShardState,
  saves: ShardSaves,
  manifest: GraphManifest | null,
  reason: string | null,
  { points, changed }: { points: number; changed: number[] },
  graphs: { read: number; rebuilt: number; reason: string | null },
  phases: ShardLoadPhases,
): ShardLoad {
  const replayed = changed.length;
  if (manifest !== null) s.seq = Math.max(s.seq, manifest.seq);
  const upToDate = manifest !== null && replayed === 0 && graphs.rebuilt === 0;
  // Not covered by a save: every point when none was read, else the replayed writes (at least
  // one when a graph was rebuilt, so that the next save happens).
  saves.loaded(upToDate, upToDate ? 0 : manifest === null ? points : Math.max(1, replayed));
  const rebuildReason = graphs.rebuilt > 0 ? (graphs.reason ?? reason) : null;
  return { points, graphsRead: graphs.read, graphsRebuilt: graphs.rebuilt, replayed, rebuildReason, phases };
}

/**
 * Reads every point of the range into memory. With a manifest: answers the slots written after
 * its position (records with a higher sequence) and those of its ids no longer stored (deleted
 * after it), the latter released here.
 */
function readRange(s: ShardState, manifest: GraphManifest | null, onPoints?: (n: number) => void): { points: number; changed: number[] } {
  const { start, end } = shardRange(s.collection, s.shard);
  const covered = manifest?.seq ?? Number.POSITIVE_INFINITY;
  const changed: number[] = [];
  // Which of the manifest's slots LMDB still holds (a byte per slot, not a Set: millions of points).
  const seen = new Uint8Array(manifest === null ? 0 : s.ids.slotLimit);
  // Vectors whose graph comes from the save: the graph holds their rows, so records only say
  // which slots hold one (the rows to replay are read back from LMDB through the row reader).
  // Likewise vectors whose rows live on disk only (a quantized graph's originals, or no graph):
  // nothing in memory holds them, so decoding them would only make garbage (at 200k x 768, 600
  // MB of it, and ~0.4 s of the start).
  const saved = new Set<string>();
  for (const space of s.spaces.values()) {
    const float = space.graphParams() !== null;
    if ((float && manifest?.spaces[space.name] !== undefined) || (!float && space.originalsOnDisk)) saved.add(space.name);
  }
  // Every vector from the save (the common case): no row to decode, so none is made. Per record
  // nothing is allocated here beyond what decoding it made (at 100k points the load's garbage
  // collection was a fifth of its time).
  const nothingToDecode = saved.size === s.spaces.size && s.sparse.size === 0 && s.multi.size === 0;
  const fromSave: FromSave | null = saved.size === 0 ? null : { saved: s.spaceList.map((space) => saved.has(space.name)), stored: {} };
  let points = 0;
  // Binaries are decoded as views into LMDB's read buffer, not copied (msgpackr's copyBuffers),
  // for this pass only: a view lasts until the next record is read, and the pass keeps none
  // (bytesVector and bytesU32 copy the rows it stages; a vector from the save only says one is
  // stored; nothing here reads LMDB otherwise). Measured at 100k x 128, the pass over the range
  // took 225-304 ms of CPU with a copy per vector, 152-175 ms without (issue 14, start-up).
  // The commonest records (no payload, dense vectors only) are read by decodePlainRecord, the
  // others by msgpackr as always (record-decode.ts: at 100k x 128 without payloads, the pass's
  // CPU went from 223-233 ms to 136-137, in-process, 3 alternating runs on the busy machine).
  const store = s.db.points as { decoder?: RecordDecoder };
  const decoder = store.decoder;
  const copies = decoder?.copyBuffers;
  if (decoder !== undefined && copies === true) decoder.copyBuffers = false;
  if (decoder !== undefined) store.decoder = { decode: (bytes, size) => decodePlainRecord(bytes, size) ?? decoder.decode(bytes, size) };
  try {
    points = readRecords(s, start, end, nothingToDecode, saved, fromSave, seen, covered, changed, onPoints);
  } finally {
    if (decoder !== undefined) store.decoder = decoder;
    if (decoder !== undefined && copies === true) decoder.copyBuffers = true;
  }
  onPoints?.(points);
  if (manifest !== null) {
    const kinds = manifest.slots.kind;
    for (let slot = 0; slot < kinds.length; slot++) {
      if (kinds[slot] === 0 || seen[slot] === 1) continue;
      s.ids.release(s.ids.idOf(slot)!);
      changed.push(slot);
    }
  }
  return { points, changed };
}

/** readRange's pass over the records: each applied to memory, the slots written after `covered` noted. */
function readRecords(
  s: ShardState,
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
  const noRow: Row = { dense: {}, sparse: {}, multi: {} };
  const onDiskUnindexed = s.payloads.onDisk && !s.payloads.indexed;
  let points = 0;
  for (const { key, value } of s.db.points.getRange({ start, end })) {
    const id = key[2];
    let row = noRow;
    if (!nothingToDecode) {
      row = { dense: {}, sparse: {}, multi: {} };
      for (const name of Object.keys(value.x)) {
        const multi = s.multi.get(name);
        if (multi !== undefined) row.multi[name] = multi.decode(value.x[name]!);
        else if (!saved.has(name)) row.dense[name] = bytesVector(value.x[name]!);
      }
      if (value.s !== undefined) for (const [name, sv] of Object.entries(value.s)) row.sparse[name] = { indices: bytesU32(sv.i), values: bytesVector(sv.v) };
    }
    if (fromSave !== null) fromSave.stored = value.x;
    // Payloads on disk with no field index to fill: the record keeps it, nothing is parsed.
    const payload = onDiskUnindexed ? null : storedPayload(value.p);
    const slot = s.apply(id, value.v, payload, row, false, fromSave);
    s.payloads.sized(slot, storedPayloadBytes(value.p));
    const q = value.q ?? 0;
    if (q > s.seq) s.seq = q;
    if (slot < seen.length) seen[slot] = 1;
    if (q > covered) changed.push(slot);
    if (++points % 4096 === 0) onPoints?.(points);
  }
  return points;
}
