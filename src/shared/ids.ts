// Point ids: unsigned integers (up to 2^53-1, what a JSON number holds exactly in JavaScript) or
// UUIDs, normalised to lowercase hyphenated form so that every spelling names one point.

import { QuiverError } from './errors.js';
import type { PointId } from './types.js';

const HEX = '([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})';
// The four forms the uuid crate (and so Qdrant) reads: hyphenated, simple, braced, URN.
const UUID_FORMS = [
  new RegExp(`^${HEX}$`, 'i'),
  /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i,
  new RegExp(`^\\{${HEX}\\}$`, 'i'),
  new RegExp(`^urn:uuid:${HEX}$`, 'i'),
];

/** Whether `s` is a UUID in one of the forms the uuid crate reads. */
export function isUuid(s: string): boolean {
  return UUID_FORMS.some((re) => re.test(s));
}

export function parsePointId(raw: unknown): PointId {
  if (typeof raw === 'number') {
    if (Number.isSafeInteger(raw) && raw >= 0) return raw;
  } else if (typeof raw === 'string') {
    const m = UUID_FORMS.map((re) => re.exec(raw)).find((x) => x !== null);
    if (m !== undefined) return `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase();
  }
  throw QuiverError.badInput(
    `Format error: value ${JSON.stringify(raw)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}

/** A point id from a URL path segment: digits are an integer id, anything else must be a UUID. */
export function parsePathPointId(raw: string): PointId {
  return /^\d+$/.test(raw) ? parsePointId(Number(raw)) : parsePointId(raw);
}

/** Qdrant's order: integer ids first, ascending, then UUIDs in their byte order. */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A point the collection does not have, named by an update (update vectors, set, overwrite,
 * delete or clear payload by ids), a GET or a query by id. Qdrant's REST and gRPC answer an
 * update's NotFound with this text; reads use it too, so there is one wording.
 */
export function pointNotFound(id: PointId): QuiverError {
  return QuiverError.notFound(`Not found: No point with id ${id} found`);
}
