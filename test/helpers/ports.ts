// Loopback ports for the engines the tests start (nats-server, etcd) and for servers given one.
//
// A port is picked below the kernel's ephemeral range (ip_local_port_range): a port taken from
// that range and released is handed out again by the next listen(0) or outgoing connection of any
// process, and test servers bind REST, gRPC and internal ports with 0 all the time, so a picked
// port was taken before its owner bound it (EADDRINUSE in CI). Below the range only another
// picker can take it. Pickers in different test files running at once (vitest's workers) pick
// from disjoint slices of the range, by VITEST_POOL_ID: two of them once picked one port within
// the same second, and the nats-server started second could not bind it. Within a process, a
// port is handed out once.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32768;
  } catch {
    return 32768;
  }
}

/** Slices of the range: one per vitest worker (ids beyond it share slices, still at random). */
const SLICES = 8;
const FLOOR = 10_000;
const CEILING = Math.min(ephemeralLow(), 65536) - 1;
const POOL = Number(process.env.VITEST_POOL_ID);
const SLICE = Number.isInteger(POOL) && POOL > 0 ? (POOL - 1) % SLICES : null;
const WIDTH = Math.floor((CEILING - FLOOR + 1) / SLICES);
const LOW = SLICE === null ? FLOOR : FLOOR + SLICE * WIDTH;
const HIGH = SLICE === null ? CEILING : LOW + WIDTH - 1;
/** Ports this process handed out: a picker's port may not be bound yet when the next is picked. */
const handedOut = new Set<number>();

/** Listens on `port` (0: any) and closes again: the port it got, or null when it is in use. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(null) : reject(e)));
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      const got = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(got));
    });
  });
}

/** A loopback port nobody listens on now, outside the ephemeral range (see the file comment). */
export async function freePort(): Promise<number> {
  if (HIGH - LOW >= 1000) {
    for (let i = 0; i < 100; i++) {
      const pick = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
      if (handedOut.has(pick)) continue;
      const p = await tryPort(pick);
      if (p === null) continue;
      handedOut.add(p);
      return p;
    }
  }
  // No room below the range (or every try taken): the kernel's pick.
  const p = await tryPort(0);
  if (p === null) throw new Error('no free loopback port');
  return p;
}

/** `n` distinct free loopback ports. */
export async function freePorts(n: number): Promise<number[]> {
  const taken = new Set<number>();
  while (taken.size < n) taken.add(await freePort());
  return [...taken];
}
