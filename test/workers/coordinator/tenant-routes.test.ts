// Every hand-off route through a tenant binding, in process (handleRequest over a real Engine, no
// worker threads): tenant acme's key tries each route against tenant beta's points. Reads never
// return a beta point, writes never change one (checked after each), and a refused write answers
// 403 naming the binding's rule. The table is typed over HandoffRoute: a route added to the
// registry without a case here does not compile. One gRPC call checks the other hand-off path.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as protoLoader from '@grpc/proto-loader';
import type { HandoffRequest } from '../../../src/shared/coordination.js';
import { LOADER_OPTIONS, PROTO_DIR } from '../../../src/shared/grpc/proto.js';
import { HANDOFF_ROUTES, type HandoffRoute } from '../../../src/shared/point-ops.js';
import type { TenantGuard } from '../../../src/shared/protocol.js';
import { handleGrpcRequest } from '../../../src/workers/coordinator/grpc-requests.js';
import { handleRequest } from '../../../src/workers/coordinator/rest-requests.js';
import { inject, startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

const RULE = 'the key binding tenant=acme on tt';
const acme: TenantGuard = { filter: { must: [{ key: 'tenant', match: { value: 'acme' } }] }, rule: RULE };
const A = [1, 2, 3, 4];
const B = [11, 12, 13, 14];
const C = '/collections/:collection_name';

let q: InProcessQuiver;

interface Answer {
  status: number;
  result: unknown;
  error: string | undefined;
}

async function ask(route: HandoffRoute, body: unknown, opts: { tenant?: TenantGuard | null; params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): Promise<Answer> {
  const tenant = opts.tenant === undefined ? acme : opts.tenant;
  const req: HandoffRequest = {
    route,
    params: { collection_name: 'tt', ...opts.params },
    query: opts.query ?? (route.startsWith('GET') || !isWrite(route) ? {} : { wait: true }),
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
    t0: performance.timeOrigin + performance.now(),
    ...(tenant === null ? {} : { tenant }),
  };
  const reply = await handleRequest(q.engine, req);
  const json = JSON.parse(typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body)) as { result?: unknown; status: unknown };
  const error = typeof json.status === 'object' && json.status !== null ? (json.status as { error?: string }).error : undefined;
  return { status: reply.status, result: json.result, error };
}

const WRITES = new Set<string>(['PUT points', 'POST points/delete', 'PUT points/vectors', 'POST points/batch', 'POST points/vectors/delete', 'POST points/payload', 'PUT points/payload', 'POST points/payload/delete', 'POST points/payload/clear']);
function isWrite(route: HandoffRoute): boolean {
  return WRITES.has(route.replace(`${C}/`, ''));
}

/** Point ids anywhere in a result: records' and hits' `id`, matrix pairs' `a` / `b`, offsets' `ids`. */
function idsIn(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) for (const e of v) idsIn(e, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, e] of Object.entries(v)) {
      if (k === 'id' || k === 'a' || k === 'b') out.push(e);
      else if (k === 'ids' && Array.isArray(e)) out.push(...(e as unknown[]));
      else idsIn(e, out);
    }
  }
  return out;
}

/** A read answered 200 with points of acme only (at least one when `some`). */
function onlyAcme(a: Answer, some = true): void {
  expect(a.status, a.error).toBe(200);
  const ids = idsIn(a.result);
  expect(ids.filter((id) => typeof id === 'number' && id >= 10)).toEqual([]);
  if (some) expect(ids.length).toBeGreaterThan(0);
}

function forbidden(a: Answer, what: string): void {
  expect(a.status).toBe(403);
  expect(a.error).toContain(what);
  expect(a.error).toContain(RULE);
}

/** Beta's points as they are, read without a binding. */
async function betaNow(): Promise<unknown> {
  const a = await ask(`POST ${C}/points`, { ids: B, with_payload: true, with_vector: true }, { tenant: null });
  expect(a.status).toBe(200);
  return a.result;
}

let beta: unknown;

const point = (id: number, tenant: string) => ({ id, vector: [1, id], payload: { tenant, n: id, org: tenant } });
const all = { must_not: [{ key: 'absent', match: { value: 1 } }] };
const search = { vector: [0, 1], limit: 20, with_payload: true };

/** What each route is asked through acme's binding, and what must come back. */
const CASES: { [R in HandoffRoute]: (r: R) => Promise<void> } = {
  [`PUT ${C}/points`]: async (r) => {
    forbidden(await ask(r, { points: [point(5, 'acme'), point(11, 'acme')] }), 'point 11 belongs outside');
    forbidden(await ask(r, { points: [point(5, 'beta')] }), 'point 5 does not match');
    forbidden(await ask(r, { points: [{ id: 6, vector: [1, 6] }] }), 'point 6 does not match');
    expect((await ask(r, { points: [point(5, 'acme')] })).status).toBe(200);
  },
  [`POST ${C}/points`]: async (r) => {
    const a = await ask(r, { ids: [...A, ...B], with_payload: true });
    onlyAcme(a);
    expect(idsIn(a.result)).toEqual(expect.arrayContaining(A));
  },
  [`GET ${C}/points/:id`]: async (r) => {
    expect((await ask(r, undefined, { params: { id: '11' } })).status).toBe(404);
    expect((await ask(r, undefined, { params: { id: '1' } })).status).toBe(200);
  },
  [`POST ${C}/points/delete`]: async (r) => {
    expect((await ask(r, { points: B })).status).toBe(200);
    expect((await ask(r, { filter: { must: [{ key: 'n', match: { any: [12, 13] } }] } })).status).toBe(200);
  },
  [`PUT ${C}/points/vectors`]: async (r) => {
    // Beta's point is not there for acme: the existence check answers 404 before any shard is asked.
    expect((await ask(r, { points: [{ id: 11, vector: [9, 9] }] })).status).toBe(404);
    expect((await ask(r, { points: [{ id: 1, vector: [1, 1] }] })).status).toBe(200);
  },
  [`POST ${C}/points/batch`]: async (r) => {
    const a = await ask(r, { operations: [{ upsert: { points: [point(7, 'acme')] } }, { upsert: { points: [point(12, 'acme')] } }] });
    forbidden(a, 'Batch operation 1 (upsert) failed: Forbidden: point 12 belongs outside');
    forbidden(await ask(r, { operations: [{ set_payload: { payload: { tenant: 'beta' }, filter: all } }] }), 'would take point');
    expect((await ask(r, { operations: [{ delete: { points: [13] } }, { clear_payload: { filter: { must: [{ key: 'n', match: { value: 14 } }] } } }] })).status).toBe(200);
  },
  [`POST ${C}/points/vectors/delete`]: async (r) => {
    expect((await ask(r, { points: B, vector: [''] })).status).toBe(200);
    expect((await ask(r, { filter: { must: [{ key: 'n', match: { value: 11 } }] }, vector: [''] })).status).toBe(200);
  },
  [`POST ${C}/facet`]: async (r) => {
    const a = await ask(r, { key: 'tenant', exact: true });
    expect(a.status, a.error).toBe(200);
    expect((a.result as { hits: { value: unknown }[] }).hits.map((h) => h.value)).toEqual(['acme']);
  },
  [`POST ${C}/points/count`]: async (r) => {
    const a = await ask(r, { exact: true, filter: { must: [{ key: 'tenant', match: { value: 'beta' } }] } });
    expect(a.result).toEqual({ count: 0 });
    // Not exact, bound by an unindexed key: the index on n alone would count beta's 11..14.
    const byOrg: TenantGuard = { filter: { must: [{ key: 'org', match: { value: 'acme' } }] }, rule: RULE };
    const approx = await ask(r, { exact: false, filter: { must: [{ key: 'n', range: { gte: 11 } }] } }, { tenant: byOrg });
    expect(approx.result).toEqual({ count: 0 });
  },
  [`POST ${C}/points/scroll`]: async (r) => {
    onlyAcme(await ask(r, { limit: 50, with_payload: true }));
    onlyAcme(await ask(r, { limit: 50, order_by: 'n' }));
    onlyAcme(await ask(r, { limit: 50, filter: { must: [{ key: 'tenant', match: { value: 'beta' } }] } }), false);
  },
  [`POST ${C}/points/search`]: async (r) => {
    onlyAcme(await ask(r, search));
    onlyAcme(await ask(r, { ...search, filter: { should: [{ key: 'tenant', match: { value: 'beta' } }] } }), false);
  },
  [`POST ${C}/points/search/batch`]: async (r) => {
    onlyAcme(await ask(r, { searches: [search, { ...search, vector: [1, 0] }] }));
  },
  [`POST ${C}/points/search/matrix/pairs`]: async (r) => {
    onlyAcme(await ask(r, { sample: 10, limit: 3 }));
  },
  [`POST ${C}/points/search/matrix/offsets`]: async (r) => {
    onlyAcme(await ask(r, { sample: 10, limit: 3 }));
  },
  [`POST ${C}/points/query`]: async (r) => {
    onlyAcme(await ask(r, { query: [0, 1], limit: 20 }));
    onlyAcme(await ask(r, { prefetch: [{ query: [0, 1], limit: 20 }, { query: [1, 0], limit: 20 }], query: { fusion: 'rrf' }, limit: 20, with_payload: true }));
    onlyAcme(await ask(r, { query: { order_by: 'n' }, limit: 20 }));
    onlyAcme(await ask(r, { query: { sample: 'random' }, limit: 20 }));
    onlyAcme(await ask(r, { limit: 20 }));
    onlyAcme(await ask(r, { query: { recommend: { positive: [1], negative: [2] } }, limit: 20 }));
    // Beta's points as examples are not found: nothing of them is used or told.
    for (const query of [11, { recommend: { positive: [11] } }, { discover: { target: 1, context: [{ positive: 12, negative: 2 }] } }, { context: [{ positive: 1, negative: 13 }] }]) {
      const a = await ask(r, { query, limit: 20 });
      expect(a.status, JSON.stringify(query)).toBeGreaterThanOrEqual(400);
      expect(a.error).toContain('Not found');
    }
  },
  [`POST ${C}/points/query/batch`]: async (r) => {
    onlyAcme(await ask(r, { searches: [{ query: [0, 1], limit: 20 }, { query: { order_by: 'n' }, limit: 20 }] }));
  },
  [`POST ${C}/points/payload`]: async (r) => {
    expect((await ask(r, { payload: { x: 1 }, points: [11] })).status).toBe(404);
    forbidden(await ask(r, { payload: { tenant: 'beta' }, points: [1] }), 'the change would take point 1 outside');
    expect((await ask(r, { payload: { x: 1 }, filter: all })).status).toBe(200);
  },
  [`PUT ${C}/points/payload`]: async (r) => {
    forbidden(await ask(r, { payload: { x: 2 }, points: [2] }), 'the change would take point 2 outside');
    expect((await ask(r, { payload: { x: 2 }, points: [12] })).status).toBe(404);
    expect((await ask(r, { payload: { tenant: 'acme', n: 2 }, filter: { must: [{ key: 'n', match: { any: [2, 12] } }] } })).status).toBe(200);
  },
  [`POST ${C}/points/payload/delete`]: async (r) => {
    forbidden(await ask(r, { keys: ['tenant'], filter: all }), 'the change would take point');
    expect((await ask(r, { keys: ['x'], filter: all })).status).toBe(200);
  },
  [`POST ${C}/points/payload/clear`]: async (r) => {
    expect((await ask(r, { points: [13] })).status).toBe(404);
    forbidden(await ask(r, { points: [3] }), 'the change would take point 3 outside');
  },
};

beforeAll(async () => {
  q = await startInProcess({ workers: 2 });
  expect((await inject(q.app, 'PUT', '/collections/tt', { vectors: { size: 2, distance: 'Dot' }, shard_number: 3 })).status).toBe(200);
  expect((await inject(q.app, 'PUT', '/collections/tt/index?wait=true', { field_name: 'tenant', field_schema: 'keyword' })).status).toBe(200);
  expect((await inject(q.app, 'PUT', '/collections/tt/index?wait=true', { field_name: 'n', field_schema: 'integer' })).status).toBe(200);
  const up = await ask(`PUT ${C}/points`, { points: [...A.map((i) => point(i, 'acme')), ...B.map((i) => point(i, 'beta'))] }, { tenant: null });
  expect(up.status, up.error).toBe(200);
  beta = await betaNow();
  expect(idsIn(beta)).toEqual(B);
});
afterAll(async () => {
  await q.close();
});

describe('every hand-off route through a tenant binding', () => {
  it('has a case for each route of the registry', () => {
    expect(Object.keys(CASES).sort()).toEqual([...HANDOFF_ROUTES].sort());
  });

  for (const route of HANDOFF_ROUTES) {
    it(route, async () => {
      await (CASES[route] as (r: HandoffRoute) => Promise<void>)(route);
      expect(await betaNow()).toEqual(beta);
    });
  }

  it('gRPC hand-offs run over the binding too', async () => {
    const points = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] })['qdrant.Points'] as protoLoader.ServiceDefinition;
    const call = (method: 'Count' | 'Upsert', message: object) =>
      handleGrpcRequest(q.engine, { kind: 'grpc', method, params: { collection_name: 'tt' }, body: points[method]!.requestSerialize(message), t0: performance.timeOrigin + performance.now(), tenant: acme });
    const count = await call('Count', { collection_name: 'tt', exact: true, filter: { must: [{ field: { key: 'tenant', match: { keyword: 'beta' } } }] } });
    expect(count.ok && (points.Count!.responseDeserialize(Buffer.from(count.body)) as { result: { count: string } }).result.count).toBe('0');
    const up = await call('Upsert', { collection_name: 'tt', wait: true, points: [{ id: { num: '11' }, vectors: { vector: { data: [1, 1] } }, payload: { tenant: { string_value: 'acme' } } }] });
    expect(up).toEqual({ ok: false, error: { code: 'Forbidden', message: `Forbidden: point 11 belongs outside ${RULE}` } });
    expect(await betaNow()).toEqual(beta);
  });
});
