// GET /cluster/telemetry (Qdrant's DistributedTelemetryData): every collection's shards with
// their replicas (peer, state, points where this node holds the copy), its transfers in cluster
// mode, and the cluster's peers. Single node: every replica is peer 0's, and the cluster part
// says it is disabled. From the same views as GET /collections/{name}/cluster and GET /cluster.

import type { ClusterView } from '../cluster/view.js';
import type { Engine } from '../engine.js';
import { doCollectionClusterInfo } from './cluster.js';

interface ReplicaOut {
  peer_id: number;
  state: string;
  num_points?: number;
}

export interface ClusterTelemetryOut {
  collections: Record<string, { id: string; shards: { id: number; replicas: ReplicaOut[] }[]; shard_transfers?: unknown[] }>;
  cluster: { enabled: boolean; number_of_peers?: number; peers: Record<string, { uri: string; responsive: boolean }> };
}

export async function doClusterTelemetry(engine: Engine, cluster: ClusterView | null): Promise<ClusterTelemetryOut> {
  const collections: ClusterTelemetryOut['collections'] = {};
  for (const meta of engine.list()) {
    const info = await doCollectionClusterInfo(engine, meta.name, cluster?.api);
    const shards = new Map<number, ReplicaOut[]>();
    const add = (shard: number, r: ReplicaOut): void => {
      shards.set(shard, [...(shards.get(shard) ?? []), r]);
    };
    for (const s of info.local_shards) add(s.shard_id, { peer_id: info.peer_id, state: s.state, num_points: s.points_count });
    for (const s of info.remote_shards) add(s.shard_id, { peer_id: s.peer_id, state: s.state });
    collections[meta.name] = {
      id: meta.name,
      shards: [...shards].sort(([a], [b]) => a - b).map(([id, replicas]) => ({ id, replicas })),
      ...(cluster === null ? {} : { shard_transfers: info.shard_transfers }),
    };
  }
  if (cluster === null) return { collections, cluster: { enabled: false, peers: {} } };
  const status = cluster.status();
  const peers: ClusterTelemetryOut['cluster']['peers'] = {};
  for (const [id, p] of Object.entries(status.peers)) peers[id] = { uri: p.uri, responsive: true };
  return { collections, cluster: { enabled: true, number_of_peers: Object.keys(peers).length, peers } };
}
