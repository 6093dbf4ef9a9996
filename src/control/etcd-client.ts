// The etcd thread's pooled client (every etcd call of a node but the lease's own keep-alives).
//
// Its reads end at a deadline: one that lands on a frozen member (its socket open, never
// answering) fails there, and etcd3's retry moves it to another member instead of hanging until
// the member wakes. Only reads: etcd3 retries a call that ran out of time, and a write committed
// just past its deadline, sent again, would fail its own compare (a create answered "exists").
// Writes and streams (watches, keep-alives) have no deadline; watch-guard.ts looks after watches.

import { Etcd3 } from 'etcd3';

/** The deadline of one read: half the lease, at least 2 s (a busy 2-core machine is slow). */
function callDeadlineMs(leaseSeconds: number): number {
  return Math.max(2000, leaseSeconds * 500);
}

export function pooledEtcd(endpoints: string[], dialTimeoutMs: number, leaseSeconds: number): Etcd3 {
  const deadline = callDeadlineMs(leaseSeconds);
  return new Etcd3({
    hosts: endpoints,
    dialTimeout: dialTimeoutMs,
    defaultCallOptions: (ctx) => (!ctx.isStream && ctx.service === 'KV' && ctx.method === 'range' ? { deadline: Date.now() + deadline } : {}),
  });
}
