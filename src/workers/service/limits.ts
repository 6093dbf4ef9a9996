// The result window: how many points one read may ask the shards for (limit + offset). Search,
// query and scroll all check it here, so the bound and its wording live in one place.

import { QuiverError } from '../../shared/errors.js';

/** limit + offset per read: beyond this a request is refused rather than allowed to exhaust memory. */
export const MAX_RESULT_WINDOW = 100_000;

/** Refuses a window past MAX_RESULT_WINDOW; `offset` null for reads that have none (scroll pages by id). */
export function checkResultWindow(limit: number, offset: number | null): void {
  const k = limit + (offset ?? 0);
  if (k <= MAX_RESULT_WINDOW) return;
  throw QuiverError.badInput(
    offset === null ? `limit must not exceed ${MAX_RESULT_WINDOW}, got ${limit}` : `limit + offset must not exceed ${MAX_RESULT_WINDOW}, got ${k}`,
  );
}
