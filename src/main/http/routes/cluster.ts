// GET /cluster: Qdrant's cluster status. Single-node mode answers `{status: "disabled"}` as
// Qdrant does without a cluster; cluster mode answers this node's view (src/main/cluster/).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { ClusterView } from '../../cluster/view.js';
import { ok } from '../envelope.js';

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

export const clusterRoutes: FastifyPluginAsyncTypebox<{ cluster: ClusterView | null }> = async (app, { cluster }) => {
  app.get('/cluster', async (req) => ok(cluster === null ? { status: 'disabled' as const } : cluster.status(), req.t0));
};
