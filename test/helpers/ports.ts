// Loopback ports for the engines the tests start (nats-server, etcd) and for servers given one.
//
// A port is picked below the kernel's ephemeral range (ip_local_port_range): a port taken from
// that range and released is handed out again by the next listen(0) or outgoing connection of any
// process, and test servers bind REST, gRPC and internal ports with 0 all the time, so a picked
// port was taken before its owner bound it (EADDRINUSE in CI). Below the range only another
// picker can take it, and each one picks at random among thousands.

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

const LOW = 10_000;
const HIGH = Math.min(ephemeralLow(), 65536) - 1;

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
      const p = await tryPort(LOW + Math.floor(Math.random() * (HIGH - LOW + 1)));
      if (p !== null) return p;
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
