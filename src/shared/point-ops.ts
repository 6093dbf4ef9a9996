// The one registry of point operations (docs/architecture.md, "The point-operation registry"):
// for each, its REST method and path, its gRPC `qdrant.Points` method, the schemas of its path
// parameters, query string and body, whether it reads or writes, where it is coordinated, and
// what the OpenAPI document says of it. Everything that lists point operations derives from this
// table: the REST routes (src/main/http/routes/points.ts), the hand-off list, the read/write
// split that keeps a replicated collection's writes in one order (src/main/coordinator/
// replica-aware.ts), the access rules (src/main/auth/permissions.ts), the gRPC dispatch on both
// threads, and the route docs. A typo in a route or method name does not compile.
//
// Rule of coordination: every point operation is coordinated in a worker (`worker`: its raw
// bytes are handed off); only field index and vector name changes are `main`, since they change
// the catalog, which the main thread owns.
//
// Order matters: routes register in this order, which is the order of the OpenAPI document.

import type { TSchema } from 'typebox';
import Type from 'typebox';
import { UpdateOperations } from './schemas/batch.js';
import { VectorNameConfig, VectorNameParams } from './schemas/collections.js';
import { CollectionNameParams, ReadQuery, WaitQuery } from './schemas/common.js';
import { ClearPayload, CreateFieldIndex, DeletePayload, FieldNameParams, SetPayload } from './schemas/payload.js';
import { CountPoints, DeleteVectors, FacetRequest, PointIdParams, PointsSelector, RetrievePoints, ScrollPoints, SearchMatrixRequest, UpdateVectors, UpsertPoints } from './schemas/points.js';
import { CountOut, FacetOut, MatrixOffsetsOut, MatrixPairsOut, Ok, PointRecordOut, QueryOut, ScoredPointOut, ScrollOut, UpdateResultOut } from './schemas/responses.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from './schemas/search.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface PointOpSpec {
  /** The gRPC `qdrant.Points` method that does the same, or null (REST only). */
  grpc: string | null;
  params: TSchema;
  /** The query string's schema: a read's consistency and timeout, a write's wait, ordering and timeout. */
  querystring: TSchema | null;
  /** The body's schema (null: the route takes no body). */
  body: TSchema | null;
  kind: 'read' | 'write';
  /** Where the request is coordinated (see the file comment). */
  coordinated: 'worker' | 'main';
  /** The OpenAPI document's entry: Qdrant's operationId, a summary, the result inside the envelope. */
  doc: { tag: 'Points' | 'Search' | 'Indexes' | 'Collections'; operationId: string; summary: string; result: TSchema };
}

const C = '/collections/:collection_name';
const params = CollectionNameParams;
const updated = Ok(UpdateResultOut).properties.result;

// Generic in the method name and body schema, so that each entry keeps its literal types (the
// hand-off routes' bodies are typed from them).
function read<G extends string | null, B extends TSchema | null>(grpc: G, p: TSchema, body: B, doc: PointOpSpec['doc']) {
  return { grpc, params: p, querystring: ReadQuery, body, kind: 'read', coordinated: 'worker', doc } as const;
}

function write<G extends string, B extends TSchema | null>(grpc: G, body: B, doc: PointOpSpec['doc']) {
  return { grpc, params, querystring: WaitQuery, body, kind: 'write', coordinated: 'worker', doc } as const;
}

/** A write the main thread coordinates (see the file comment). */
function catalogWrite<G extends string, B extends TSchema | null>(grpc: G, p: TSchema, body: B, doc: PointOpSpec['doc']) {
  return { grpc, params: p, querystring: WaitQuery, body, kind: 'write', coordinated: 'main', doc } as const;
}

export const POINT_OPS = {
  [`PUT ${C}/points`]: write('Upsert', UpsertPoints, { tag: 'Points', operationId: 'upsert_points', summary: 'Upsert points', result: updated }),
  [`POST ${C}/points`]: read('Get', params, RetrievePoints, { tag: 'Points', operationId: 'get_points', summary: 'Get points by ids', result: Type.Array(PointRecordOut) }),
  [`GET ${C}/points/:id`]: read(null, PointIdParams, null, { tag: 'Points', operationId: 'get_point', summary: 'Get point', result: PointRecordOut }),
  [`POST ${C}/points/delete`]: write('Delete', PointsSelector, { tag: 'Points', operationId: 'delete_points', summary: 'Delete points', result: updated }),
  [`PUT ${C}/points/vectors`]: write('UpdateVectors', UpdateVectors, { tag: 'Points', operationId: 'update_vectors', summary: 'Update vectors', result: updated }),
  [`POST ${C}/points/batch`]: write('UpdateBatch', UpdateOperations, { tag: 'Points', operationId: 'batch_update', summary: 'Batch update points', result: Type.Array(UpdateResultOut) }),
  [`POST ${C}/points/vectors/delete`]: write('DeleteVectors', DeleteVectors, { tag: 'Points', operationId: 'delete_vectors', summary: 'Delete vectors', result: updated }),
  [`POST ${C}/facet`]: read('Facet', params, FacetRequest, {
    tag: 'Points',
    operationId: 'facet',
    summary: 'Count the values of a payload key among the points a filter matches',
    result: FacetOut,
  }),
  [`POST ${C}/points/count`]: read('Count', params, CountPoints, { tag: 'Points', operationId: 'count_points', summary: 'Count points', result: CountOut }),
  [`POST ${C}/points/scroll`]: read('Scroll', params, ScrollPoints, { tag: 'Points', operationId: 'scroll_points', summary: 'Scroll points', result: ScrollOut }),
  [`POST ${C}/points/search`]: read('Search', params, SearchRequest, {
    tag: 'Search',
    operationId: 'search_points',
    summary: 'Search points (legacy; see query)',
    result: Type.Array(ScoredPointOut),
  }),
  [`POST ${C}/points/search/batch`]: read('SearchBatch', params, SearchBatch, {
    tag: 'Search',
    operationId: 'search_batch_points',
    summary: 'Search points in batch',
    result: Type.Array(Type.Array(ScoredPointOut)),
  }),
  [`POST ${C}/points/search/matrix/pairs`]: read('SearchMatrixPairs', params, SearchMatrixRequest, {
    tag: 'Search',
    operationId: 'search_matrix_pairs',
    summary: 'Search points matrix distance pairs',
    result: MatrixPairsOut,
  }),
  [`POST ${C}/points/search/matrix/offsets`]: read('SearchMatrixOffsets', params, SearchMatrixRequest, {
    tag: 'Search',
    operationId: 'search_matrix_offsets',
    summary: 'Search points matrix distance offsets',
    result: MatrixOffsetsOut,
  }),
  [`POST ${C}/points/query`]: read('Query', params, QueryRequest, { tag: 'Search', operationId: 'query_points', summary: 'Query points', result: QueryOut }),
  [`POST ${C}/points/query/batch`]: read('QueryBatch', params, QueryBatch, { tag: 'Search', operationId: 'query_batch_points', summary: 'Query points in batch', result: Type.Array(QueryOut) }),
  [`POST ${C}/points/payload`]: write('SetPayload', SetPayload, { tag: 'Points', operationId: 'set_payload', summary: 'Set payload', result: updated }),
  [`PUT ${C}/points/payload`]: write('OverwritePayload', SetPayload, { tag: 'Points', operationId: 'overwrite_payload', summary: 'Overwrite payload', result: updated }),
  [`POST ${C}/points/payload/delete`]: write('DeletePayload', DeletePayload, { tag: 'Points', operationId: 'delete_payload', summary: 'Delete payload keys', result: updated }),
  [`POST ${C}/points/payload/clear`]: write('ClearPayload', ClearPayload, { tag: 'Points', operationId: 'clear_payload', summary: 'Clear payload', result: updated }),
  [`PUT ${C}/index`]: catalogWrite('CreateFieldIndex', params, CreateFieldIndex, {
    tag: 'Indexes',
    operationId: 'create_field_index',
    summary: 'Create index for field in collection',
    result: updated,
  }),
  [`DELETE ${C}/index/:field_name`]: catalogWrite('DeleteFieldIndex', FieldNameParams, null, {
    tag: 'Indexes',
    operationId: 'delete_field_index',
    summary: 'Delete index for field in collection',
    result: updated,
  }),
  [`PUT ${C}/vectors/:vector_name`]: catalogWrite('CreateVectorName', VectorNameParams, VectorNameConfig, {
    tag: 'Collections',
    operationId: 'create_vector_name',
    summary: 'Create a named vector on a live collection (its points kept, none having it yet)',
    result: updated,
  }),
  [`DELETE ${C}/vectors/:vector_name`]: catalogWrite('DeleteVectorName', VectorNameParams, null, {
    tag: 'Collections',
    operationId: 'delete_vector_name',
    summary: "Delete a named vector from a live collection (its points kept, without it)",
    result: updated,
  }),
} as const satisfies Record<string, PointOpSpec>;

type Ops = typeof POINT_OPS;
/** A point operation's route, `METHOD url-template` as fastify names it. */
export type PointRoute = keyof Ops;
/** The routes coordinated in a worker: their requests are handed off whole. */
export type HandoffRoute = { [R in PointRoute]: Ops[R]['coordinated'] extends 'worker' ? R : never }[PointRoute];
/** The routes the main thread serves itself (field index and vector name changes). */
export type MainRoute = Exclude<PointRoute, HandoffRoute>;
/** The gRPC methods handed off to a coordinating worker. */
export type GrpcHandoffMethod = { [R in HandoffRoute]: Ops[R]['grpc'] }[HandoffRoute] & string;
/** The point-operation gRPC methods the main thread serves itself. */
export type GrpcMainMethod = { [R in MainRoute]: Ops[R]['grpc'] }[MainRoute] & string;

const ROUTES = Object.keys(POINT_OPS) as PointRoute[];

export const HANDOFF_ROUTES: readonly HandoffRoute[] = ROUTES.filter((r): r is HandoffRoute => POINT_OPS[r].coordinated === 'worker');

export const GRPC_HANDOFF_METHODS: readonly GrpcHandoffMethod[] = HANDOFF_ROUTES.flatMap((r) => {
  const m = POINT_OPS[r].grpc;
  return m === null ? [] : [m as GrpcHandoffMethod];
});

/** A point operation's spec by its gRPC method (undefined: not a point operation Quiver serves). */
export const POINT_OPS_BY_GRPC: ReadonlyMap<string, PointOpSpec> = new Map(
  ROUTES.flatMap((r) => {
    const spec: PointOpSpec = POINT_OPS[r];
    return spec.grpc === null ? [] : [[spec.grpc, spec] as const];
  }),
);

/** Splits `METHOD url` into its parts. */
export function routeParts(route: PointRoute): { method: HttpMethod; url: string } {
  const space = route.indexOf(' ');
  return { method: route.slice(0, space) as HttpMethod, url: route.slice(space + 1) };
}

/** Whether a point operation only reads (a route or gRPC method not in the registry is taken for a write). */
export function isReadRoute(route: string): boolean {
  return (POINT_OPS as Record<string, PointOpSpec>)[route]?.kind === 'read';
}

export function isReadMethod(method: string): boolean {
  return POINT_OPS_BY_GRPC.get(method)?.kind === 'read';
}
