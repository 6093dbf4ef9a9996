// The data plane's start-up in cluster mode (docs/cluster.md section 6), in the order server.ts
// needs: ClusterShards first (the Engine's own point engine is built with it: what in-process
// callers use; point requests are coordinated in the workers, each with its own), then the
// internal port, bound before the node registers so that the address peers read under
// /quiver/nodes is one that answers. The internal port is served by worker 0
// (src/workers/cluster/internal-server.ts): peers' calls never reach this thread. Loaded only in
// cluster mode.

import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { ClusterShards } from '../../shared/cluster/cluster-shards.js';
import { GrpcPeers } from '../../shared/cluster/internal-client.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { ClusterState } from '../../shared/cluster/state.js';

/** Who serves the internal port (the dispatcher: its worker 0). */
export interface InternalPortHost {
  listenInternal(opts: { host: string; port: number; maxMessageBytes: number; leaseExpiry: SharedArrayBuffer }): Promise<number>;
}

export interface DataPlane {
  readonly shards: ClusterShards;
  /** Binds the internal port (cluster.port) in a worker; sets cluster.advertise's port when it was 0. */
  listen(leaseExpiry: SharedArrayBuffer): Promise<{ port: number }>;
  close(): Promise<void>;
}

export function openDataPlane(config: Config, state: ClusterState, log: WriteLog, host: InternalPortHost): DataPlane {
  const maxMessageBytes = Math.floor(config.grpc_max_message_mb * 1024 * 1024);
  const peers = new GrpcPeers(maxMessageBytes);
  const shards = new ClusterShards({ state, peers, log, lastSeq: (c, s) => log.lastSeq(c, s), hedgeMs: config.cluster.hedge_ms });
  return {
    shards,
    async listen(leaseExpiry) {
      let port: number;
      try {
        port = await host.listenInternal({ host: config.host, port: config.cluster.port, maxMessageBytes, leaseExpiry });
      } catch (err) {
        throw new ConfigError(`cannot listen on the internal port ${config.host}:${config.cluster.port} (SERVICE_CLUSTER_PORT): ${err instanceof Error ? err.message : String(err)}`);
      }
      // A port picked at bind (0) is the one peers must dial; an advertise set explicitly is kept.
      if (config.cluster.port === 0 && config.cluster.advertise.endsWith(':0')) config.cluster.advertise = `${config.cluster.advertise.slice(0, -2)}:${port}`;
      return { port };
    },
    async close() {
      // The internal port closes with its worker (the dispatcher's close).
      peers.close();
    },
  };
}
