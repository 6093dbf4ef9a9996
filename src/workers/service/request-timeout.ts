// A request's own `timeout` (seconds: the REST query parameter, the gRPC field), as Qdrant applies
// it: a read not answered in time is a 408 ("Timeout: Timeout error: ..."); a write with
// wait=true not done in time answers `wait_timeout` and goes on to complete. Strict mode's
// max_timeout holds it first (strict-mode.ts). A read that runs over is not interrupted: its
// shard work is synchronous in the workers, so its result is dropped when it comes.
//
// Invariants: a write answers `wait_timeout` only once it has been sent to its shards (it has its
// operation id, so a request sent after the answer is ordered after it; a refusal before then is
// the request's answer, as Qdrant checks a write before its log takes it); a batch answers once
// every operation has been sent, in order, each done in time with its result, the rest with
// `wait_timeout`.

import { QuiverError } from '../../shared/errors.js';
import type { UpdateResult } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { StrictMode } from './strict-mode.js';

/** What a write answers when wait=true ran past its timeout. */
export const WAIT_TIMEOUT: UpdateResult = { operation_id: null, status: 'wait_timeout' };

/** The longest delay a Node timer keeps (longer ones fire at once): a timeout past it is no timeout. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A request's timeout in seconds (null: none given, or too long to ever fire); 0 or a value that is not a whole number is refused. */
export function timeoutSeconds(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw QuiverError.unprocessable(`Validation error: [timeout: value ${String(raw)} invalid, must be a whole number, 1 or larger]`);
  return n * 1000 > MAX_TIMER_MS ? null : n;
}

/** The request's timeout held to its collection's strict mode max_timeout. */
export function checkRequestTimeout(engine: PointEngine, collection: string | undefined, seconds: number | null): void {
  if (seconds === null || collection === undefined) return;
  StrictMode.of(engine.collection(collection))?.timeout(seconds);
}

/** Resolves with `run`'s value, or with null once `ms` pass first (`run` goes on; its failure then is its own). */
async function raced<T>(ms: number, run: Promise<T>): Promise<{ value: T } | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, ms))));
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
  const done = await raced(seconds * 1000, read());
  if (done === null) throw new QuiverError('Timeout', `Timeout: Timeout error: Operation '${operation}' timed out after ${seconds}s`);
  return done.value;
}

/**
 * The engine a write runs on, telling when the write is sent: its operation id is taken, and the
 * point services post its shard calls in the same turn (points.ts, payload.ts, vectors.ts).
 */
class DispatchWatch implements PointEngine {
  readonly #base: PointEngine;
  readonly dispatched: Promise<void>;
  #mark: () => void = () => undefined;
  readonly atLogEnd?: () => PointEngine;
  readonly operationId?: (opId: number) => number;

  constructor(base: PointEngine) {
    this.#base = base;
    this.dispatched = new Promise((resolve) => (this.#mark = resolve));
    if (base.atLogEnd !== undefined) this.atLogEnd = () => base.atLogEnd!();
    if (base.operationId !== undefined) this.operationId = (opId) => base.operationId!(opId);
  }

  requireReady(): void {
    this.#base.requireReady();
  }
  collection(name: string): ReturnType<PointEngine['collection']> {
    return this.#base.collection(name);
  }
  nextOpId(collection: number): number {
    const id = this.#base.nextOpId(collection);
    this.#mark();
    return id;
  }
  call: PointEngine['call'] = (meta, shard, req, transfer) => this.#base.call(meta, shard, req, transfer);
  fanOut: PointEngine['fanOut'] = (meta, req) => this.#base.fanOut(meta, req);
  partition: PointEngine['partition'] = (meta, ids) => this.#base.partition(meta, ids);
}

/** When a write's wait ends: `seconds` from now (null: no timeout, or no wait). */
export function waitDeadline(wait: boolean, seconds: number | null): number | null {
  return !wait || seconds === null ? null : performance.now() + seconds * 1000;
}

/**
 * A write with wait=true and a deadline (waitDeadline): its result when done in time, else, once
 * it has been sent, WAIT_TIMEOUT while it goes on. A refusal before it is sent is the answer.
 */
export async function writeWithin(engine: PointEngine, deadline: number | null, write: (engine: PointEngine) => Promise<UpdateResult>): Promise<UpdateResult> {
  if (deadline === null) return write(engine);
  const watch = new DispatchWatch(engine);
  const running = write(watch);
  const done = running.then((value) => ({ value }));
  const sent = await Promise.race([done, watch.dispatched.then(() => null)]);
  if (sent !== null) return sent.value;
  done.catch(() => undefined);
  return (await raced(deadline - performance.now(), running))?.value ?? WAIT_TIMEOUT;
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
