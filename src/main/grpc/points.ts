// Service `qdrant.Points`: each handler converts the message to the REST request shape, checks it
// with the REST route's schema, calls the same do* function as REST, and converts the result.
// The hot methods (GRPC_HANDOFF_METHODS) are not here: they are handed off to the coordinating
// workers undecoded (handoff.ts) and run there by point-calls.ts.

import { UpdateOperations } from '../../shared/schemas/batch.js';
import { CollectionNameParams } from '../../shared/schemas/common.js';
import { ClearPayload, CreateFieldIndex, DeletePayload, SetPayload } from '../../shared/schemas/payload.js';
import type { GrpcHandoffMethod } from '../../shared/protocol.js';
import { DeleteVectors, FacetRequest, PointsSelector, UpdateVectors } from '../../shared/schemas/points.js';
import { doBatchUpdate } from '../../workers/service/batch.js';
import { doFacet } from '../../workers/service/facet.js';
import { engineAt, grpcReadLevel } from '../../shared/read-consistency.js';
import { doCreateIndex, doDeleteIndex } from '../service/indexes.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../../workers/service/payload.js';
import { doDeletePoints, doUpdateVectors } from '../../workers/service/points.js';
import { doDeleteVectors } from '../../workers/service/vectors.js';
import {
  batchOperationIn,
  clearPayloadIn,
  deletePayloadIn,
  deletePointsIn,
  deleteVectorsIn,
  facetHitOut,
  facetIn,
  setPayloadIn,
  updateResultOut,
  updateVectorsIn,
} from '../../shared/grpc/messages/points.js';
import { createIndexIn } from './messages/collections.js';
import { schemaCheck } from '../../shared/grpc/messages/common.js';
import type { PointsHandlers } from '../../shared/grpc/generated/qdrant/Points.js';
import { timed, unimplemented, type GrpcContext } from './unary.js';

export function pointHandlers({ engine, log }: GrpcContext): Omit<PointsHandlers, GrpcHandoffMethod> {
  const checkName = schemaCheck(CollectionNameParams);
  const name = (r: { collection_name?: string }): string => checkName({ collection_name: r.collection_name ?? '' }).collection_name;
  const wait = (r: { wait?: boolean }): boolean => r.wait === true;
  const check = {
    selector: schemaCheck(PointsSelector),
    vectors: schemaCheck(UpdateVectors),
    deleteVectors: schemaCheck(DeleteVectors),
    setPayload: schemaCheck(SetPayload),
    deletePayload: schemaCheck(DeletePayload),
    clearPayload: schemaCheck(ClearPayload),
    index: schemaCheck(CreateFieldIndex),
    batch: schemaCheck(UpdateOperations),
    facet: schemaCheck(FacetRequest),
  };
  return {
    Delete: timed(log, async (r) => ({ result: updateResultOut(await doDeletePoints(engine, name(r), check.selector(deletePointsIn(r)), wait(r))) })),
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
    // read_consistency reads at the log's end in cluster mode (read-consistency.ts).
    Facet: timed(log, async (r) => ({ hits: (await doFacet(engineAt(engine, () => grpcReadLevel(r.read_consistency)), name(r), check.facet(facetIn(r)))).hits.map(facetHitOut) })),
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
