// Service `qdrant.Collections`: each handler converts the message to the REST request shape,
// checks it with the REST route's schema, calls the same do* function as REST, and converts back.

import { CollectionNameParams } from '../../shared/schemas/common.js';
import { CreateCollection, UpdateCollection } from '../../shared/schemas/collections.js';
import { ClusterOperations } from '../../shared/schemas/cluster.js';
import { doCollectionClusterInfo, doUpdateCollectionCluster } from '../service/cluster.js';
import {
  doCollectionExists,
  doCreateCollection,
  doDeleteCollection,
  doGetCollection,
  doListCollections,
  doUpdateCollection,
} from '../service/collections.js';
import { collectionNameError } from '../../shared/validation.js';
import { clusterInfoOut, clusterSetupIn, collectionInfoOut, createCollectionIn, updateCollectionIn } from './messages/collections.js';
import { schemaCheck } from '../../shared/grpc/messages/common.js';
import type { CollectionsHandlers } from '../../shared/grpc/generated/qdrant/Collections.js';
import { timed, toStatus, unimplemented, type GrpcContext } from './unary.js';
import { visibleTo } from '../auth/authorize.js';

export function collectionHandlers({ engine, log, cluster, auth }: GrpcContext): CollectionsHandlers {
  const checkName = schemaCheck(CollectionNameParams);
  const name = (r: { collection_name?: string }): string => checkName({ collection_name: r.collection_name ?? '' }).collection_name;
  // A new name is also checked for forbidden characters, worded for gRPC before the service's REST wording.
  const newName = (r: { collection_name?: string }): string => {
    const n = name(r);
    const bad = collectionNameError(n, 'grpc');
    if (bad !== undefined) throw bad;
    return n;
  };
  const create = schemaCheck(CreateCollection);
  const update = schemaCheck(UpdateCollection);
  const clusterOps = schemaCheck(ClusterOperations);
  return {
    Get: timed(log, async (r) => ({ result: collectionInfoOut(await doGetCollection(engine, name(r))) })),
    // A scoped credential sees the collections it may read: who the call is, again (admission's context stays in the interceptor).
    List: (call, callback) => {
      const seen = auth === undefined ? Promise.resolve(() => true) : auth.guard('list', (n) => call.metadata.get(n)[0]?.toString(), null).then(visibleTo);
      void seen.then(
        (visible) => timed(log, async () => doListCollections(engine, visible))(call, callback),
        (err: unknown) => callback(toStatus(err, call.getPath(), log)),
      );
    },
    Create: timed(log, async (r) => ({ result: await doCreateCollection(engine, newName(r), create(createCollectionIn(r))) })),
    Update: timed(log, async (r) => ({ result: await doUpdateCollection(engine, name(r), update(updateCollectionIn(r))) })),
    Delete: timed(log, async (r) => ({ result: await doDeleteCollection(engine, name(r)) })),
    CollectionExists: timed(log, async (r) => ({ result: doCollectionExists(engine, name(r)) })),
    CollectionClusterInfo: timed(log, async (r) => clusterInfoOut(await doCollectionClusterInfo(engine, name(r), cluster))),
    UpdateAliases: unimplemented(log, 'Aliases'),
    ListAliases: unimplemented(log, 'Aliases'),
    ListCollectionAliases: unimplemented(log, 'Aliases'),
    UpdateCollectionClusterSetup: timed(log, async (r) => {
      const { body, timeout } = clusterSetupIn(r);
      return { result: await doUpdateCollectionCluster(engine, name(r), clusterOps(body), timeout, cluster) };
    }),
    CreateShardKey: unimplemented(log, 'Shard keys'),
    DeleteShardKey: unimplemented(log, 'Shard keys'),
    ListShardKeys: unimplemented(log, 'Shard keys'),
  };
}
