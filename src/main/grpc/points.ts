// Service `qdrant.Points`: each handler converts the message to the REST request shape, checks it
// with the REST route's schema, calls the same do* function as REST, and converts the result.

import { UpdateOperations } from '../../shared/schemas/batch.js';
import { CollectionNameParams } from '../../shared/schemas/common.js';
import { ClearPayload, CreateFieldIndex, DeletePayload, SetPayload } from '../../shared/schemas/payload.js';
import { CountPoints, DeleteVectors, FacetRequest, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints } from '../../shared/schemas/points.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from '../../shared/schemas/search.js';
import { doBatchUpdate } from '../service/batch.js';
import { doFacet } from '../service/facet.js';
import { doCreateIndex, doDeleteIndex } from '../service/indexes.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../service/payload.js';
import { doCount, doDeletePoints, doRetrieve, doScroll, doUpdateVectors, doUpsert } from '../service/points.js';
import { doQuery, doQueryBatch } from '../service/query.js';
import { doSearch, doSearchBatch } from '../service/search.js';
import { doDeleteVectors } from '../service/vectors.js';
import {
  batchOperationIn,
  clearPayloadIn,
  countIn,
  deletePayloadIn,
  deletePointsIn,
  deleteVectorsIn,
  facetHitOut,
  facetIn,
  retrieveIn,
  retrievedPointOut,
  scoredPointOut,
  scrollIn,
  scrollOut,
  setPayloadIn,
  updateResultOut,
  updateVectorsIn,
  upsertIn,
} from './messages/points.js';
import { createIndexIn } from './messages/collections.js';
import { schemaCheck } from './messages/common.js';
import { queryIn, searchIn } from './messages/query.js';
import type { PointsHandlers } from './generated/qdrant/Points.js';
import { timed, unimplemented, type GrpcContext } from './unary.js';

export function pointHandlers({ engine, log }: GrpcContext): PointsHandlers {
  const checkName = schemaCheck(CollectionNameParams);
  const name = (r: { collection_name?: string }): string => checkName({ collection_name: r.collection_name ?? '' }).collection_name;
  const wait = (r: { wait?: boolean }): boolean => r.wait === true;
  const check = {
    upsert: schemaCheck(UpsertPoints),
    selector: schemaCheck(PointsSelector),
    retrieve: schemaCheck(RetrievePoints),
    vectors: schemaCheck(UpdateVectors),
    deleteVectors: schemaCheck(DeleteVectors),
    count: schemaCheck(CountPoints),
    scroll: schemaCheck(ScrollPoints),
    search: schemaCheck(SearchRequest),
    searchBatch: schemaCheck(SearchBatch),
    query: schemaCheck(QueryRequest),
    queryBatch: schemaCheck(QueryBatch),
    setPayload: schemaCheck(SetPayload),
    deletePayload: schemaCheck(DeletePayload),
    clearPayload: schemaCheck(ClearPayload),
    index: schemaCheck(CreateFieldIndex),
    batch: schemaCheck(UpdateOperations),
    facet: schemaCheck(FacetRequest),
  };
  return {
    Upsert: timed(log, async (r) => ({ result: updateResultOut(await doUpsert(engine, name(r), check.upsert(upsertIn(r)), wait(r))) })),
    Delete: timed(log, async (r) => ({ result: updateResultOut(await doDeletePoints(engine, name(r), check.selector(deletePointsIn(r)), wait(r))) })),
    Get: timed(log, async (r) => ({ result: (await doRetrieve(engine, name(r), check.retrieve(retrieveIn(r)))).map(retrievedPointOut) })),
    UpdateVectors: timed(log, async (r) => ({
      result: updateResultOut(await doUpdateVectors(engine, name(r), check.vectors(updateVectorsIn(r)), wait(r))),
    })),
    SetPayload: timed(log, async (r) => ({
      result: updateResultOut(await doSetPayload(engine, name(r), check.setPayload(setPayloadIn(r)), wait(r))),
    })),
    OverwritePayload: timed(log, async (r) => ({
      result: updateResultOut(await doOverwritePayload(engine, name(r), check.setPayload(setPayloadIn(r)), wait(r))),
    })),
    DeletePayload: timed(log, async (r) => ({
      result: updateResultOut(await doDeletePayload(engine, name(r), check.deletePayload(deletePayloadIn(r)), wait(r))),
    })),
    ClearPayload: timed(log, async (r) => ({
      result: updateResultOut(await doClearPayload(engine, name(r), check.clearPayload(clearPayloadIn(r)), wait(r))),
    })),
    CreateFieldIndex: timed(log, async (r) => ({
      result: updateResultOut(await doCreateIndex(engine, name(r), check.index(createIndexIn(r)), wait(r))),
    })),
    DeleteFieldIndex: timed(log, async (r) => ({ result: updateResultOut(await doDeleteIndex(engine, name(r), r.field_name ?? '', wait(r))) })),
    Search: timed(log, async (r) => ({ result: (await doSearch(engine, name(r), check.search(searchIn(r)))).map(scoredPointOut) })),
    SearchBatch: timed(log, async (r) => {
      const { searches } = check.searchBatch({ searches: r.search_points.map(searchIn) });
      return { result: (await doSearchBatch(engine, name(r), searches)).map((points) => ({ result: points.map(scoredPointOut) })) };
    }),
    Scroll: timed(log, async (r) => scrollOut(await doScroll(engine, name(r), check.scroll(scrollIn(r))))),
    Count: timed(log, async (r) => ({ result: await doCount(engine, name(r), check.count(countIn(r))) })),
    Query: timed(log, async (r) => ({ result: (await doQuery(engine, name(r), check.query(queryIn(r)))).points.map(scoredPointOut) })),
    QueryBatch: timed(log, async (r) => {
      const { searches } = check.queryBatch({ searches: r.query_points.map(queryIn) });
      return { result: (await doQueryBatch(engine, name(r), searches)).map((b) => ({ result: b.points.map(scoredPointOut) })) };
    }),
    Facet: timed(log, async (r) => ({ hits: (await doFacet(engine, name(r), check.facet(facetIn(r)))).hits.map(facetHitOut) })),
    UpdateBatch: timed(log, async (r) => {
      const req = check.batch({ operations: r.operations.map(batchOperationIn) });
      return { result: (await doBatchUpdate(engine, name(r), req, wait(r))).map(updateResultOut) };
    }),
    DeleteVectors: timed(log, async (r) => ({
      result: updateResultOut(await doDeleteVectors(engine, name(r), check.deleteVectors(deleteVectorsIn(r)), wait(r))),
    })),
    CreateVectorName: unimplemented(log, 'Vector name changes'),
    DeleteVectorName: unimplemented(log, 'Vector name changes'),
    SearchGroups: unimplemented(log, 'Grouped search'),
    Recommend: unimplemented(log, 'Recommendations'),
    RecommendBatch: unimplemented(log, 'Recommendations'),
    RecommendGroups: unimplemented(log, 'Recommendations'),
    Discover: unimplemented(log, 'Discovery'),
    DiscoverBatch: unimplemented(log, 'Discovery'),
    QueryGroups: unimplemented(log, 'Grouped query'),
    SearchMatrixPairs: unimplemented(log, 'Distance matrix'),
    SearchMatrixOffsets: unimplemented(log, 'Distance matrix'),
  };
}
