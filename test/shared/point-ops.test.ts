// The registry of point operations (src/shared/point-ops.ts) against what the server really
// serves: every point route the app registers (other than the 501s) is in it once, every method
// of the gRPC Points service is in it or answered UNIMPLEMENTED, and the lists derived from it
// (hand-off routes and methods, the read/write split, the access rules, the route docs, the
// worker's codecs) agree with it.

import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/main/auth/http.js';
import { GRPC_ACCESS, REST_ACCESS } from '../../src/main/auth/permissions.js';
import { UNIMPLEMENTED } from '../../src/main/http/routes/unimplemented.js';
import { pointHandlers } from '../../src/main/grpc/points.js';
import { POINT_CALLS } from '../../src/workers/coordinator/grpc-point-calls.js';
import { LOADER_OPTIONS, PROTO_DIR } from '../../src/shared/grpc/proto.js';
import {
  GRPC_HANDOFF_METHODS,
  HANDOFF_ROUTES,
  isReadMethod,
  isReadRoute,
  POINT_OPS,
  POINT_OPS_BY_GRPC,
  routeParts,
  type PointOpSpec,
  type PointRoute,
} from '../../src/shared/point-ops.js';
import { startInProcess, type InProcessQuiver } from '../helpers/in-process.js';
import type { GrpcContext } from '../../src/main/grpc/unary.js';

const ROUTES = Object.keys(POINT_OPS) as PointRoute[];
const SPECS: [string, PointOpSpec][] = Object.entries(POINT_OPS);

/** Routes of points, payloads, facets, field indexes and vector names: what the registry must hold. */
function isPointUrl(url: string): boolean {
  return /^\/collections\/:[a-z_]+\/(points|facet|index|vectors)(\/|$)/.test(url);
}

let q: InProcessQuiver;
beforeAll(async () => {
  q = await startInProcess({ workers: 1 });
});
afterAll(async () => {
  await q.close();
});

describe('the point-operation registry', () => {
  it('holds every point route the app registers, once, besides the 501s, and nothing it does not register', () => {
    const unimplemented = new Set(UNIMPLEMENTED.map(([m, u]) => `${m} ${u}`));
    const served = registeredRoutes(q.app)
      .filter((r) => r.method !== 'HEAD' && isPointUrl(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !unimplemented.has(r));
    expect(new Set(served).size).toBe(served.length);
    expect([...served].sort()).toEqual([...ROUTES].sort());
    for (const r of ROUTES) expect(r).toBe(`${routeParts(r).method} ${routeParts(r).url}`);
  });

  it('holds every method of qdrant.Points once, or the main thread answers it UNIMPLEMENTED', async () => {
    const service = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] })['qdrant.Points'] as protoLoader.ServiceDefinition;
    const grpcOfRegistry = SPECS.flatMap(([, s]) => (s.grpc === null ? [] : [s.grpc]));
    expect(new Set(grpcOfRegistry).size).toBe(grpcOfRegistry.length);
    const main = pointHandlers({ engine: q.engine, log: q.app.log } as unknown as GrpcContext) as Record<string, unknown>;
    for (const method of Object.keys(service)) {
      const inRegistry = POINT_OPS_BY_GRPC.has(method);
      const handedOff = (GRPC_HANDOFF_METHODS as readonly string[]).includes(method);
      // Exactly one server: a worker (handed off) or the main thread's handler table.
      expect(handedOff !== Object.hasOwn(main, method), method).toBe(true);
      if (!inRegistry) expect(handedOff, `${method} is handed off but not in the registry`).toBe(false);
    }
    for (const m of grpcOfRegistry) expect(Object.keys(service), m).toContain(m);
  });

  it('derives the hand-off lists: worker-coordinated routes and their gRPC methods, each with a worker-side call', () => {
    expect(HANDOFF_ROUTES).toEqual(ROUTES.filter((r) => POINT_OPS[r].coordinated === 'worker'));
    expect([...GRPC_HANDOFF_METHODS].sort()).toEqual(
      SPECS.filter(([, s]) => s.coordinated === 'worker' && s.grpc !== null)
        .map(([, s]) => s.grpc!)
        .sort(),
    );
    expect(Object.keys(POINT_CALLS).sort()).toEqual([...GRPC_HANDOFF_METHODS].sort());
    // The rule: only catalog changes (field indexes, vector names) stay on the main thread.
    expect(ROUTES.filter((r) => POINT_OPS[r].coordinated === 'main')).toEqual([
      'PUT /collections/:collection_name/index',
      'DELETE /collections/:collection_name/index/:field_name',
      'PUT /collections/:collection_name/vectors/:vector_name',
      'DELETE /collections/:collection_name/vectors/:vector_name',
    ]);
  });

  it('derives the read/write split and the access rules from each entry’s kind', () => {
    for (const [route, spec] of SPECS) {
      expect(isReadRoute(route), route).toBe(spec.kind === 'read');
      // A write the main thread coordinates changes the collection itself (indexes, vector names): manage.
      const rule = spec.kind === 'write' && spec.coordinated === 'main' ? 'manage' : spec.kind;
      expect(REST_ACCESS[route], route).toBe(rule);
      if (spec.grpc !== null) {
        expect(isReadMethod(spec.grpc), spec.grpc).toBe(spec.kind === 'read');
        expect(GRPC_ACCESS[`/qdrant.Points/${spec.grpc}`], spec.grpc).toBe(rule);
      }
    }
    // Unknown names are writes: a write on the main thread is only slower, on a worker it could reorder copies.
    expect(isReadRoute('POST /collections/:collection_name/points/serch')).toBe(false);
    expect(isReadMethod('Serch')).toBe(false);
  });

  it('gives the OpenAPI document each entry’s operationId and summary', async () => {
    const res = await q.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, { operationId?: string; summary?: string }>> };
    for (const [route, spec] of SPECS) {
      const { method, url } = routeParts(route as PointRoute);
      const path = url.replace(/:([a-z_]+)/g, '{$1}');
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op?.operationId, route).toBe(spec.doc.operationId);
      expect(op?.summary, route).toBe(spec.doc.summary);
    }
  });
});
