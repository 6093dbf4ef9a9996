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
import type { HandoffReply, HandoffRequest, HandoffRoute } from '../../shared/protocol.js';
import { CountPoints, RetrievePoints, ScrollPoints, UpsertPoints } from '../../shared/schemas/points.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from '../../shared/schemas/search.js';
import { failure, ok, toFailure } from '../../shared/envelope.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { doCount, doRetrieve, doScroll, doUpsert } from '../service/points.js';
import { doQuery, doQueryBatch } from '../service/query.js';
import { doSearch, doSearchBatch } from '../service/search.js';
import { engineAt, restReadLevel } from '../../shared/read-consistency.js';
import { compileCheck, type RequestCheck } from '../../shared/validation.js';

interface RouteRun {
  body: TSchema;
  /** The route's service call; the body has passed the schema, so its static type holds. */
  run(engine: PointEngine, name: string, query: Record<string, unknown>, body: never): Promise<unknown>;
}

function route<S extends TSchema>(body: S, run: (engine: PointEngine, name: string, query: Record<string, unknown>, body: Static<S>) => Promise<unknown>): RouteRun {
  return { body, run: run as RouteRun['run'] };
}

/** The engine a read runs on: at the log's end for a strong `consistency` in cluster mode (read-consistency.ts). */
function at(engine: PointEngine, query: Record<string, unknown>): PointEngine {
  return engineAt(engine, () => restReadLevel(query.consistency));
}

const ROUTES: Record<HandoffRoute, RouteRun> = {
  'POST /collections/:collection_name/points/search': route(SearchRequest, (e, n, q, b) => doSearch(at(e, q), n, b)),
  'POST /collections/:collection_name/points/search/batch': route(SearchBatch, (e, n, q, b) => doSearchBatch(at(e, q), n, b.searches)),
  'POST /collections/:collection_name/points/query': route(QueryRequest, (e, n, q, b) => doQuery(at(e, q), n, b)),
  'POST /collections/:collection_name/points/query/batch': route(QueryBatch, (e, n, q, b) => doQueryBatch(at(e, q), n, b.searches)),
  'PUT /collections/:collection_name/points': route(UpsertPoints, (e, n, q, b) => doUpsert(e, n, b, q.wait === true)),
  'POST /collections/:collection_name/points': route(RetrievePoints, (e, n, q, b) => doRetrieve(at(e, q), n, b)),
  'POST /collections/:collection_name/points/count': route(CountPoints, (e, n, q, b) => doCount(at(e, q), n, b)),
  'POST /collections/:collection_name/points/scroll': route(ScrollPoints, (e, n, q, b) => doScroll(at(e, q), n, b)),
};

/** The body schema of a hand-off route (the one the fastify route declares for the OpenAPI document). */
export function handoffBodySchema(r: HandoffRoute): TSchema {
  return ROUTES[r].body;
}

// Compiled once per thread, at first use of each route.
const checks = new Map<HandoffRoute, RequestCheck>();
function checkOf(r: HandoffRoute): RequestCheck {
  let c = checks.get(r);
  if (c === undefined) {
    c = compileCheck(ROUTES[r].body, 'body');
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
export async function handleRequest(engine: PointEngine, req: HandoffRequest): Promise<HandoffReply> {
  // The main thread's clock origin, in this thread's performance.now() terms.
  const t0 = req.t0 - performance.timeOrigin;
  try {
    const body = parseBody(req.body);
    // The bytes are not read again: dropped, so that they can go at the thread's next scavenge
    // rather than wait, promoted, for a full collection while the request awaits its write.
    req.body = null;
    const checked = checkOf(req.route).check(body);
    if (checked.error !== undefined) throw checked.error;
    const name = req.params.collection_name;
    if (typeof name !== 'string') throw QuiverError.internal('hand-off without a collection name');
    const result = await ROUTES[req.route].run(engine, name, req.query, checked.value as never);
    return { status: 200, body: JSON.stringify(ok(result, t0)) };
  } catch (err) {
    const f = toFailure(err);
    return { status: f.status, body: JSON.stringify(failure(f.message, t0)), failure: { message: f.message, internal: f.internal } };
  }
}
