// Qdrant's cluster API over the control plane (docs/cluster.md section 9): a collection's cluster info
// from the assignments mirrored from etcd, and the cluster operations (move_shard,
// replicate_shard, drop_replica, abort_transfer, removing a peer) as requests the controller
// serves (src/control/cluster-ops-server.ts). Single-node mode answers the info as before
// (service/collections.ts) and refuses the operations as Qdrant does without distributed mode.

import { QuiverError } from '../../shared/errors.js';
import type { ClusterOperationsBody } from '../../shared/schemas/cluster.js';
import type { ClusterRequest, ShardOp, TransferMethod } from '../../shared/cluster/cluster-ops.js';
import type { ReplicaState } from '../../shared/cluster/state.js';
import type { ClusterApi } from '../cluster/view.js';
import type { Engine } from '../engine.js';
import { doCollectionCluster, type CollectionClusterInfo } from './collections.js';

/** Qdrant's answer to a cluster operation without distributed mode. */
export const DISTRIBUTED_MODE_DISABLED = 'Bad request: Distributed mode disabled.';

/** How long an operation waits for the controller when the request names no timeout. */
export const DEFAULT_OP_TIMEOUT_SECONDS = 10;

/** GET /collections/{name}/cluster in cluster mode: Qdrant's shape, from the assignments. */
export interface ClusterModeInfo {
  peer_id: number;
  shard_count: number;
  local_shards: { shard_id: number; points_count: number; state: ReplicaState }[];
  remote_shards: { shard_id: number; peer_id: number; state: ReplicaState }[];
  shard_transfers: { shard_id: number; from: number; to: number; sync: boolean; method?: TransferMethod }[];
}

export async function doCollectionClusterInfo(engine: Engine, name: string, api: ClusterApi | undefined): Promise<CollectionClusterInfo | ClusterModeInfo> {
  if (api === undefined) return doCollectionCluster(engine, name);
  const meta = engine.collection(name);
  const state = api.state;
  if (state === null) throw new QuiverError('ShardUnavailable', 'The cluster assignments are not mirrored on this node yet');
  const shards = meta.config.shard_number;
  const local: ClusterModeInfo['local_shards'] = [];
  const remote: ClusterModeInfo['remote_shards'] = [];
  let points: Map<number, number> | null = null;
  for (let shard = 0; shard < shards; shard++) {
    for (const r of state.replicas(meta.id, shard)) {
      if (r.node !== api.nodeId) {
        remote.push({ shard_id: shard, peer_id: r.node, state: r.state });
        continue;
      }
      // Counted only when this node holds a replica: the local copies are open either way.
      points ??= await localPoints(engine, name);
      local.push({ shard_id: shard, points_count: points.get(shard) ?? 0, state: r.state });
    }
  }
  const transfers = api
    .transfers(meta.id)
    .sort((a, b) => a.shard - b.shard || a.from - b.from || a.to - b.to)
    .map((t) => ({ shard_id: t.shard, from: t.from, to: t.to, sync: t.sync, ...(t.method === null ? {} : { method: t.method }) }));
  return { peer_id: api.nodeId, shard_count: shards, local_shards: local, remote_shards: remote, shard_transfers: transfers };
}

/** Points per shard of this node's own copies (the most any copy of a shard holds). */
async function localPoints(engine: Engine, name: string): Promise<Map<number, number>> {
  const copies = await engine.copies(engine.collection(name));
  const out = new Map<number, number>();
  for (const c of copies) out.set(c.shard, Math.max(out.get(c.shard) ?? 0, c.points));
  return out;
}

const OPS = ['move_shard', 'replicate_shard', 'drop_replica', 'abort_transfer'] as const;

/** The one operation a ClusterOperations body names; 400 for none, several, or one Quiver does not serve. */
export function shardOpOf(body: ClusterOperationsBody): ShardOp {
  const named = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
  const unsupported = named.filter((k) => !(OPS as readonly string[]).includes(k));
  if (unsupported.length > 0) throw QuiverError.badInput(`Unsupported cluster operation: ${unsupported.join(', ')} (Quiver serves ${OPS.join(', ')})`);
  if (named.length !== 1) throw QuiverError.badInput(`The body must name exactly one cluster operation (${OPS.join(', ')}); it names ${named.length === 0 ? 'none' : named.join(', ')}`);
  if (body.move_shard !== undefined || body.replicate_shard !== undefined) {
    const kind = body.move_shard !== undefined ? 'move_shard' : 'replicate_shard';
    const b = body.move_shard ?? body.replicate_shard;
    if (b === undefined) throw QuiverError.internal('unreachable');
    if (b.to_shard_id !== undefined && b.to_shard_id !== null && b.to_shard_id !== b.shard_id) throw QuiverError.badInput('to_shard_id is for resharding, which Quiver does not do');
    if (b.method === 'resharding_stream_records') throw QuiverError.badInput('The resharding_stream_records method is for resharding, which Quiver does not do');
    return { kind, shard: b.shard_id, from: b.from_peer_id, to: b.to_peer_id, method: b.method ?? null };
  }
  if (body.drop_replica !== undefined) return { kind: 'drop_replica', shard: body.drop_replica.shard_id, peer: body.drop_replica.peer_id };
  const a = body.abort_transfer;
  if (a === undefined) throw QuiverError.internal('unreachable');
  return { kind: 'abort_transfer', shard: a.shard_id, from: a.from_peer_id, to: a.to_peer_id };
}

async function ask(api: ClusterApi, request: ClusterRequest, timeoutSeconds: number | undefined): Promise<true> {
  const r = await api.clusterRequest(request, (timeoutSeconds ?? DEFAULT_OP_TIMEOUT_SECONDS) * 1000);
  if (r.ok) return true;
  throw new QuiverError(r.code, r.message);
}

/** POST /collections/{name}/cluster (and gRPC UpdateCollectionClusterSetup): true once the controller applied it. */
export async function doUpdateCollectionCluster(engine: Engine, name: string, body: ClusterOperationsBody, timeoutSeconds: number | undefined, api: ClusterApi | undefined): Promise<true> {
  const meta = engine.collection(name);
  const op = shardOpOf(body);
  if (api === undefined) throw QuiverError.badInput(DISTRIBUTED_MODE_DISABLED);
  if (op.shard >= meta.config.shard_number) throw QuiverError.notFound(`Shard ${op.shard} of collection ${name} does not exist (it has ${meta.config.shard_number})`);
  if (op.kind !== 'drop_replica' && op.from === op.to) throw QuiverError.badInput(`Source and target peers must differ: both are ${op.from}`);
  return ask(api, { type: 'shard', collectionId: meta.id, collection: name, shardCount: meta.config.shard_number, op }, timeoutSeconds);
}

/** DELETE /cluster/peer/{peer_id}: drains the peer (or drops its replicas with force), then removes it. */
export async function doRemovePeer(peer: number, force: boolean, timeoutSeconds: number | undefined, api: ClusterApi | undefined): Promise<true> {
  if (api === undefined) throw QuiverError.badInput(DISTRIBUTED_MODE_DISABLED);
  return ask(api, { type: 'remove_peer', peer, force }, timeoutSeconds);
}
