// Where a collection's data lives, as its settings ask, checked on create and PATCH (after the
// PATCH is merged): a setting Quiver cannot apply is refused with a 400 naming it, rather than
// accepted and ignored (README, "Collection settings"). What Quiver applies:
// - vectors.on_disk: the float32 originals read from the points' LMDB records rather than held in
//   memory, where nothing else holds them: a quantized vector (its graph holds codes) or one with
//   no graph (hnsw_config.m 0, or Manhattan). A float32 HNSW graph holds its vectors (hnswlib
//   keeps each row it indexes), so on_disk there would save nothing: refused.
// - hnsw_config.on_disk, a sparse index's on_disk: graphs and sparse indexes are in memory: refused.
// - Qdrant 1.19's `memory` placements: `cold` is read as on_disk (onDiskOf), and refused or
//   applied as that flag is; refusals name the placement given.
// - on_disk_payload: applied (payload-space.ts in the workers).

import { QuiverError } from '../../shared/errors.js';
import { DEFAULT_VECTOR, type CollectionConfig, type MemoryPlacement } from '../../shared/types.js';

/** A memory placement read as on_disk where one is given (it overrides the flag), else the flag. */
export function onDiskOf(memory: MemoryPlacement | null | undefined, onDisk: boolean | null | undefined): boolean | undefined {
  if (memory !== undefined && memory !== null) return memory === 'cold';
  return typeof onDisk === 'boolean' ? onDisk : undefined;
}

/**
 * How a refusal names the setting that put something on disk: its memory placement, or its flag
 * (`flag` ends in on_disk; `of` says whose, placed before the value).
 */
function diskSetting(memory: MemoryPlacement | undefined, flag: string, of = ''): string {
  return memory === 'cold' ? `${flag.replace(/on_disk$/, 'memory')}${of}: 'cold'` : `${flag}${of}: true`;
}

/** A vector as messages name it: 'the unnamed vector' or "vector 'name'". */
export const vectorName = (v: string): string => (v === DEFAULT_VECTOR ? 'the unnamed vector' : `vector '${v}'`);

/**
 * Throws the first refusal `config` has that `before` (the collection's configuration before a
 * PATCH) did not: a collection created when such settings were accepted and ignored can still be
 * PATCHed in other ways.
 */
export function checkStorageSettings(config: CollectionConfig, before?: CollectionConfig): void {
  const had = new Set(before === undefined ? [] : refusals(before).map((e) => e.message));
  const fresh = refusals(config).find((e) => !had.has(e.message));
  if (fresh !== undefined) throw fresh;
}

/** Every setting of `config` Quiver cannot apply, each as the 400 that refuses it. */
function refusals(config: CollectionConfig): QuiverError[] {
  const out: QuiverError[] = [];
  if (config.hnsw_config.on_disk) out.push(hnswOnDisk(diskSetting(config.hnsw_config.memory, 'hnsw_config.on_disk')));
  for (const [v, p] of Object.entries(config.vectors)) {
    if (p.multivector_config !== undefined) {
      out.push(...multiRefusals(config, v));
      continue;
    }
    if (p.hnsw_config?.on_disk === true) out.push(hnswOnDisk(diskSetting(p.hnsw_config.memory, 'hnsw_config.on_disk', ` of ${vectorName(v)}`)));
    if (p.on_disk !== true) continue;
    const quantized = (p.quantization_config ?? config.quantization_config ?? null) !== null;
    const graph = p.distance !== 'Manhattan' && (p.hnsw_config?.m ?? config.hnsw_config.m) > 0;
    if (!quantized && graph) {
      out.push(QuiverError.badInput(
        `${diskSetting(p.memory, 'on_disk')} cannot apply to ${vectorName(v)}: without quantization_config its HNSW graph holds the float32 vectors in memory. ` +
          'Set quantization_config (the graph then holds int8 or binary codes, and the originals are read from disk), or hnsw_config.m: 0 (exact search over vectors read from disk)',
      ));
    }
  }
  for (const [v, p] of Object.entries(config.sparse_vectors)) {
    if (p.index?.on_disk === true) out.push(QuiverError.badInput(`${diskSetting(p.index.memory, 'index.on_disk')} cannot apply to sparse vector '${v}': Quiver keeps sparse indexes in memory`));
  }
  return out;
}

/**
 * A multivector's rows are held in memory and scored exactly, with no graph (multi-space.ts in
 * the workers): on_disk and quantization would do nothing there, so they are refused. Its
 * hnsw_config is kept as given (m: 0 says outright that no graph is wanted).
 */
function multiRefusals(config: CollectionConfig, v: string): QuiverError[] {
  const p = config.vectors[v]!;
  const out: QuiverError[] = [];
  const what = `${vectorName(v)}, a multivector`;
  if (p.on_disk === true) out.push(QuiverError.badInput(`${diskSetting(p.memory, 'on_disk')} cannot apply to ${what}: Quiver keeps multivectors in memory`));
  if (p.quantization_config !== undefined) {
    out.push(QuiverError.badInput(`quantization_config cannot apply to ${what}: Quiver scores multivectors exactly from their float32 or uint8 rows`));
  } else if (config.quantization_config !== undefined && config.quantization_config !== null) {
    out.push(QuiverError.badInput(`the collection's quantization_config cannot apply to ${what}: Quiver scores multivectors exactly from their float32 or uint8 rows. Give quantization_config to the dense vectors instead`));
  }
  return out;
}

function hnswOnDisk(what: string): QuiverError {
  return QuiverError.badInput(`${what} cannot apply: Quiver keeps HNSW graphs in memory (quantization_config shrinks them to int8 or binary codes, with the float32 vectors on disk)`);
}

/**
 * Settings refused where they are read: a vector type Quiver does not store (uint8 is stored for
 * multivectors only), per-payload links.
 */
export function checkVectorRequest(p: { datatype?: unknown; multivector_config?: unknown; hnsw_config?: { payload_m?: number | null } | null }, where: string): void {
  const multi = p.multivector_config !== undefined && p.multivector_config !== null;
  if (!(multi && p.datatype === 'uint8')) {
    checkDatatype(p.datatype, where, `Quiver stores vectors as float32 (quantization_config keeps int8 or binary codes for the graph)${multi ? ', and multivectors as float32 or uint8' : ''}`);
  }
  checkPayloadM(p.hnsw_config, `hnsw_config of ${where}`);
}

/** A datatype other than float32 is refused, `why` saying what Quiver stores instead. */
export function checkDatatype(datatype: unknown, where: string, why: string): void {
  if (datatype !== undefined && datatype !== null && datatype !== 'float32') throw QuiverError.badInput(`datatype '${String(datatype)}' of ${where} is not supported: ${why}`);
}

export function checkPayloadM(h: { payload_m?: number | null } | null | undefined, where: string): void {
  if (h?.payload_m !== undefined && h.payload_m !== null) {
    throw QuiverError.badInput(`payload_m in ${where} is not supported: Quiver builds no extra HNSW links per payload value (filters on indexed keys narrow the candidates instead)`);
  }
}
