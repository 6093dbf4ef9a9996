// A load's saved graphs put to use: read (off-thread, readSavedGraphs) and given to their vector
// spaces, then brought up to date with the writes after the save (restoreGraphs), or rebuilt from
// the stored vectors where a graph cannot be used. Which save is trusted is graph-snapshots.ts's
// to say; this module only reads what its manifest names.
//
// Invariant: every space that should have a float32 graph has one when restoreGraphs returns (read
// or rebuilt); a rebuild is counted and its reason kept. A quantized graph is read when the save
// holds this setting's (graph-snapshots.ts checked it), else built in the background
// (quantized-space.ts) while searches are exact.

/** The binding's parameters of a saved quantized graph (its entry passed graph-snapshots.ts's checks). */
function quantizedParams(saved: SavedGraph): QuantizedParams | null {
  const codes = parseCodesSpace(saved.space);
  if (saved.codes === undefined || codes === null) return null;
  return { ...codes, dim: saved.dim, m: saved.m, efConstruct: saved.efConstruct, alpha: saved.codes.alpha, offset: saved.codes.offset };
}

import type { IdTrackerRead } from './id-tracker.js';
import { HnswIndex } from '../index/hnsw.js';
import { QuantizedGraph, type QuantizedParams } from '../index/quantized-graph.js';
import { parseCodesSpace, type GraphManifest, type SavedGraph } from './graph-manifest.js';
import type { GraphSnapshots } from './graph-snapshots.js';
import type { VectorSpace } from './vector-space.js';

/**
 * Starts reading, on libuv threads, every saved graph the manifest holds for a space that should
 * have one; resolves with each graph read, or the error that stopped it (restoreGraphs then
 * rebuilds that one, saying why). Nothing is read without a manifest.
 */
export async function readSavedGraphs(manifest: GraphManifest | null, snapshots: GraphSnapshots, spaces: Iterable<VectorSpace>): Promise<Map<string, HnswIndex | QuantizedGraph | Error>> {
  const out = new Map<string, HnswIndex | QuantizedGraph | Error>();
  if (manifest === null) return out;
  await Promise.all(
    [...spaces].map(async (space) => {
      const params = space.graphParams();
      const saved = manifest.spaces[space.name];
      if (saved === undefined) return;
      // A quantized graph only where the vector wants one (read() checked that entry then).
      const codes = params === null && space.quantized !== null ? quantizedParams(saved) : null;
      if (params === null && codes === null) return;
      const file = { file: snapshots.path(saved.file), labels: saved.labels, deleted: saved.deleted };
      try {
        out.set(space.name, params !== null ? await HnswIndex.read(params, file) : await QuantizedGraph.read(codes!, file));
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
  preRead: ReadonlyMap<string, HnswIndex | QuantizedGraph | Error> = new Map(),
  deferReplay = false,
): { read: number; rebuilt: number; reason: string | null } {
  let read = 0;
  let rebuilt = 0;
  let reason: string | null = null;
  const dirty = [...changed];
  for (const space of spaces) {
    const params = space.graphParams();
    const saved = manifest?.spaces[space.name];
    if (params === null) {
      if (saved !== undefined && restoreQuantized(space, saved, snapshots, preRead.get(space.name), dirty, deferReplay)) read++;
      // None to use: built in the background (a load with the rows on disk never wrote them in).
      else space.quantized?.startIfDue();
      continue;
    }
    if (saved !== undefined) {
      try {
        const pre = preRead.get(space.name);
        if (pre instanceof Error) throw pre;
        if (pre instanceof QuantizedGraph) throw new Error('a quantized graph where a float32 one is wanted');
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

/**
 * A quantized vector's saved graph put to use and brought up to date, as restoreGraphs does for a
 * float32 one; false when there is none to use (then it is built in the background, as after a
 * PATCH, searches exact meanwhile), which costs no rebuild of the other graphs.
 */
function restoreQuantized(space: VectorSpace, saved: SavedGraph, snapshots: GraphSnapshots, pre: HnswIndex | QuantizedGraph | Error | undefined, dirty: readonly number[], deferReplay: boolean): boolean {
  const params = quantizedParams(saved);
  if (params === null || space.quantized === null || pre instanceof Error || pre instanceof HnswIndex) return false;
  try {
    space.useQuantized(pre ?? new QuantizedGraph(params, { file: snapshots.path(saved.file), labels: saved.labels, deleted: saved.deleted }));
  } catch {
    return false;
  }
  space.replay(dirty, deferReplay && dirty.length >= DEFER_REPLAY_MIN);
  return true;
}
