// A collection's strict_mode_config as Qdrant keeps it: on create, the fields given (nulls
// dropped); on PATCH, each field given replaces the one kept and an absent or null one keeps it
// (so a field cannot be unset, as in Qdrant), the per-vector maps replaced whole. Reported in
// `config.strict_mode_config` when any field was ever given. Enforced in the workers while
// `enabled` (src/workers/service/strict-mode.ts); the fields Quiver cannot enforce yet are refused
// by name, never kept and ignored.

import { QuiverError } from '../../shared/errors.js';
import type { StrictModeConfig } from '../../shared/schemas/collections.js';
import type { StrictModeSettings } from '../../shared/types.js';

/** Fields refused, with why: each needs something Quiver does not have yet. */
const NOT_ENFORCED: Partial<Record<keyof StrictModeSettings, string>> = {
  max_collection_vector_size_bytes: 'Quiver keeps no running total of a collection’s vector bytes to check writes against',
  max_collection_payload_size_bytes: 'Quiver keeps no running total of a collection’s payload bytes to check writes against',
};

/** `current` with the fields of `diff` given (non-null) over it; undefined when nothing is kept. */
export function mergedStrictMode(current: StrictModeSettings | undefined, diff: StrictModeConfig | null | undefined): StrictModeSettings | undefined {
  if (diff === undefined || diff === null) return current;
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(diff)) {
    if (v === null || v === undefined) continue;
    const why = NOT_ENFORCED[k as keyof StrictModeSettings];
    if (why !== undefined) throw QuiverError.badInput(`strict_mode_config.${k} is not supported: ${why}`);
    out[k] = v;
  }
  return Object.keys(out).length === 0 ? undefined : (out as StrictModeSettings);
}
