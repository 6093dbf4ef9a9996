// A handed-off point request, end to end, on whichever thread coordinates it: parse the raw body
// as the REST layer's JSON parser does, check it against the route's compiled TypeBox schema
// (the 400 format / 422 validation split of validation.ts), run the same service function the
// route ran on the main thread, and serialize the whole response, envelope and status included,
// through envelope.ts. It runs in the coordinating workers (src/workers/coordinator/) and, for
// in-process tests, on the main thread; it knows no transport (no fastify, no grpc).
//
// Invariant: for the same request, the bytes and status are those the main-thread route gave
// before the hand-off; only the body's parsing and checking moved, the path parameters and the
// query string are still checked by fastify before the hand-off.

import type { Static, TSchema } from 'typebox';
import parseSecureJson from 'secure-json-parse';
import { QuiverError } from '../../shared/errors.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/json.js';
import type { HandoffReply, HandoffRequest } from '../../shared/coordination.js';
import { isReadRoute, POINT_OPS, type HandoffRoute } from '../../shared/point-ops.js';
import { failure, ok, toFailure } from '../../shared/envelope.js';
import { responseJson } from '../../shared/response-json.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { doBatchUpdate } from '../service/batch.js';
import { doFacet } from '../service/facet.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../service/payload.js';
import { doCount, doDeletePoints, doGetPoint, doRetrieve, doScroll, doUpdateVectors, doUpsert } from '../service/points.js';
import { doQuery, doQueryBatch } from '../service/query.js';
import { doMatrixOffsets, doMatrixPairs } from '../service/matrix.js';
import { doSearch, doSearchBatch } from '../service/search.js';
import { doDeleteVectors } from '../service/vectors.js';
import { engineAt, restReadLevel } from '../../shared/read-consistency.js';
import { compileCheck, type RequestCheck } from '../../shared/validation.js';
import { accessOf, bindAccess } from './tenant-engine.js';
import type { UpdateResult } from '../service/writes.js';
import { checkRequestTimeout, readOperation, readWithin, timeoutSeconds, waitDeadline, writeWithin } from '../service/request-timeout.js';

/** What a route's service call gets: path parameters (checked by the main thread), query string and body. */
interface Call<B> {
  name: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: B;
}

/** A route's service call; the body has passed the route's schema, so its static type holds. */
type RouteRun = (engine: PointEngine, call: Call<never>) => Promise<unknown>;

/** The registry's body schema of `R` as a static type (undefined for a route without a body). */
type BodyOf<R extends HandoffRoute> = (typeof POINT_OPS)[R]['body'] extends infer S extends TSchema ? Static<S> : undefined;

function run<R extends HandoffRoute>(_route: R, fn: (engine: PointEngine, call: Call<BodyOf<R>>) => Promise<unknown>): RouteRun {
  return fn as RouteRun;
}

/** The engine a read runs on: at the log's end for a strong `consistency` in cluster mode (read-consistency.ts). */
function at(engine: PointEngine, query: Record<string, unknown>): PointEngine {
  return engineAt(engine, () => restReadLevel(query.consistency));
}

const wait = (c: Call<unknown>): boolean => c.query.wait === true;

/** When a write's wait=true ends (its `timeout`; null: never): past it, `wait_timeout` (request-timeout.ts). */
const deadline = (c: Call<unknown>): number | null => waitDeadline(wait(c), timeoutSeconds(c.query.timeout));
const waited = (e: PointEngine, c: Call<unknown>, write: (e: PointEngine) => Promise<UpdateResult>): Promise<UpdateResult> => writeWithin(e, deadline(c), write);

const C = '/collections/:collection_name';
/** Each hand-off route's service call; the registry (point-ops.ts) gives its schemas and kind. */
const ROUTES: { [R in HandoffRoute]: RouteRun } = {
  [`PUT ${C}/points`]: run(`PUT ${C}/points`, (e, c) => waited(e, c, (e) => doUpsert(e, c.name, c.body, wait(c)))),
  [`POST ${C}/points`]: run(`POST ${C}/points`, (e, c) => doRetrieve(at(e, c.query), c.name, c.body)),
  [`GET ${C}/points/:id`]: run(`GET ${C}/points/:id`, (e, c) => doGetPoint(at(e, c.query), c.name, String(c.params.id))),
  [`POST ${C}/points/delete`]: run(`POST ${C}/points/delete`, (e, c) => waited(e, c, (e) => doDeletePoints(e, c.name, c.body, wait(c)))),
  [`PUT ${C}/points/vectors`]: run(`PUT ${C}/points/vectors`, (e, c) => waited(e, c, (e) => doUpdateVectors(e, c.name, c.body, wait(c)))),
  [`POST ${C}/points/batch`]: run(`POST ${C}/points/batch`, (e, c) => doBatchUpdate(e, c.name, c.body, wait(c), deadline(c))),
  [`POST ${C}/points/vectors/delete`]: run(`POST ${C}/points/vectors/delete`, (e, c) => waited(e, c, (e) => doDeleteVectors(e, c.name, c.body, wait(c)))),
  [`POST ${C}/facet`]: run(`POST ${C}/facet`, (e, c) => doFacet(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/count`]: run(`POST ${C}/points/count`, (e, c) => doCount(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/scroll`]: run(`POST ${C}/points/scroll`, (e, c) => doScroll(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/search`]: run(`POST ${C}/points/search`, (e, c) => doSearch(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/search/batch`]: run(`POST ${C}/points/search/batch`, (e, c) => doSearchBatch(at(e, c.query), c.name, c.body.searches)),
  [`POST ${C}/points/search/matrix/pairs`]: run(`POST ${C}/points/search/matrix/pairs`, (e, c) => doMatrixPairs(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/search/matrix/offsets`]: run(`POST ${C}/points/search/matrix/offsets`, (e, c) => doMatrixOffsets(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/query`]: run(`POST ${C}/points/query`, (e, c) => doQuery(at(e, c.query), c.name, c.body)),
  [`POST ${C}/points/query/batch`]: run(`POST ${C}/points/query/batch`, (e, c) => doQueryBatch(at(e, c.query), c.name, c.body.searches)),
  [`POST ${C}/points/payload`]: run(`POST ${C}/points/payload`, (e, c) => waited(e, c, (e) => doSetPayload(e, c.name, c.body, wait(c)))),
  [`PUT ${C}/points/payload`]: run(`PUT ${C}/points/payload`, (e, c) => waited(e, c, (e) => doOverwritePayload(e, c.name, c.body, wait(c)))),
  [`POST ${C}/points/payload/delete`]: run(`POST ${C}/points/payload/delete`, (e, c) => waited(e, c, (e) => doDeletePayload(e, c.name, c.body, wait(c)))),
  [`POST ${C}/points/payload/clear`]: run(`POST ${C}/points/payload/clear`, (e, c) => waited(e, c, (e) => doClearPayload(e, c.name, c.body, wait(c)))),
};

// Compiled once per thread, at first use of each route.
const checks = new Map<HandoffRoute, RequestCheck>();
function checkOf(r: HandoffRoute): RequestCheck | null {
  const schema: TSchema | null = POINT_OPS[r].body;
  if (schema === null) return null;
  let c = checks.get(r);
  if (c === undefined) {
    c = compileCheck(schema, 'body');
    checks.set(r, c);
  }
  return c;
}

// The messages toFailure gives fastify's own JSON parser errors, word for word.
const EMPTY_BODY = 'Format error in JSON body: the body is empty';
const INVALID_JSON = "Format error in JSON body: Body is not valid JSON but content-type is set to 'application/json'";

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** As fastify's default JSON parser with prototype poisoning refused (app.ts), then the depth limit. */
function parseBody(bytes: Uint8Array | null): unknown {
  if (bytes === null) return undefined;
  if (bytes.byteLength === 0) throw QuiverError.badInput(EMPTY_BODY);
  let parsed: unknown;
  try {
    parsed = parseSecureJson(decoder.decode(bytes), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw QuiverError.badInput(INVALID_JSON);
  }
  if (nestedDeeperThan(parsed, MAX_JSON_DEPTH)) throw QuiverError.badInput(`Format error in JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  return parsed;
}

/** Answers one handed-off request; never rejects (a failure is a reply with its status). */
export async function handleRequest(unbound: PointEngine, req: HandoffRequest): Promise<HandoffReply> {
  // The main thread's clock origin, in this thread's performance.now() terms.
  const t0 = req.t0 - performance.timeOrigin;
  // A tenant-bound credential's request sees and writes its tenant's points only (tenant-engine.ts).
  const engine = bindAccess(unbound, accessOf(req));
  try {
    const body = parseBody(req.body);
    // The bytes are not read again: dropped, so that they can go at the thread's next scavenge
    // rather than wait, promoted, for a full collection while the request awaits its write.
    req.body = null;
    const check = checkOf(req.route);
    let value: unknown = undefined;
    if (check !== null) {
      const checked = check.check(body);
      if (checked.error !== undefined) throw checked.error;
      value = checked.value;
    }
    const name = req.params.collection_name;
    if (typeof name !== 'string') throw QuiverError.internal('hand-off without a collection name');
    const seconds = timeoutSeconds(req.query.timeout);
    checkRequestTimeout(engine, name, seconds);
    const serve = (): Promise<unknown> => ROUTES[req.route](engine, { name, params: req.params, query: req.query, body: value as never });
    // A read's timeout bounds its answer; a write's bounds wait=true (`waited`, in ROUTES).
    const result = isReadRoute(req.route) ? await readWithin(seconds, readOperation(req.route), serve) : await serve();
    // Points' vectors come as float32 arrays: written at their shortest (response-json.ts).
    return { status: 200, body: responseJson(ok(result, t0)) };
  } catch (err) {
    const f = toFailure(err);
    const retryAfter = err instanceof QuiverError && err.retryAfterSeconds !== undefined ? { retryAfter: err.retryAfterSeconds } : {};
    return { status: f.status, body: JSON.stringify(failure(f.message, t0)), failure: { message: f.message, internal: f.internal }, ...retryAfter };
  }
}
