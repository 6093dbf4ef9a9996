// The gRPC `qdrant.Points` methods a coordinating worker serves (GRPC_HANDOFF_METHODS, from the
// registry in src/shared/point-ops.ts): each
// converts the decoded message to the REST request shape, checks it with the REST route's schema,
// calls the same do* function as REST, and converts the result (without `time`, which the caller
// stamps). No transport here (no grpc-js, no decoding): grpc-requests.ts decodes and encodes
// around it, in a worker or, for in-process tests, on the main thread.

import type { Static, TSchema } from 'typebox';
import type { GrpcHandoffMethod } from '../../shared/point-ops.js';
import { UpdateOperations } from '../../shared/schemas/batch.js';
import { ClearPayload, DeletePayload, SetPayload } from '../../shared/schemas/payload.js';
import { CollectionNameParams } from '../../shared/schemas/common.js';
import { CountPoints, DeleteVectors, FacetRequest, PointsSelector, RetrievePoints, ScrollPoints, SearchMatrixRequest, UpdateVectors, UpsertPoints } from '../../shared/schemas/points.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from '../../shared/schemas/search.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { doBatchUpdate } from '../service/batch.js';
import { doFacet } from '../service/facet.js';
import { doMatrixOffsets, doMatrixPairs } from '../service/matrix.js';
import type { SearchMatrixPoints__Output } from '../../shared/grpc/generated/qdrant/SearchMatrixPoints.js';
import type { SearchMatrixPairsResponse } from '../../shared/grpc/generated/qdrant/SearchMatrixPairsResponse.js';
import type { SearchMatrixOffsetsResponse } from '../../shared/grpc/generated/qdrant/SearchMatrixOffsetsResponse.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../service/payload.js';
import { doCount, doDeletePoints, doRetrieve, doScroll, doUpdateVectors, doUpsert } from '../service/points.js';
import { doDeleteVectors } from '../service/vectors.js';
import { doQuery, doQueryBatch } from '../service/query.js';
import { doSearch, doSearchBatch } from '../service/search.js';
import type { CountPoints__Output } from '../../shared/grpc/generated/qdrant/CountPoints.js';
import type { CountResponse } from '../../shared/grpc/generated/qdrant/CountResponse.js';
import type { GetPoints__Output } from '../../shared/grpc/generated/qdrant/GetPoints.js';
import type { GetResponse } from '../../shared/grpc/generated/qdrant/GetResponse.js';
import type { PointsOperationResponse } from '../../shared/grpc/generated/qdrant/PointsOperationResponse.js';
import type { QueryBatchPoints__Output } from '../../shared/grpc/generated/qdrant/QueryBatchPoints.js';
import type { QueryBatchResponse } from '../../shared/grpc/generated/qdrant/QueryBatchResponse.js';
import type { QueryPoints__Output } from '../../shared/grpc/generated/qdrant/QueryPoints.js';
import type { QueryResponse } from '../../shared/grpc/generated/qdrant/QueryResponse.js';
import type { ScrollPoints__Output } from '../../shared/grpc/generated/qdrant/ScrollPoints.js';
import type { ScrollResponse } from '../../shared/grpc/generated/qdrant/ScrollResponse.js';
import type { SearchBatchPoints__Output } from '../../shared/grpc/generated/qdrant/SearchBatchPoints.js';
import type { SearchBatchResponse } from '../../shared/grpc/generated/qdrant/SearchBatchResponse.js';
import type { SearchPoints__Output } from '../../shared/grpc/generated/qdrant/SearchPoints.js';
import type { SearchResponse } from '../../shared/grpc/generated/qdrant/SearchResponse.js';
import type { UpsertPoints__Output } from '../../shared/grpc/generated/qdrant/UpsertPoints.js';
import type { DeletePoints__Output } from '../../shared/grpc/generated/qdrant/DeletePoints.js';
import type { UpdatePointVectors__Output } from '../../shared/grpc/generated/qdrant/UpdatePointVectors.js';
import type { SetPayloadPoints__Output } from '../../shared/grpc/generated/qdrant/SetPayloadPoints.js';
import type { DeletePayloadPoints__Output } from '../../shared/grpc/generated/qdrant/DeletePayloadPoints.js';
import type { ClearPayloadPoints__Output } from '../../shared/grpc/generated/qdrant/ClearPayloadPoints.js';
import type { UpdateBatchPoints__Output } from '../../shared/grpc/generated/qdrant/UpdateBatchPoints.js';
import type { UpdateBatchResponse } from '../../shared/grpc/generated/qdrant/UpdateBatchResponse.js';
import type { DeletePointVectors__Output } from '../../shared/grpc/generated/qdrant/DeletePointVectors.js';
import type { FacetCounts__Output } from '../../shared/grpc/generated/qdrant/FacetCounts.js';
import type { FacetResponse } from '../../shared/grpc/generated/qdrant/FacetResponse.js';
import { schemaCheck } from '../../shared/grpc/messages/common.js';
import {
  batchOperationIn,
  clearPayloadIn,
  countIn,
  deletePayloadIn,
  deletePointsIn,
  deleteVectorsIn,
  facetHitOut,
  facetIn,
  matrixIn,
  matrixOffsetsOut,
  matrixPairsOut,
  retrieveIn,
  retrievedPointOut,
  scoredPointOut,
  scrollIn,
  scrollOut,
  setPayloadIn,
  updateResultOut,
  updateVectorsIn,
  upsertIn,
} from '../../shared/grpc/messages/points.js';
import { queryIn, searchIn } from '../../shared/grpc/messages/query.js';
import type { UpdateResult } from '../../shared/types.js';
import { timeoutSeconds, waitDeadline, writeWithin } from '../service/request-timeout.js';

/** One method: the decoded request (as LOADER_OPTIONS decodes it) to the reply without `time`. */
export type PointCall = (engine: PointEngine, req: never) => Promise<object>;

function call<Req, Res>(fn: (engine: PointEngine, req: Req) => Promise<Omit<Res, 'time'>>): PointCall {
  return fn as PointCall;
}

/** A REST schema's check, compiled at its first use in this thread (most threads never serve gRPC). */
function lazyCheck<S extends TSchema>(schema: S): (value: Static<S>) => Static<S> {
  let compiled: ((value: Static<S>) => Static<S>) | null = null;
  return (value) => (compiled ??= schemaCheck(schema))(value);
}

const checkName = lazyCheck(CollectionNameParams);
const name = (r: { collection_name?: string }): string => checkName({ collection_name: r.collection_name ?? '' }).collection_name;
const check = {
  upsert: lazyCheck(UpsertPoints),
  retrieve: lazyCheck(RetrievePoints),
  count: lazyCheck(CountPoints),
  scroll: lazyCheck(ScrollPoints),
  search: lazyCheck(SearchRequest),
  searchBatch: lazyCheck(SearchBatch),
  query: lazyCheck(QueryRequest),
  queryBatch: lazyCheck(QueryBatch),
  selector: lazyCheck(PointsSelector),
  vectors: lazyCheck(UpdateVectors),
  deleteVectors: lazyCheck(DeleteVectors),
  setPayload: lazyCheck(SetPayload),
  deletePayload: lazyCheck(DeletePayload),
  clearPayload: lazyCheck(ClearPayload),
  batch: lazyCheck(UpdateOperations),
  facet: lazyCheck(FacetRequest),
  matrix: lazyCheck(SearchMatrixRequest),
};
const wait = (r: { wait?: boolean }): boolean => r.wait === true;
type Updated = PointsOperationResponse;
/** A write's message: wait=true with its `timeout` answers `wait_timeout` when not done in time (request-timeout.ts). */
type Write = { wait?: boolean; timeout?: string };
const deadline = (r: Write): number | null => waitDeadline(wait(r), timeoutSeconds(r.timeout));
const waited = (e: PointEngine, r: Write, write: (e: PointEngine) => Promise<UpdateResult>): Promise<UpdateResult> => writeWithin(e, deadline(r), write);

export const POINT_CALLS: Record<GrpcHandoffMethod, PointCall> = {
  Upsert: call<UpsertPoints__Output, PointsOperationResponse>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doUpsert(e, name(r), check.upsert(upsertIn(r)), wait(r)))),
  })),
  Get: call<GetPoints__Output, GetResponse>(async (e, r) => ({ result: (await doRetrieve(e, name(r), check.retrieve(retrieveIn(r)))).map(retrievedPointOut) })),
  Search: call<SearchPoints__Output, SearchResponse>(async (e, r) => ({ result: (await doSearch(e, name(r), check.search(searchIn(r)))).map(scoredPointOut) })),
  SearchBatch: call<SearchBatchPoints__Output, SearchBatchResponse>(async (e, r) => {
    const { searches } = check.searchBatch({ searches: r.search_points.map(searchIn) });
    return { result: (await doSearchBatch(e, name(r), searches)).map((points) => ({ result: points.map(scoredPointOut) })) };
  }),
  Scroll: call<ScrollPoints__Output, ScrollResponse>(async (e, r) => scrollOut(await doScroll(e, name(r), check.scroll(scrollIn(r))))),
  Count: call<CountPoints__Output, CountResponse>(async (e, r) => ({ result: await doCount(e, name(r), check.count(countIn(r))) })),
  Query: call<QueryPoints__Output, QueryResponse>(async (e, r) => ({ result: (await doQuery(e, name(r), check.query(queryIn(r)))).points.map(scoredPointOut) })),
  QueryBatch: call<QueryBatchPoints__Output, QueryBatchResponse>(async (e, r) => {
    const { searches } = check.queryBatch({ searches: r.query_points.map(queryIn) });
    return { result: (await doQueryBatch(e, name(r), searches)).map((b) => ({ result: b.points.map(scoredPointOut) })) };
  }),
  Delete: call<DeletePoints__Output, Updated>(async (e, r) => ({ result: updateResultOut(await waited(e, r, (e) => doDeletePoints(e, name(r), check.selector(deletePointsIn(r)), wait(r)))) })),
  UpdateVectors: call<UpdatePointVectors__Output, Updated>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doUpdateVectors(e, name(r), check.vectors(updateVectorsIn(r)), wait(r)))),
  })),
  UpdateBatch: call<UpdateBatchPoints__Output, UpdateBatchResponse>(async (e, r) => {
    const req = check.batch({ operations: r.operations.map(batchOperationIn) });
    return { result: (await doBatchUpdate(e, name(r), req, wait(r), deadline(r))).map(updateResultOut) };
  }),
  DeleteVectors: call<DeletePointVectors__Output, Updated>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doDeleteVectors(e, name(r), check.deleteVectors(deleteVectorsIn(r)), wait(r)))),
  })),
  // read_consistency: grpc-requests.ts hands every call the engine its level asks for.
  SearchMatrixPairs: call<SearchMatrixPoints__Output, SearchMatrixPairsResponse>(async (e, r) => ({
    result: matrixPairsOut(await doMatrixPairs(e, name(r), check.matrix(matrixIn(r)))),
  })),
  SearchMatrixOffsets: call<SearchMatrixPoints__Output, SearchMatrixOffsetsResponse>(async (e, r) => ({
    result: matrixOffsetsOut(await doMatrixOffsets(e, name(r), check.matrix(matrixIn(r)))),
  })),
  Facet: call<FacetCounts__Output, FacetResponse>(async (e, r) => ({ hits: (await doFacet(e, name(r), check.facet(facetIn(r)))).hits.map(facetHitOut) })),
  SetPayload: call<SetPayloadPoints__Output, Updated>(async (e, r) => ({ result: updateResultOut(await waited(e, r, (e) => doSetPayload(e, name(r), check.setPayload(setPayloadIn(r)), wait(r)))) })),
  OverwritePayload: call<SetPayloadPoints__Output, Updated>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doOverwritePayload(e, name(r), check.setPayload(setPayloadIn(r)), wait(r)))),
  })),
  DeletePayload: call<DeletePayloadPoints__Output, Updated>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doDeletePayload(e, name(r), check.deletePayload(deletePayloadIn(r)), wait(r)))),
  })),
  ClearPayload: call<ClearPayloadPoints__Output, Updated>(async (e, r) => ({
    result: updateResultOut(await waited(e, r, (e) => doClearPayload(e, name(r), check.clearPayload(clearPayloadIn(r)), wait(r)))),
  })),
};
