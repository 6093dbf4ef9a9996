// Three real nodes on TLS everywhere: REST and gRPC (SERVICE_ENABLE_TLS) and the internal cluster
// port (SERVICE_CLUSTER_ENABLE_TLS), where every node-to-node call (shard reads and writes on
// peers) carries a client certificate signed by the test's CA. A collection spread over the three
// nodes reads back whole from any of them, through both official clients too; plain HTTP to a
// node's REST port is refused; a caller of the internal port without a certificate, or with one
// from another CA, is refused in the handshake.

import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCa, makeServerCert, OPENSSL } from '../../../bench/lib/certs.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { call, trustCa } from '../../helpers/server.js';
import { readableThroughEvery, startThreeNodes, type ThreeNodes } from '../../helpers/three-nodes.js';

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

/** The serial of the certificate node 0's internal port presents to a caller with the node's own certificate. */
function internalSerial(): Promise<string> {
  return new Promise((res, rej) => {
    const s = connect({ host: '127.0.0.1', port: cluster.ports[0]!, ca: readFileSync(ca), cert: readFileSync(join(dir, 'node.pem')), key: readFileSync(join(dir, 'node.key')) }, () => {
      res(s.getPeerCertificate().serialNumber.toUpperCase());
      s.destroy();
    });
    s.once('error', rej);
  });
}

describe.skipIf(etcdMissing() !== null || OPENSSL === null)('internal port on TLS, three nodes', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quiver-cluster-tls-'));
    other = mkdtempSync(join(tmpdir(), 'quiver-cluster-tls-other-'));
    ca = makeCa(dir);
    // One certificate for the three nodes: all of them answer at 127.0.0.1.
    const node = makeServerCert(dir, 'node', '0D04');
    trustCa(readFileSync(ca));
    cluster = await startThreeNodes({
      env: { SERVICE_ENABLE_TLS: 'true', SERVICE_CLUSTER_ENABLE_TLS: 'true', SERVICE_TLS_CERT: node.cert, SERVICE_TLS_KEY: node.key, SERVICE_TLS_CA_CERT: ca },
    });
  }, 180_000);

  afterAll(async () => {
    trustCa(undefined);
    await cluster?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });

  it('a collection spread over the three nodes reads back whole from each, through the TLS peers', async () => {
    const [a, b, c] = cluster.nodes as [ThreeNodes['nodes'][number], ThreeNodes['nodes'][number], ThreeNodes['nodes'][number]];
    expect((await call(a.url, 'PUT', '/collections/t', { vectors: { size: 2, distance: 'Dot' }, shard_number: 3, replication_factor: 1 })).status).toBe(200);
    await readableThroughEvery([a.url, b.url, c.url], 't');
    const points = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, vector: [Math.cos(i), Math.sin(i)], payload: { i } }));
    expect((await call(b.url, 'PUT', '/collections/t/points?wait=true', { points })).status).toBe(200);
    for (const n of [a, b, c]) {
      const count = await call(n.url, 'POST', '/collections/t/points/count', { exact: true });
      expect(count.body.result.count, n.url).toBe(30);
      const hits = await call(n.url, 'POST', '/collections/t/points/query', { query: [1, 0], limit: 1 });
      expect(hits.body.result.points[0].id).toBe(1);
    }
    // The shards really are on three nodes: one on each (placement spreads a collection's shards).
    const local = await Promise.all([a, b, c].map(async (n) => (await call(n.url, 'GET', '/collections/t/cluster')).body.result.local_shards.length as number));
    expect(local).toEqual([1, 1, 1]);
  }, 60_000);

  it('every node serves both official clients over TLS, and refuses plain HTTP', async () => {
    const c = cluster.nodes[2]!;
    expect(c.url.startsWith('https://')).toBe(true);
    await expect(fetch(`http://127.0.0.1:${c.port}/collections`)).rejects.toThrow();
    const script = `
      import { QdrantClient as Rest } from '@qdrant/js-client-rest';
      import { QdrantClient as Grpc } from '@qdrant/js-client-grpc';
      const rest = new Rest({ url: '${c.url}', checkCompatibility: false });
      const count = (await rest.count('t', { exact: true })).count;
      const grpc = new Grpc({ host: '127.0.0.1', port: ${c.grpcPort}, https: true, checkCompatibility: false });
      const found = await grpc.api('points').count({ collectionName: 't', exact: true });
      console.log(JSON.stringify({ rest: count, grpc: Number(found.result.count) }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve(import.meta.dirname, '..', '..', '..'), env: { ...process.env, NODE_EXTRA_CA_CERTS: ca }, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ rest: 30, grpc: 30 });
  }, 60_000);

  it('refuses a caller without a client certificate, or with one another CA signed', async () => {
    expect(await handshake({})).toMatch(/^refused|^closed/);
    makeCa(other);
    const stranger = makeServerCert(other, 'stranger', '0E05');
    expect(await handshake({ cert: readFileSync(stranger.cert), key: readFileSync(stranger.key) })).toMatch(/^refused|^closed/);
    // The node's own certificate is let in: the refusals above are about the certificates.
    expect(await handshake({ cert: readFileSync(join(dir, 'node.pem')), key: readFileSync(join(dir, 'node.key')) })).toBe('open');
  }, 30_000);

  it('a renewed certificate is served by the internal port without a restart, and the nodes keep talking', async () => {
    expect(await internalSerial()).toBe('0D04');
    const renewed = makeServerCert(dir, 'renewed', '0F06');
    copyFileSync(renewed.key, join(dir, 'node.key'));
    copyFileSync(renewed.cert, join(dir, 'node.pem'));
    await expect.poll(() => internalSerial(), { timeout: 15_000, interval: 250 }).toBe('0F06');
    for (const n of cluster.nodes) expect((await call(n.url, 'POST', '/collections/t/points/count', { exact: true })).body.result.count).toBe(30);
  }, 60_000);
});
