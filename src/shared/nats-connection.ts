// How every NATS connection of a Quiver process is opened (cluster mode: the shard log, the
// workers' apply loops, the snapshot store), so they all notice a dead or frozen server alike.
//
// Why the pings: a nats-server that stops answering without closing its sockets (SIGSTOP, a VM
// pause, a half-open TCP path) leaves the client waiting on a connection that looks up. The client
// only finds out when pings go unanswered, and its default is one ping every 2 minutes: every
// write and every consumer on that connection stalled for the whole pause. One ping a second with
// two outstanding allowed drops such a connection after about 3 s; the client then reconnects to
// another server of the cluster (it learns them all from the one it reaches first).

import { connect, type NatsConnection } from '@nats-io/transport-node';

/** Between two pings, and how many may go unanswered before the connection is dropped. */
export const NATS_PING_INTERVAL_MS = 1000;
export const NATS_MAX_PINGS_OUT = 2;

/** Connects to one of `servers`; reconnects forever once up (a NATS restart must not end this node's work). */
export function connectNats(servers: string[], timeoutMs: number): Promise<NatsConnection> {
  return connect({
    servers,
    timeout: timeoutMs,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: NATS_PING_INTERVAL_MS,
    maxPingOut: NATS_MAX_PINGS_OUT,
  });
}

/** A change of a connection's server worth an operator's eye: which server was dropped or taken. */
export interface ConnectionEvent {
  type: 'disconnect' | 'reconnect' | 'staleConnection';
  server: string;
}

/**
 * Calls `report` for every disconnect, stale connection (pings unanswered) and reconnect of `nc`,
 * until it closes: the server a process writes through is otherwise invisible in its logs.
 */
export async function watchConnection(nc: NatsConnection, report: (e: ConnectionEvent) => void): Promise<void> {
  for await (const st of nc.status()) {
    if (st.type === 'disconnect' || st.type === 'reconnect') report({ type: st.type, server: st.server });
    else if (st.type === 'staleConnection') report({ type: st.type, server: nc.getServer() });
  }
}
