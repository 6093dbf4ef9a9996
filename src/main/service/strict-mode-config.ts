// A collection's strict_mode_config as Qdrant keeps it: on create, the fields given (nulls
// dropped); on PATCH, each field given replaces the one kept and an absent or null one keeps it
// (so a field cannot be unset, as in Qdrant), the per-vector maps replaced whole. Reported in
// `config.strict_mode_config` when any field was ever given. Enforced in the workers while
// `enabled` (src/workers/service/strict-mode.ts), every one of its fields.

import type { StrictModeConfig } from '../../shared/schemas/collections.js';
import type { StrictModeSettings } from '../../shared/types.js';

/** `current` with the fields of `diff` given (non-null) over it; undefined when nothing is kept. */
export function mergedStrictMode(current: StrictModeSettings | undefined, diff: StrictModeConfig | null | undefined): StrictModeSettings | undefined {
  if (diff === undefined || diff === null) return current;
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(diff)) {
    if (v === null || v === undefined) continue;
    out[k] = v;
  }
  return Object.keys(out).length === 0 ? undefined : (out as StrictModeSettings);
}
