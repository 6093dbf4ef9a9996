// Loopback ports for the engines the tests start (nats-server, etcd) and for servers given one.

import { createServer } from 'node:net';

/** A loopback port nobody listens on now (the kernel picks it; the caller binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** `n` distinct free loopback ports: the kernel may hand a closed port out again at once. */
export async function freePorts(n: number): Promise<number[]> {
  const taken = new Set<number>();
  while (taken.size < n) taken.add(await freePort());
  return [...taken];
}
