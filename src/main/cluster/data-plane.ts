// The data plane's start-up in cluster mode (docs/cluster.md section 6), in the order server.ts needs:
// ClusterShards first (the Engine is built with it), then the internal port once the Engine
// exists (it serves the Engine's own replicas), bound before the node registers so that the
// address peers read under /quiver/nodes is one that answers. Loaded only in cluster mode.

import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { ClusterShards, type LocalShards } from '../../shared/cluster/cluster-shards.js';
import { GrpcPeers } from '../../shared/cluster/internal-client.js';
import { startInternalServer, type InternalServer } from './internal-server.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { ClusterState } from '../../shared/cluster/state.js';

export interface DataPlane {
  readonly shards: ClusterShards;
  /** Binds the internal port (cluster.port) for `local`; sets cluster.advertise's port when it was 0. */
  listen(local: LocalShards, lease: { leaseHeld(): boolean; notServingReason(): string }): Promise<InternalServer>;
  close(): Promise<void>;
}

export function openDataPlane(config: Config, state: ClusterState, log: WriteLog): DataPlane {
  const maxMessageBytes = Math.floor(config.grpc_max_message_mb * 1024 * 1024);
  const peers = new GrpcPeers(maxMessageBytes);
  const shards = new ClusterShards({ state, peers, log, lastSeq: (c, s) => log.lastSeq(c, s), hedgeMs: config.cluster.hedge_ms });
  let server: InternalServer | null = null;
  return {
    shards,
    async listen(local, lease) {
      try {
        server = await startInternalServer({
          host: config.host,
          port: config.cluster.port,
          maxMessageBytes,
          local,
          state: () => state,
          serving: () => lease.leaseHeld(),
          notServingReason: () => lease.notServingReason(),
        });
      } catch (err) {
        throw new ConfigError(`cannot listen on the internal port ${config.host}:${config.cluster.port} (SERVICE_CLUSTER_PORT): ${err instanceof Error ? err.message : String(err)}`);
      }
      // A port picked at bind (0) is the one peers must dial; an advertise set explicitly is kept.
      if (config.cluster.port === 0 && config.cluster.advertise.endsWith(':0')) config.cluster.advertise = `${config.cluster.advertise.slice(0, -2)}:${server.port}`;
      return server;
    },
    async close() {
      peers.close();
      await server?.close();
    },
  };
}
