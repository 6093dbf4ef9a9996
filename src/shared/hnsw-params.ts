// The one rule for a vector's effective HNSW parameters, used by the workers (which graph to
// build, when to scan exactly) and by the main thread (the default ef of a search): the vector's
// own hnsw_config overrides the collection's, field by field, as in Qdrant; and its quantization,
// its own or else the collection's, whole.

import type { CollectionMeta, HnswConfig, QuantizationConfig } from './types.js';

/** The collection's hnsw_config with the named vector's overrides applied. */
export function effectiveHnsw(meta: CollectionMeta, vector: string): HnswConfig {
  const c = meta.config.hnsw_config;
  const own = meta.config.vectors[vector]?.hnsw_config;
  return {
    m: own?.m ?? c.m,
    ef_construct: own?.ef_construct ?? c.ef_construct,
    full_scan_threshold: own?.full_scan_threshold ?? c.full_scan_threshold,
    max_indexing_threads: own?.max_indexing_threads ?? c.max_indexing_threads,
    on_disk: own?.on_disk ?? c.on_disk,
  };
}

/**
 * Whether vector indexing is off: optimizers_config `indexing_threshold: 0` or
 * `max_optimization_threads: 0`, Qdrant's two ways of saying "build no index". The vectors then
 * have no HNSW graph (searches are exact) until a PATCH turns indexing on, which builds it in the
 * background. A positive threshold changes nothing: Quiver adds points to the graph as they are
 * written, so a graph exists at every size (see docs/storage.md).
 */
export function indexingDisabled(meta: CollectionMeta): boolean {
  const o = meta.config.optimizers_config;
  return o?.indexing_threshold === 0 || o?.max_optimization_threads === 0;
}

/** The m the vector's graph is built with: effectiveHnsw's, or 0 (no graph) while indexing is off. */
export function graphM(meta: CollectionMeta, vector: string): number {
  return indexingDisabled(meta) ? 0 : effectiveHnsw(meta, vector).m;
}

/** The named vector's quantization: its own, else the collection's; null for none. */
export function effectiveQuantization(meta: CollectionMeta, vector: string): QuantizationConfig | null {
  return meta.config.vectors[vector]?.quantization_config ?? meta.config.quantization_config ?? null;
}

/** Whether a binary vector's searches compare the float32 query with the codes (query_encoding scalar4bits/8bits). */
export function asymmetricBinary(meta: CollectionMeta, vector: string): boolean {
  const q = effectiveQuantization(meta, vector);
  return q !== null && 'binary' in q && (q.binary.query_encoding === 'scalar4bits' || q.binary.query_encoding === 'scalar8bits');
}
