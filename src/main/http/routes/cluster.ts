// Qdrant's cluster API: GET /cluster (the cluster status), a collection's cluster info and
// operations (GET/POST /collections/{name}/cluster) and DELETE /cluster/peer/{peer_id}.
// Single-node mode answers `{status: "disabled"}`, the local copies' info, and refuses the
// operations as Qdrant does without distributed mode; cluster mode answers from this node's view
// of the control plane (src/main/cluster/, service/cluster.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { ClusterView } from '../../cluster/view.js';
import type { Engine } from '../../engine.js';
import { CollectionNameParams } from '../../../shared/schemas/common.js';
import { ClusterOperations, ClusterTimeoutQuery, PeerParams, RemovePeerQuery } from '../../../shared/schemas/cluster.js';
import { doCollectionClusterInfo, doRemovePeer, doUpdateCollectionCluster } from '../../service/cluster.js';
import { ok } from '../../../shared/envelope.js';
import { doClusterTelemetry } from '../../service/cluster-telemetry.js';

/** Qdrant's query of GET /cluster/telemetry: read, and answered the same (every detail is cheap here). */
const ClusterTelemetryQuery = Type.Object({ details_level: Type.Optional(Type.Integer({ minimum: 0 })), timeout: Type.Optional(Type.Integer({ minimum: 1 })) });

const PeerInfoOut = Type.Object({ uri: Type.String() });
const MessageSendErrorsOut = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  latest_error: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  latest_error_timestamp: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** Qdrant's ClusterStatus: disabled, or enabled with peers, raft info and the consensus thread's state. */
export const ClusterStatusOut = Type.Union([
  Type.Object({ status: Type.Literal('disabled') }),
  Type.Object({
    status: Type.Literal('enabled'),
    peer_id: Type.Integer({ minimum: 0, description: 'ID of this peer (kept in the data dir)' }),
    peers: Type.Record(Type.String(), PeerInfoOut, { description: 'Live nodes, from their etcd leases' }),
    raft_info: Type.Object({
      term: Type.Integer({ minimum: 0, description: "etcd's raft term" }),
      commit: Type.Integer({ minimum: 0, description: "etcd's revision last seen" }),
      pending_operations: Type.Integer({ minimum: 0 }),
      leader: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'The controller node' }),
      role: Type.Union([Type.Literal('Leader'), Type.Literal('Follower'), Type.Null()]),
      is_voter: Type.Boolean(),
    }),
    consensus_thread_status: Type.Union([
      Type.Object({ consensus_thread_status: Type.Literal('working'), last_update: Type.String({ format: 'date-time' }) }),
      Type.Object({ consensus_thread_status: Type.Literal('stopped_with_err'), err: Type.String() }),
    ]),
    message_send_failures: Type.Record(Type.String(), MessageSendErrorsOut),
  }),
]);

export const clusterRoutes: FastifyPluginAsyncTypebox<{ cluster: ClusterView | null; engine: Engine }> = async (app, { cluster, engine }) => {
  const api = cluster?.api;
  const params = CollectionNameParams;
  app.get('/cluster', async (req) => ok(cluster === null ? { status: 'disabled' as const } : cluster.status(), req.t0));
  app.get('/cluster/telemetry', { schema: { querystring: ClusterTelemetryQuery } }, async (req) => ok(await doClusterTelemetry(engine, cluster), req.t0));
  app.get('/collections/:collection_name/cluster', { schema: { params } }, async (req) =>
    ok(await doCollectionClusterInfo(engine, req.params.collection_name, api), req.t0),
  );
  app.post('/collections/:collection_name/cluster', { schema: { params, querystring: ClusterTimeoutQuery, body: ClusterOperations } }, async (req) =>
    ok(await doUpdateCollectionCluster(engine, req.params.collection_name, req.body, req.query.timeout, api), req.t0),
  );
  app.delete('/cluster/peer/:peer_id', { schema: { params: PeerParams, querystring: RemovePeerQuery } }, async (req) =>
    ok(await doRemovePeer(req.params.peer_id, req.query.force ?? false, req.query.timeout, api), req.t0),
  );
};
