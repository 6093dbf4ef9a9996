// Worker 0's internal port in cluster mode (docs/request-path.md, "Cluster mode, across nodes"):
// bound as the thread starts, before its shards load, so the main thread can register the node at
// once (peers read its address under /quiver/nodes); until the coordinator's engine is ready,
// every call answers ShardUnavailable ("still loading") and peers ask another replica. A thread
// that replaces worker 0 binds the port its predecessor bound (a port picked at bind stays the
// one peers know).
//
// Invariants: the port and the outcome are written to InternalPortInit.bound before the main
// thread is notified; calls are refused while the lease in `leaseExpiry` has lapsed, as the main
// thread's gates refuse REST and gRPC.

import { nowMs } from '../../shared/cluster/messages.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import type { ClusterStateView } from '../../shared/cluster/state-view.js';
import { QuiverError } from '../../shared/errors.js';
import { INTERNAL_PORT, INTERNAL_PORT_STATE, type InternalPortInit } from '../../shared/protocol.js';
import { startInternalServer } from './internal-server.js';
import { workerLog } from '../stdout-log.js';
import type { TlsFiles } from '../../shared/tls.js';

const LOADING = 'This node is still loading its shards';
const LAPSED = 'This node is not serving: its cluster lease has lapsed';


export interface InternalPort {
  /** Serves this node's replicas from now on (the coordinator's engine is ready). */
  serve(local: LocalShards, state: ClusterStateView): void;
}

/** Binds the internal port and reports it in `init.bound`; a failure is reported there too, and logged. */
export async function serveInternalPort(init: InternalPortInit, maxMessageBytes: number, tls: Required<TlsFiles> | undefined): Promise<InternalPort | null> {
  const bound = new Int32Array(init.bound);
  const expiry = new BigInt64Array(init.leaseExpiry);
  let target: { local: LocalShards; state: ClusterStateView } | null = null;
  const local: LocalShards = {
    call: (c, s, req) => (target === null ? Promise.reject(new QuiverError('ShardUnavailable', LOADING)) : target.local.call(c, s, req)),
    awaitApplied: (c, s, seq, ms) => (target === null ? Promise.reject(new QuiverError('ShardUnavailable', LOADING)) : target.local.awaitApplied(c, s, seq, ms)),
  };
  // The port a predecessor bound, else the configured one (0: any).
  const port = Atomics.load(bound, INTERNAL_PORT.port) || init.port;
  try {
    const server = await startInternalServer({
      host: init.host,
      port,
      maxMessageBytes,
      local,
      state: () => (target !== null && target.state.known ? target.state : null),
      serving: () => Number(Atomics.load(expiry, 0)) > nowMs(),
      notServingReason: () => target?.state.notServingReason ?? LAPSED,
      ...(tls === undefined ? {} : { tls }),
    });
    Atomics.store(bound, INTERNAL_PORT.port, server.port);
    Atomics.store(bound, INTERNAL_PORT.state, INTERNAL_PORT_STATE.listening);
    Atomics.notify(bound, INTERNAL_PORT.state);
    return { serve: (l, state) => void (target = { local: l, state }) };
  } catch (err) {
    workerLog('error', { host: init.host, port, err: err instanceof Error ? err.message : String(err) }, 'cannot listen on the internal port');
    Atomics.store(bound, INTERNAL_PORT.state, INTERNAL_PORT_STATE.failed);
    Atomics.notify(bound, INTERNAL_PORT.state);
    return null;
  }
}
