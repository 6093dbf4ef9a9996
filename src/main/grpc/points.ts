// Service `qdrant.Points`, the part the main thread serves itself: field index and vector name
// changes (they change the catalog, which this thread owns: src/shared/point-ops.ts) and the methods Quiver
// does not offer. Every other method is a point operation, handed off to a coordinating worker
// undecoded (handoff.ts) and run there (src/workers/coordinator/grpc-point-calls.ts).

import { CollectionNameParams } from '../../shared/schemas/common.js';
import { CreateFieldIndex } from '../../shared/schemas/payload.js';
import type { GrpcHandoffMethod } from '../../shared/point-ops.js';
import { doCreateIndex, doDeleteIndex } from '../service/indexes.js';
import { updateResultOut } from '../../shared/grpc/messages/points.js';
import { createIndexIn, vectorNameIn } from './messages/collections.js';
import { VectorNameConfig } from '../../shared/schemas/collections.js';
import { doCreateVectorName, doDeleteVectorName } from '../service/vector-names.js';
import { schemaCheck } from '../../shared/grpc/messages/common.js';
import type { PointsHandlers } from '../../shared/grpc/generated/qdrant/Points.js';
import { timed, unimplemented, type GrpcContext } from './unary.js';

export function pointHandlers({ engine, log }: GrpcContext): Omit<PointsHandlers, GrpcHandoffMethod> {
  const checkName = schemaCheck(CollectionNameParams);
  const name = (r: { collection_name?: string }): string => checkName({ collection_name: r.collection_name ?? '' }).collection_name;
  const wait = (r: { wait?: boolean }): boolean => r.wait === true;
  const checkIndex = schemaCheck(CreateFieldIndex);
  const checkVectorName = schemaCheck(VectorNameConfig);
  return {
    CreateFieldIndex: timed(log, async (r) => ({
      result: updateResultOut(await doCreateIndex(engine, name(r), checkIndex(createIndexIn(r)), wait(r))),
    })),
    DeleteFieldIndex: timed(log, async (r) => ({ result: updateResultOut(await doDeleteIndex(engine, name(r), r.field_name ?? '', wait(r))) })),
    CreateVectorName: timed(log, async (r) => ({
      result: updateResultOut(await doCreateVectorName(engine, name(r), r.vector_name ?? '', checkVectorName(vectorNameIn(r)), wait(r))),
    })),
    DeleteVectorName: timed(log, async (r) => ({ result: updateResultOut(await doDeleteVectorName(engine, name(r), r.vector_name ?? '', wait(r))) })),
    SearchGroups: unimplemented(log, 'Grouped search'),
    Recommend: unimplemented(log, 'Recommendations'),
    RecommendBatch: unimplemented(log, 'Recommendations'),
    RecommendGroups: unimplemented(log, 'Recommendations'),
    Discover: unimplemented(log, 'Discovery'),
    DiscoverBatch: unimplemented(log, 'Discovery'),
    QueryGroups: unimplemented(log, 'Grouped query'),
  };
}
