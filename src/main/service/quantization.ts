// quantization_config on create and PATCH (docs/storage.md, "Quantized graphs"): what Quiver
// applies (scalar int8; binary with one bit per dimension), what it refuses by name (product and
// turbo quantization, the binary encodings and query encodings it lacks, a vector with no HNSW
// graph to build over codes, a server without the quantized build), and "Disabled" in a PATCH.

import { QuiverError } from '../../shared/errors.js';
import type { QuantizationConfig as QuantizationIn, QuantizationConfigDiff } from '../../shared/schemas/collections.js';
import type { CollectionConfig, QuantizationConfig } from '../../shared/types.js';
import { vectorName } from './storage-settings.js';
import { quantizedHnsw } from '../../workers/index/quantized-loader.js';

const KINDS_OFFERED = 'use scalar (int8) or binary quantization';

/** The setting as kept in the catalog, or a 400 naming what Quiver does not offer. */
export function quantizationIn(q: QuantizationIn): QuantizationConfig {
  if ('product' in q) throw QuiverError.badInput(`Product quantization is not supported by Quiver: ${KINDS_OFFERED}`);
  if ('turbo' in q) throw QuiverError.badInput(`Turbo quantization is not supported by Quiver: ${KINDS_OFFERED}`);
  // The codes are the rows of the HNSW graph built over them: always in memory.
  const memory = 'scalar' in q ? q.scalar.memory : q.binary.memory;
  if (memory === 'cold') throw QuiverError.badInput("quantization_config memory: 'cold' cannot apply: the codes are the rows of Quiver's HNSW graph, in memory (vectors.memory or on_disk puts the originals on disk)");
  if ('scalar' in q) {
    const s = q.scalar;
    return {
      scalar: {
        type: 'int8',
        ...(typeof s.quantile === 'number' ? { quantile: s.quantile } : {}),
        ...(typeof s.always_ram === 'boolean' ? { always_ram: s.always_ram } : {}),
        ...(typeof s.memory === 'string' ? { memory: s.memory } : {}),
      },
    };
  }
  const b = q.binary;
  if (b.encoding !== undefined && b.encoding !== null && b.encoding !== 'one_bit') {
    throw QuiverError.badInput(`Binary quantization encoding '${b.encoding}' is not supported by Quiver: use 'one_bit'`);
  }
  return {
    binary: {
      ...(typeof b.always_ram === 'boolean' ? { always_ram: b.always_ram } : {}),
      ...(typeof b.memory === 'string' ? { memory: b.memory } : {}),
      ...(b.encoding === 'one_bit' ? { encoding: b.encoding } : {}),
      ...(b.query_encoding !== undefined && b.query_encoding !== null ? { query_encoding: b.query_encoding } : {}),
    },
  };
}

/** A PATCH's quantization_config: a new setting, null for "Disabled", undefined for none given. */
export function quantizationDiffIn(q: QuantizationConfigDiff | null | undefined): QuantizationConfig | null | undefined {
  if (q === undefined || q === null) return undefined;
  return q === 'Disabled' ? null : quantizationIn(q);
}

/**
 * Every dense vector quantized by `config` (its own setting or the collection's) must have an
 * HNSW graph to build over its codes, and this server the quantized build: else a 400 naming it.
 */
export function checkQuantizable(config: CollectionConfig): void {
  let any = false;
  for (const [v, p] of Object.entries(config.vectors)) {
    const q = p.quantization_config ?? config.quantization_config ?? null;
    if (q === null) continue;
    any = true;
    if (p.distance === 'Manhattan') throw QuiverError.badInput(`Quantization cannot apply to ${vectorName(v)}: Manhattan distance has no HNSW graph in Quiver, so its searches are exact over the float32 vectors`);
    const m = p.hnsw_config?.m ?? config.hnsw_config.m;
    if (m === 0) throw QuiverError.badInput(`Quantization cannot apply to ${vectorName(v)}: its hnsw_config.m is 0 (no HNSW graph), so its searches are exact over the float32 vectors`);
  }
  if (!any) return;
  const lib = quantizedHnsw();
  if (!('lib' in lib)) throw QuiverError.badInput(`Quantization is not available on this server: ${lib.reason}`);
}
