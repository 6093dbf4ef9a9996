// The data plane's start-up in cluster mode (docs/cluster.md section 6), in the order server.ts
// needs: ClusterShards first (the Engine's own point engine is built with it: what in-process
// callers use; point requests are coordinated in the workers, each with its own), then the
// internal port, bound before the node registers so that the address peers read under
// /quiver/nodes is one that answers. The internal port is served by worker 0, which binds it as it
// starts, before its shards load (src/workers/cluster/internal-port.ts): peers' calls never reach
// this thread. Loaded only in cluster mode.

import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { ClusterShards } from '../../shared/cluster/cluster-shards.js';
import { InternalPeers } from '../../shared/cluster/internal-client.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { ClusterState } from '../../shared/cluster/state.js';
import { INTERNAL_PORT, INTERNAL_PORT_STATE } from '../../shared/protocol.js';
import { internalTlsFiles } from '../../shared/tls.js';

/** How long start-up waits for worker 0 to bind the internal port (it binds before loading shards). */
const BIND_WAIT_MS = 30_000;

/** Resolves with the port worker 0 bound (InternalPortInit.bound), or rejects with why not. */
async function boundPort(bound: SharedArrayBuffer): Promise<number> {
  const b = new Int32Array(bound);
  const deadline = Date.now() + BIND_WAIT_MS;
  for (;;) {
    const state = Atomics.load(b, INTERNAL_PORT.state);
    if (state === INTERNAL_PORT_STATE.listening) return Atomics.load(b, INTERNAL_PORT.port);
    if (state === INTERNAL_PORT_STATE.failed) throw new Error("worker 0 could not bind it (its log line 'cannot listen on the internal port' says why)");
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`worker 0 did not bind it within ${BIND_WAIT_MS / 1000} s`);
    // Polled: worker 0 binds within milliseconds of starting, and this runs once per start.
    await new Promise((res) => setTimeout(res, Math.min(20, left)));
  }
}

export interface DataPlane {
  readonly shards: ClusterShards;
  /** Waits for worker 0 to bind the internal port (cluster.port); sets cluster.advertise's port when it was 0. */
  listen(bound: SharedArrayBuffer): Promise<{ port: number }>;
  close(): Promise<void>;
}

export function openDataPlane(config: Config, state: ClusterState, log: WriteLog): DataPlane {
  const maxMessageBytes = Math.floor(config.grpc_max_message_mb * 1024 * 1024);
  const peers = new InternalPeers(maxMessageBytes, internalTlsFiles(config) ?? undefined);
  const shards = new ClusterShards({ state, peers, log, lastSeq: (c, s) => log.lastSeq(c, s), hedgeMs: config.cluster.hedge_ms });
  return {
    shards,
    async listen(bound) {
      let port: number;
      try {
        port = await boundPort(bound);
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
