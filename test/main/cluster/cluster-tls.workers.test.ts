// The internal cluster port on TLS (SERVICE_CLUSTER_ENABLE_TLS) across three real nodes: every
// node-to-node call (shard reads and writes on peers) goes over TLS with client certificates
// signed by the test's CA, so a collection spread over the three nodes reads back whole from any
// of them; a caller without a certificate, or with one from another CA, is refused in the
// handshake. The REST ports stay plain here (their TLS is test/main/tls.workers.test.ts's).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeServerCert, OPENSSL } from '../../../bench/lib/certs.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { call } from '../../helpers/server.js';
import { startThreeNodes, type ThreeNodes } from '../../helpers/three-nodes.js';

let dir = '';
let other = '';
let cluster: ThreeNodes;
let ca = '';

/** Whether a TLS client with these options completes a handshake with node 0's internal port and is answered. */
function handshake(opts: { cert?: Buffer; key?: Buffer }): Promise<string> {
  return new Promise((res) => {
    const s = connect({ host: '127.0.0.1', port: cluster.ports[0]!, ca: readFileSync(ca), ...opts });
    // TLS 1.3: the server's refusal of the client's certificate arrives after the client's own
    // handshake ends, so a connection still open a while later was let in.
    s.once('error', (e: NodeJS.ErrnoException) => res(`refused: ${e.code ?? e.message}`));
    s.once('close', () => res('closed'));
    s.setTimeout(1500, () => {
      res('open');
      s.destroy();
    });
  });
}

describe.skipIf(etcdMissing() !== null || OPENSSL === null)('internal port on TLS, three nodes', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quiver-cluster-tls-'));
    other = mkdtempSync(join(tmpdir(), 'quiver-cluster-tls-other-'));
    ca = makeCa(dir);
    // One certificate for the three nodes: all of them answer at 127.0.0.1.
    const node = makeServerCert(dir, 'node', '0D04');
    cluster = await startThreeNodes({ env: { SERVICE_CLUSTER_ENABLE_TLS: 'true', SERVICE_TLS_CERT: node.cert, SERVICE_TLS_KEY: node.key, SERVICE_TLS_CA_CERT: ca } });
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });

  it('a collection spread over the three nodes reads back whole from each, through the TLS peers', async () => {
    const [a, b, c] = cluster.nodes as [ThreeNodes['nodes'][number], ThreeNodes['nodes'][number], ThreeNodes['nodes'][number]];
    expect((await call(a.url, 'PUT', '/collections/t', { vectors: { size: 2, distance: 'Dot' }, shard_number: 3, replication_factor: 1 })).status).toBe(200);
    const points = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, vector: [Math.cos(i), Math.sin(i)], payload: { i } }));
    expect((await call(b.url, 'PUT', '/collections/t/points?wait=true', { points })).status).toBe(200);
    for (const n of [a, b, c]) {
      const count = await call(n.url, 'POST', '/collections/t/points/count', { exact: true });
      expect(count.body.result.count, n.url).toBe(30);
      const hits = await call(n.url, 'POST', '/collections/t/points/query', { query: [1, 0], limit: 1 });
      expect(hits.body.result.points[0].id).toBe(1);
    }
    // The shards really are on three nodes: each holds some, none all.
    const local = await Promise.all([a, b, c].map(async (n) => (await call(n.url, 'GET', '/collections/t/cluster')).body.result.local_shards.length as number));
    expect(local.filter((k) => k > 0).length).toBeGreaterThan(1);
  }, 60_000);

  it('refuses a caller without a client certificate, or with one another CA signed', async () => {
    expect(await handshake({})).toMatch(/^refused|^closed/);
    makeCa(other);
    const stranger = makeServerCert(other, 'stranger', '0E05');
    expect(await handshake({ cert: readFileSync(stranger.cert), key: readFileSync(stranger.key) })).toMatch(/^refused|^closed/);
    // The node's own certificate is let in: the refusals above are about the certificates.
    expect(await handshake({ cert: readFileSync(join(dir, 'node.pem')), key: readFileSync(join(dir, 'node.key')) })).toBe('open');
  }, 30_000);
});
