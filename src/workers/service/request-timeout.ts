// A request's own `timeout` (seconds: the REST query parameter, the gRPC field), as Qdrant applies
// it: a read that is not answered in time is a 408 ("Timeout: Timeout error: ..."); a write with wait=true
// that is not done in time answers `wait_timeout` and goes on to complete. Strict mode's
// max_timeout holds it first (strict-mode.ts). A read that runs over is not interrupted: its
// shard work is synchronous in the workers, so its result is dropped when it comes.
//
// Invariant: a write answered `wait_timeout` is never abandoned, and a batch's operations still
// run one after another in their order (the batch goes on in the background, as one chain).

import { QuiverError } from '../../shared/errors.js';
import type { UpdateResult } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { StrictMode } from './strict-mode.js';

/** What a write answers when wait=true ran past its timeout. */
export const WAIT_TIMEOUT: UpdateResult = { operation_id: null, status: 'wait_timeout' };

/** A request's timeout in seconds (null: none given); a value that is not a whole number of seconds, 1 or more, is a 400. */
export function timeoutSeconds(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw QuiverError.badInput(`Bad request: timeout must be a whole number of seconds, 1 or more; got ${JSON.stringify(raw)}`);
  return n;
}

/** The request's timeout held to its collection's strict mode max_timeout. */
export function checkRequestTimeout(engine: PointEngine, collection: string | undefined, seconds: number | null): void {
  if (seconds === null || collection === undefined) return;
  StrictMode.of(engine.collection(collection))?.timeout(seconds);
}

/** Resolves with `run`'s value, or with null once `seconds` pass first (`run` goes on; its failure then is its own). */
async function raced<T>(seconds: number, run: Promise<T>): Promise<{ value: T } | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), seconds * 1000)));
  const settled = run.then((value) => ({ value }));
  try {
    const first = await Promise.race([settled, late]);
    if (first === null) settled.catch(() => undefined);
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** A read answered within `seconds` (null: no timeout), else a 408 naming `operation` as Qdrant does. */
export async function readWithin<T>(seconds: number | null, operation: string, read: () => Promise<T>): Promise<T> {
  if (seconds === null) return read();
  const done = await raced(seconds, read());
  if (done === null) throw new QuiverError('Timeout', `Timeout: Timeout error: Operation '${operation}' timed out after ${seconds}s`);
  return done.value;
}

/** A write with wait=true and `seconds`: its result when done in time, else WAIT_TIMEOUT while it goes on. */
export async function writeWithin(wait: boolean, seconds: number | null, write: () => Promise<UpdateResult>): Promise<UpdateResult> {
  if (!wait || seconds === null) return write();
  return (await raced(seconds, write()))?.value ?? WAIT_TIMEOUT;
}

/**
 * A batch of writes with wait=true and `seconds`: the operations run in order as one chain; those
 * done in time answer their results, the rest WAIT_TIMEOUT (they still run, in order).
 */
export async function batchWithin(wait: boolean, seconds: number | null, ops: number, run: (done: UpdateResult[]) => Promise<UpdateResult[]>): Promise<UpdateResult[]> {
  const done: UpdateResult[] = [];
  if (!wait || seconds === null) return run(done);
  const all = await raced(seconds, run(done));
  if (all !== null) return all.value;
  return Array.from({ length: ops }, (_, i) => done[i] ?? WAIT_TIMEOUT);
}

/** The operation a read's 408 names, after Qdrant's wording (a search, a facet, a scroll, a count, a retrieve). */
export function readOperation(routeOrMethod: string): string {
  if (/facet/i.test(routeOrMethod)) return 'facet';
  if (/scroll/i.test(routeOrMethod)) return 'Query scroll';
  if (/count/i.test(routeOrMethod)) return 'count';
  if (/matrix/i.test(routeOrMethod)) return 'sampling';
  if (/search|query/i.test(routeOrMethod)) return 'Search';
  return 'retrieve';
}
