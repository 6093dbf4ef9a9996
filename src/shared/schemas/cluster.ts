// Qdrant's collection cluster operations (POST /collections/{name}/cluster, ClusterOperations in
// the OpenAPI document) and DELETE /cluster/peer/{peer_id}'s query. Quiver serves four of the
// operations; the body names exactly one of them (the service says which others are unsupported).

import Type, { type Static } from 'typebox';

const ShardId = Type.Integer({ minimum: 0, maximum: 4_294_967_295, description: 'Shard id' });
const PeerId = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Peer (node) id, as GET /cluster lists it' });

const Method = Type.Union([Type.Literal('stream_records'), Type.Literal('snapshot'), Type.Literal('wal_delta'), Type.Literal('resharding_stream_records'), Type.Null()], {
  description: 'Accepted and shown in shard_transfers; every Quiver transfer catches up from the shard log',
});

export const ShardTransferBody = Type.Object(
  { shard_id: ShardId, from_peer_id: PeerId, to_peer_id: PeerId, method: Type.Optional(Method), to_shard_id: Type.Optional(Type.Union([ShardId, Type.Null()])) },
  { additionalProperties: false },
);
export const ReplicaBody = Type.Object({ shard_id: ShardId, peer_id: PeerId }, { additionalProperties: false });
export const AbortTransferBody = Type.Object(
  { shard_id: ShardId, from_peer_id: PeerId, to_peer_id: PeerId, to_shard_id: Type.Optional(Type.Union([ShardId, Type.Null()])) },
  { additionalProperties: false },
);

export const ClusterOperations = Type.Object(
  {
    move_shard: Type.Optional(ShardTransferBody),
    replicate_shard: Type.Optional(ShardTransferBody),
    drop_replica: Type.Optional(ReplicaBody),
    abort_transfer: Type.Optional(AbortTransferBody),
  },
  { additionalProperties: true, description: 'Exactly one of move_shard, replicate_shard, drop_replica, abort_transfer' },
);
export type ClusterOperationsBody = Static<typeof ClusterOperations>;

export const ClusterTimeoutQuery = Type.Object({ timeout: Type.Optional(Type.Integer({ minimum: 1 })) });

export const PeerParams = Type.Object({ peer_id: PeerId });
export const RemovePeerQuery = Type.Object({ timeout: Type.Optional(Type.Integer({ minimum: 1 })), force: Type.Optional(Type.Boolean({ default: false })) });
