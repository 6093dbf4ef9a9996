// bindTenant (src/workers/coordinator/tenant-engine.ts) over a recording fake engine: what each
// shard call becomes on its way through a tenant binding (reads' filters ANDed with the binding's,
// writes carrying its guard, shard-wide figures as they are, snapshots refused), and the rest of
// the engine (collections, op ids, partition, operationId, atLogEnd) passed through.

import { describe, expect, it } from 'vitest';
import type { Filter } from '../../../src/shared/filter.js';
import type { PointEngine } from '../../../src/shared/point-engine.js';
import type { SearchSpec, ShardCall, ShardOp, TenantGuard } from '../../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import type { CollectionMeta } from '../../../src/shared/types.js';
import { bindAccess, bindTenant } from '../../../src/workers/coordinator/tenant-engine.js';
import { batch, metaOf, spec } from '../shard/helpers.js';

const guard: TenantGuard = { filter: { must: [{ key: 'tenant', match: { value: 'acme' } }] }, rule: 'tenant acme' };
const own: Filter = { must: [{ key: 'color', match: { value: 'red' } }] };
const both: Filter = { must: [own, guard.filter] };
const meta = metaOf(2);
/** Any one op's call (ShardCall of the whole union is not itself a union). */
type AnyCall = { [O in ShardOp]: ShardCall<O> }[ShardOp];

/** A PointEngine that records every shard call it is given and answers null. */
function recorder(): { engine: PointEngine; calls: { via: string; req: AnyCall; transfer?: ArrayBuffer[] }[]; logEnd: PointEngine[] } {
  const calls: { via: string; req: AnyCall; transfer?: ArrayBuffer[] }[] = [];
  const logEnd: PointEngine[] = [];
  const make = (via: string): PointEngine => ({
    requireReady: () => undefined,
    collection: (name: string): CollectionMeta => ({ ...meta, name }),
    nextOpId: (c: number) => c * 100,
    operationId: (opId: number) => opId + 1,
    call: (_m, _s, req, transfer) => {
      calls.push({ via, req: req as AnyCall, ...(transfer === undefined ? {} : { transfer }) });
      return Promise.resolve(null as never);
    },
    fanOut: (_m, req) => {
      calls.push({ via: `${via}:fanOut`, req: req as AnyCall });
      return Promise.resolve([]);
    },
    partition: () => new Map([[0, [0]]]),
    atLogEnd: () => {
      const e = make('logEnd');
      logEnd.push(e);
      return e;
    },
  });
  return { engine: make('base'), calls, logEnd };
}

const sel = { withPayload: { kind: 'all' as const }, withVector: { kind: 'none' as const } };

describe('bindTenant', () => {
  it('ANDs every read filter with the binding (none: the binding alone)', async () => {
    const { engine, calls } = recorder();
    const bound = bindTenant(engine, guard);
    const searches: SearchSpec[] = [spec([1, 0], { filter: own }), spec([0, 1])];
    await bound.fanOut(meta, { op: 'search', searches });
    await bound.fanOut(meta, { op: 'count', filter: own, exact: false });
    await bound.fanOut(meta, { op: 'facet', key: 'k', filter: null, top: null });
    await bound.fanOut(meta, { op: 'scroll', offset: null, limit: 5, filter: own, ...sel });
    await bound.fanOut(meta, { op: 'scrollOrdered', orderBy: { key: 'n', direction: 'asc', startFrom: null }, limit: 5, filter: null, ...sel });
    await bound.fanOut(meta, { op: 'sample', limit: 5, filter: own, ...sel });
    await bound.call(meta, 0, { op: 'retrieve', ids: [1], ...sel });
    await bound.call(meta, 0, { op: 'retrieve', ids: [1], ...sel, filter: own });
    const filters = calls.map(({ req }) => ('searches' in req ? req.searches.map((s) => s.filter) : 'filter' in req ? req.filter : 'none'));
    expect(filters).toEqual([[both, guard.filter], both, guard.filter, both, guard.filter, both, guard.filter, both]);
    // A count is exact: an approximate one is the indexes' candidates, other tenants' included.
    expect(calls[1]!.req).toMatchObject({ op: 'count', exact: true });
    // The caller's objects are not changed: the rewrite makes new ones.
    expect(searches[1]!.filter).toBeNull();
    expect(calls[0]!.req.op === 'search' && calls[0]!.req.searches[0]!.query).toBe(searches[0]!.query);
  });

  it('sets the guard on the five writes, keeping everything else and the transfer list', async () => {
    const { engine, calls } = recorder();
    const bound = bindTenant(engine, guard);
    const b = batch([1], [[1, 0]], [{ tenant: 'acme' }]);
    const transfer = [new ArrayBuffer(8)];
    await bound.call(meta, 0, { op: 'upsert', opId: 1, wait: true, batch: b, condition: UNCONDITIONAL }, transfer);
    await bound.call(meta, 0, { op: 'updateVectors', opId: 2, wait: false, batch: b, condition: UNCONDITIONAL });
    await bound.call(meta, 0, { op: 'delete', opId: 3, wait: true, ids: [1], filter: null });
    await bound.call(meta, 0, { op: 'payload', opId: 4, wait: true, change: { kind: 'clear' }, ids: null, filter: own });
    await bound.call(meta, 0, { op: 'deleteVectors', opId: 5, wait: true, names: [''], ids: null, filter: own });
    expect(calls.map(({ req }) => ('guard' in req ? req.guard : 'none'))).toEqual([guard, guard, guard, guard, guard]);
    expect(calls[0]).toEqual({ via: 'base', req: { op: 'upsert', opId: 1, wait: true, batch: b, condition: UNCONDITIONAL, guard }, transfer });
    // A write's own filter is the shard's to AND (the guard may refuse what it selects).
    expect(calls[3]!.req).toMatchObject({ filter: own, ids: null });
  });

  it('passes shard-wide figures on as they are and refuses snapshots and restores', async () => {
    const { engine, calls } = recorder();
    const bound = bindTenant(engine, guard);
    const asIs: AnyCall[] = [
      { op: 'sparseStats', vector: 's', terms: [1] },
      { op: 'shardInfo' },
      { op: 'storedBytes' },
      { op: 'awaitApplied', seq: 3, timeoutMs: 10 },
      { op: 'logPosition' },
    ];
    for (const req of asIs) await bound.call(meta, 0, req);
    expect(calls.map((c) => c.req)).toEqual(asIs);
    await expect(bound.call(meta, 0, { op: 'snapshotShard', file: '/tmp/x' })).rejects.toMatchObject({ code: 'Forbidden', message: 'Forbidden: shard snapshots and restores are outside tenant acme' });
    await expect(bound.fanOut(meta, { op: 'restoreShard', file: '/tmp/x' })).rejects.toMatchObject({ code: 'Forbidden' });
    expect(calls).toHaveLength(asIs.length);
  });

  it('passes the rest of the engine through, and atLogEnd answers the bound engine of the base one at the log end', async () => {
    const { engine, calls, logEnd } = recorder();
    const bound = bindTenant(engine, guard);
    expect(bound.collection('c').name).toBe('c');
    expect(bound.nextOpId(3)).toBe(300);
    expect(bound.operationId?.(7)).toBe(8);
    expect([...bound.partition(meta, [1])]).toEqual([[0, [0]]]);
    const atEnd = bound.atLogEnd!();
    expect(logEnd).toHaveLength(1);
    await atEnd.fanOut(meta, { op: 'count', filter: null, exact: true });
    expect(calls).toEqual([{ via: 'logEnd:fanOut', req: { op: 'count', filter: guard.filter, exact: true } }]);
    // An engine without them gives a bound engine without them.
    const { atLogEnd: _a, operationId: _o, ...plain } = engine;
    const bare = bindTenant(plain, guard);
    expect(bare.atLogEnd).toBeUndefined();
    expect(bare.operationId).toBeUndefined();
  });
});

describe('bindAccess with a scope', () => {
  const scope = [
    { pattern: 'own', exact: false, read: true, guard },
    { pattern: 'ref_*', exact: false, read: true, guard: null },
    { pattern: 'blind', exact: false, read: false, guard: null },
  ];
  const on = (name: string): CollectionMeta => ({ ...meta, name });

  it("binds the request's own collection, reads another by the scope's entry, and writes no other collection", async () => {
    const r = recorder();
    const e = bindAccess(r.engine, { collection: 'own', tenant: guard, scope });
    await e.fanOut(on('own'), { op: 'count', filter: null, exact: true });
    await e.fanOut(on('ref_1'), { op: 'count', filter: null, exact: true });
    expect(r.calls.map((c) => (c.req as { filter: Filter | null }).filter)).toEqual([guard.filter, null]);
    await expect(e.call(on('ref_1'), 0, { op: 'delete', opId: 1, wait: true, ids: [1], filter: null })).rejects.toThrow(
      'Forbidden: this credential may not write collection "ref_1" through a request on "own"',
    );
    expect(r.calls).toHaveLength(2);
  });

  it('refuses a collection outside the scope, or without read, before looking it up', () => {
    let looked = 0;
    const r = recorder();
    const base: PointEngine = { ...r.engine, collection: (name) => (looked++, on(name)) };
    const e = bindAccess(base, { collection: 'own', scope });
    expect(() => e.collection('secret')).toThrow('Forbidden: this credential has no access to collection "secret"');
    expect(() => e.collection('blind')).toThrow('Forbidden: this credential lacks the read permission on collection "blind"');
    expect(looked).toBe(0);
    expect(e.collection('ref_2').name).toBe('ref_2');
  });
});
