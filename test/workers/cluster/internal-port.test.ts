// Worker 0's internal port (src/workers/cluster/internal-port.ts), in process, called through the
// real client peers use: it is bound and reported before the shards load (calls answer
// "still loading" and the caller asks another replica), serves this node's replicas once the
// engine is ready, refuses while the lease in shared memory has lapsed, and a thread replacing
// worker 0 binds the port its predecessor reported.

import { afterEach, describe, expect, it } from 'vitest';
import { InternalPeers, PeerUnreachable } from '../../../src/shared/cluster/internal-client.js';
import type { LocalShards } from '../../../src/shared/cluster/cluster-shards.js';
import { nowMs } from '../../../src/shared/cluster/messages.js';
import { ClusterStateView } from '../../../src/shared/cluster/state-view.js';
import { INTERNAL_PORT, INTERNAL_PORT_STATE, type InternalPortInit } from '../../../src/shared/protocol.js';
import { serveInternalPort } from '../../../src/workers/cluster/internal-port.js';

const peers = new InternalPeers(4 << 20);
afterEach(() => peers.close());

function init(port = 0): InternalPortInit & { expiry: BigInt64Array; bound: SharedArrayBuffer } {
  const leaseExpiry = new SharedArrayBuffer(8);
  const expiry = new BigInt64Array(leaseExpiry);
  expiry[0] = BigInt(Math.round(nowMs() + 60_000));
  return { host: '127.0.0.1', port, leaseExpiry, bound: new SharedArrayBuffer(8), expiry };
}

const local: LocalShards = {
  call: async (collectionId, shard, req) => ({ collectionId, shard, op: req.op }),
  awaitApplied: async () => ({ result: 'applied' }),
};

const ask = (port: number) =>
  peers.shardCall({ id: 9, advertise: `127.0.0.1:${port}`, rest_port: 0, grpc_port: 0 }, { collectionId: 4, shard: 1, req: { op: 'count', filter: null, exact: true } as never, timeoutMs: 500 }, 2000);

describe('worker 0 internal port', () => {
  it('is bound and reported at once, answers "still loading" until served, then serves, and refuses once the lease lapsed', async () => {
    const i = init();
    const served = await serveInternalPort(i, 4 << 20, undefined);
    expect(served).not.toBeNull();
    const bound = new Int32Array(i.bound);
    expect(Atomics.load(bound, INTERNAL_PORT.state)).toBe(INTERNAL_PORT_STATE.listening);
    const port = Atomics.load(bound, INTERNAL_PORT.port);
    expect(port).toBeGreaterThan(0);

    await expect(ask(port)).rejects.toMatchObject({ code: 'ShardUnavailable', message: expect.stringContaining('still loading') });
    served!.serve(local, new ClusterStateView());
    expect(await ask(port)).toEqual({ collectionId: 4, shard: 1, op: 'count' });

    i.expiry[0] = BigInt(Math.round(nowMs() - 1));
    const refused = await ask(port).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PeerUnreachable);
    expect((refused as Error).message).toContain('lease has lapsed');
  });

  it('a replacing thread binds the port reported before; a port in use is reported failed', async () => {
    const first = init();
    expect(await serveInternalPort(first, 4 << 20, undefined)).not.toBeNull();
    const port = Atomics.load(new Int32Array(first.bound), INTERNAL_PORT.port);
    // The same bound buffer (as WorkerInit gives a replacing thread): it asks for that port, held here, and fails.
    const again = await serveInternalPort(first, 4 << 20, undefined);
    expect(again).toBeNull();
    expect(Atomics.load(new Int32Array(first.bound), INTERNAL_PORT.state)).toBe(INTERNAL_PORT_STATE.failed);
    expect(Atomics.load(new Int32Array(first.bound), INTERNAL_PORT.port)).toBe(port);
  });
});
