// Original file: proto/collections.proto

import type { LocalShardInfo as _qdrant_LocalShardInfo, LocalShardInfo__Output as _qdrant_LocalShardInfo__Output } from '../qdrant/LocalShardInfo.js';
import type { RemoteShardInfo as _qdrant_RemoteShardInfo, RemoteShardInfo__Output as _qdrant_RemoteShardInfo__Output } from '../qdrant/RemoteShardInfo.js';
import type { ShardTransferInfo as _qdrant_ShardTransferInfo, ShardTransferInfo__Output as _qdrant_ShardTransferInfo__Output } from '../qdrant/ShardTransferInfo.js';
import type { Long } from '@grpc/proto-loader';

export interface CollectionClusterInfoResponse {
  'peer_id'?: (number | string | Long);
  'shard_count'?: (number | string | Long);
  'local_shards'?: (_qdrant_LocalShardInfo)[];
  'remote_shards'?: (_qdrant_RemoteShardInfo)[];
  'shard_transfers'?: (_qdrant_ShardTransferInfo)[];
  'time'?: (number | string);
}

export interface CollectionClusterInfoResponse__Output {
  'peer_id'?: (string);
  'shard_count'?: (string);
  'local_shards': (_qdrant_LocalShardInfo__Output)[];
  'remote_shards': (_qdrant_RemoteShardInfo__Output)[];
  'shard_transfers': (_qdrant_ShardTransferInfo__Output)[];
  'time'?: (number);
}
