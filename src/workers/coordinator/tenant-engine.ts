// A credential's tenant binding and collections over a PointEngine (protocol.ts TenantGuard,
// issue 31): every shard call the point services make through it is rewritten so that reads see
// only points matching the binding's filter and writes carry the guard the shard enforces
// (shard/tenant-guard.ts); a scoped credential reads no other collection it may not. The
// services are unchanged: every read and write of a point reaches the shards through call() or
// fanOut(), so rewriting there covers every route. The table is typed over every ShardOp: an op
// added to the protocol without a decision here does not compile.

import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { SearchSpec, ShardCall, ShardOp, TenantGuard } from '../../shared/protocol.js';
import { andFilter } from '../shard/tenant-guard.js';
import { entryFor, lacksOn, noAccessTo, type ScopeEntryWire } from '../../shared/collection-scope.js';
import { isLoggedOp } from '../../shared/log-entry.js';

type Rewrite = { [O in ShardOp]: (req: ShardCall<O>, guard: TenantGuard) => ShardCall<O> };

/** A read's filter ANDed with the binding's. */
function narrowed<R extends { filter: Filter | null }>(req: R, guard: TenantGuard): R {
  return { ...req, filter: andFilter(req.filter, guard.filter) };
}

/** A write the shard checks against the guard. */
function guarded<R extends { guard?: TenantGuard }>(req: R, guard: TenantGuard): R {
  return { ...req, guard };
}

/** Shard-wide figures that hold no point: passed as they are. */
function asIs<R>(req: R): R {
  return req;
}

/** Whole-shard copies would hold every tenant's points. */
function refused(_req: unknown, guard: TenantGuard): never {
  throw QuiverError.forbidden(`shard snapshots and restores are outside ${guard.rule}`);
}

const REWRITE: Rewrite = {
  upsert: guarded,
  updateVectors: guarded,
  delete: guarded,
  payload: guarded,
  deleteVectors: guarded,
  retrieve: (req, guard) => ({ ...req, filter: andFilter(req.filter, guard.filter) }),
  search: (req, guard) => ({ ...req, searches: req.searches.map((s): SearchSpec => ({ ...s, filter: andFilter(s.filter, guard.filter) })) }),
  // Exact: an approximate count is the indexes' candidates, which may hold other tenants' points.
  count: (req, guard) => ({ ...narrowed(req, guard), exact: true }),
  facet: narrowed,
  scroll: narrowed,
  scrollOrdered: narrowed,
  sample: narrowed,
  sparseStats: asIs,
  shardInfo: asIs,
  storedBytes: asIs,
  awaitApplied: asIs,
  logPosition: asIs,
  // A worker's own records (slow-query issues, live recall), not points.
  issues: asIs,
  liveRecall: asIs,
  snapshotShard: refused,
  restoreShard: refused,
};

/** The call as the binding lets it reach the shard. */
export function rewriteCall<O extends ShardOp>(req: ShardCall<O>, guard: TenantGuard): ShardCall<O> {
  // The entry picked by req.op is REWRITE's entry for O (a correlated union TypeScript cannot follow).
  const rewrite = REWRITE[req.op] as (r: ShardCall<O>, g: TenantGuard) => ShardCall<O>;
  return rewrite(req, guard);
}

/** `engine` seen through a tenant binding on every collection: see the file comment. */
export function bindTenant(engine: PointEngine, guard: TenantGuard): PointEngine {
  return bindAccess(engine, { tenant: guard });
}

/** What a hand-off says of its credential: the binding on its own collection, and a scoped credential's collections. */
export interface RequestAccess {
  /** The collection the request names (decided on by the main thread). */
  collection?: string;
  tenant?: TenantGuard;
  scope?: ScopeEntryWire[];
}

/** A hand-off's access: its collection (the path's or the message's field 1), binding and scope. */
export function accessOf(req: { params: { collection_name?: unknown }; tenant?: TenantGuard; scope?: ScopeEntryWire[] }): RequestAccess {
  const name = req.params.collection_name;
  return {
    ...(typeof name === 'string' ? { collection: name } : {}),
    ...(req.tenant === undefined ? {} : { tenant: req.tenant }),
    ...(req.scope === undefined ? {} : { scope: req.scope }),
  };
}

/**
 * `engine` as the request's credential may use it. Without a scope, `tenant` binds every
 * collection. With one, the request's own collection has `tenant`, and any other collection it
 * reads (query's lookup_from) is decided from the scope as the main thread decides: no entry or no
 * read bit is refused, and an entry's binding applies to it.
 */
export function bindAccess(engine: PointEngine, access: RequestAccess): PointEngine {
  const { tenant, scope, collection: own } = access;
  if (tenant === undefined && scope === undefined) return engine;
  // Decided once per collection a request reads (lookup_from may be read again and again).
  const decided = new Map<string, TenantGuard | null>();
  const guardOf = (name: string): TenantGuard | null => {
    if (scope === undefined || name === own) return tenant ?? null;
    let guard = decided.get(name);
    if (guard === undefined) {
      const entry = entryFor(scope, name);
      if (entry === undefined) throw QuiverError.forbidden(noAccessTo(name));
      if (!entry.read) throw QuiverError.forbidden(lacksOn('read', name));
      guard = entry.guard;
      decided.set(name, guard);
    }
    return guard;
  };
  const through = <O extends ShardOp>(name: string, req: ShardCall<O>): ShardCall<O> => {
    // Only reads reach another collection (lookup_from): a write anywhere but the request's own
    // collection was decided by nobody, and is refused.
    if (scope !== undefined && name !== own && isLoggedOp(req.op)) throw QuiverError.forbidden(`this credential may not write collection "${name}" through a request on "${own ?? ''}"`);
    const guard = guardOf(name);
    return guard === null ? req : rewriteCall(req, guard);
  };
  const bound: PointEngine = {
    requireReady: () => engine.requireReady(),
    // Decided before the lookup: a collection the credential may not read answers 403 whether it exists or not.
    collection: (name) => {
      guardOf(name);
      return engine.collection(name);
    },
    nextOpId: (collection) => engine.nextOpId(collection),
    // async: a refusal is a rejected promise, as any shard failure; the call itself still goes out in this turn.
    call: async (meta, shard, req, transfer) => engine.call(meta, shard, through(meta.name, req), transfer),
    fanOut: async (meta, req) => engine.fanOut(meta, through(meta.name, req)),
    partition: (meta, ids) => engine.partition(meta, ids),
  };
  const { operationId, atLogEnd } = engine;
  if (operationId !== undefined) bound.operationId = (opId) => operationId.call(engine, opId);
  if (atLogEnd !== undefined) bound.atLogEnd = () => bindAccess(atLogEnd.call(engine), access);
  return bound;
}
