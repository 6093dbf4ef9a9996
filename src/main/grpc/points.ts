// Service `qdrant.Points`: each handler converts the message to the REST request shape, checks it
// with the REST route's schema, calls the same do* function as REST, and converts the result.

import { QuiverError } from '../../shared/errors.js';
import { UpdateOperations, type UpdateOperation } from '../../shared/schemas/batch.js';
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
  createIndexIn,
  deleteVectorsIn,
  facetValueOut,
  num,
  filterIn,
  opt,
  orderByRequestIn,
  pointIdIn,
  pointIdOut,
  pointsSelectorIn,
  queryIn,
  retrievedPointOut,
  schemaCheck,
  scoredPointOut,
  searchIn,
  selectionIn,
  shardKeyIn,
  structIn,
  updateResultOut,
  updateVectorsIn,
  upsertIn,
  withPayloadIn,
  withVectorIn,
} from './convert.js';
import type { PointsHandlers } from './generated/qdrant/Points.js';
import type { PointsUpdateOperation__Output } from './generated/qdrant/PointsUpdateOperation.js';
import type { SetPayloadPoints__Output } from './generated/qdrant/SetPayloadPoints.js';
import { timed, unimplemented, type GrpcContext } from './unary.js';

const setPayloadIn = (r: Pick<SetPayloadPoints__Output, 'payload' | 'points_selector' | 'key' | 'shard_key_selector'>): SetPayload => ({
  payload: structIn(r.payload),
  ...selectionIn(r.points_selector),
  ...opt('key', r.key),
  ...shardKeyIn(r.shard_key_selector),
});

/** One operation of UpdateBatch as the REST batch names it (the deprecated selector-only forms too). */
function batchOperationIn(o: PointsUpdateOperation__Output, i: number): UpdateOperation {
  const missing = (): never => {
    throw QuiverError.badInput(`operations[${i}]: no operation is set`);
  };
  switch (o.operation) {
    case 'upsert':
      return { upsert: upsertIn(o.upsert ?? missing()) };
    case 'delete_points':
      return { delete: { ...pointsSelectorIn(o.delete_points?.points), ...shardKeyIn(o.delete_points?.shard_key_selector) } };
    case 'delete_deprecated':
      return { delete: pointsSelectorIn(o.delete_deprecated) };
    case 'set_payload':
      return { set_payload: setPayloadIn(o.set_payload ?? missing()) };
    case 'overwrite_payload':
      return { overwrite_payload: setPayloadIn(o.overwrite_payload ?? missing()) };
    case 'delete_payload': {
      const d = o.delete_payload ?? missing();
      return { delete_payload: { keys: d.keys, ...selectionIn(d.points_selector), ...shardKeyIn(d.shard_key_selector) } };
    }
    case 'clear_payload':
      return { clear_payload: { ...selectionIn(o.clear_payload?.points), ...shardKeyIn(o.clear_payload?.shard_key_selector) } };
    case 'clear_payload_deprecated':
      return { clear_payload: selectionIn(o.clear_payload_deprecated) };
    case 'update_vectors':
      return { update_vectors: updateVectorsIn(o.update_vectors ?? missing()) };
    case 'delete_vectors':
      return { delete_vectors: deleteVectorsIn(o.delete_vectors ?? missing()) };
    default:
      return missing();
  }
}

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
    Delete: timed(log, async (r) => ({
      result: updateResultOut(
        await doDeletePoints(engine, name(r), check.selector({ ...pointsSelectorIn(r.points), ...shardKeyIn(r.shard_key_selector) }), wait(r)),
      ),
    })),
    Get: timed(log, async (r) => {
      const req = {
        ids: r.ids.map(pointIdIn),
        ...opt('with_payload', withPayloadIn(r.with_payload)),
        ...opt('with_vector', withVectorIn(r.with_vectors)),
        ...shardKeyIn(r.shard_key_selector),
      };
      return { result: (await doRetrieve(engine, name(r), check.retrieve(req))).map(retrievedPointOut) };
    }),
    UpdateVectors: timed(log, async (r) => ({
      result: updateResultOut(await doUpdateVectors(engine, name(r), check.vectors(updateVectorsIn(r)), wait(r))),
    })),
    SetPayload: timed(log, async (r) => ({
      result: updateResultOut(await doSetPayload(engine, name(r), check.setPayload(setPayloadIn(r)), wait(r))),
    })),
    OverwritePayload: timed(log, async (r) => ({
      result: updateResultOut(await doOverwritePayload(engine, name(r), check.setPayload(setPayloadIn(r)), wait(r))),
    })),
    DeletePayload: timed(log, async (r) => {
      const req = { keys: r.keys, ...selectionIn(r.points_selector), ...shardKeyIn(r.shard_key_selector) };
      return { result: updateResultOut(await doDeletePayload(engine, name(r), check.deletePayload(req), wait(r))) };
    }),
    ClearPayload: timed(log, async (r) => {
      const req = { ...selectionIn(r.points), ...shardKeyIn(r.shard_key_selector) };
      return { result: updateResultOut(await doClearPayload(engine, name(r), check.clearPayload(req), wait(r))) };
    }),
    CreateFieldIndex: timed(log, async (r) => ({
      result: updateResultOut(await doCreateIndex(engine, name(r), check.index(createIndexIn(r)), wait(r))),
    })),
    DeleteFieldIndex: timed(log, async (r) => ({ result: updateResultOut(await doDeleteIndex(engine, name(r), r.field_name ?? '', wait(r))) })),
    Search: timed(log, async (r) => ({ result: (await doSearch(engine, name(r), check.search(searchIn(r)))).map(scoredPointOut) })),
    SearchBatch: timed(log, async (r) => {
      const { searches } = check.searchBatch({ searches: r.search_points.map(searchIn) });
      return { result: (await doSearchBatch(engine, name(r), searches)).map((points) => ({ result: points.map(scoredPointOut) })) };
    }),
    Scroll: timed(log, async (r) => {
      const req = {
        ...opt('offset', r.offset && pointIdIn(r.offset)),
        ...opt('limit', r.limit),
        ...opt('filter', filterIn(r.filter)),
        ...opt('with_payload', withPayloadIn(r.with_payload)),
        ...opt('with_vector', withVectorIn(r.with_vectors)),
        ...opt('order_by', orderByRequestIn(r.order_by)),
        ...shardKeyIn(r.shard_key_selector),
      };
      const res = await doScroll(engine, name(r), check.scroll(req));
      return { result: res.points.map(retrievedPointOut), ...opt('next_page_offset', res.next_page_offset === null ? undefined : pointIdOut(res.next_page_offset)) };
    }),
    Count: timed(log, async (r) => {
      const req = { ...opt('filter', filterIn(r.filter)), ...opt('exact', r.exact), ...shardKeyIn(r.shard_key_selector) };
      return { result: await doCount(engine, name(r), check.count(req)) };
    }),
    Query: timed(log, async (r) => ({ result: (await doQuery(engine, name(r), check.query(queryIn(r)))).points.map(scoredPointOut) })),
    QueryBatch: timed(log, async (r) => {
      const { searches } = check.queryBatch({ searches: r.query_points.map(queryIn) });
      return { result: (await doQueryBatch(engine, name(r), searches)).map((b) => ({ result: b.points.map(scoredPointOut) })) };
    }),
    Facet: timed(log, async (r) => {
      const req = { key: r.key ?? '', ...opt('limit', num(r.limit)), ...opt('filter', filterIn(r.filter)), ...opt('exact', r.exact), ...shardKeyIn(r.shard_key_selector) };
      const { hits } = await doFacet(engine, name(r), check.facet(req));
      return { hits: hits.map((h) => ({ value: facetValueOut(h.value), count: h.count })) };
    }),
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
