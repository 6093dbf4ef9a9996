// TLS on the REST and gRPC ports through the real server, with certificates this test makes:
// both official Qdrant clients over TLS (in a child process that trusts the test's CA, as an
// application would with NODE_EXTRA_CA_CERTS), plain HTTP to the TLS port refused, a renewed
// certificate taken by both ports without a restart, and start-up stopped with one line and exit
// 2 for files that do not load.

import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { makeCa, makeServerCert, OPENSSL } from '../../bench/lib/certs.js';

const REPO = resolve(import.meta.dirname, '..', '..');
let dir = '';
let ca = '';
let server: TestServer;
/** The files the server was given: their content is replaced by a renewed certificate. */
let files = { cert: '', key: '' };

/** GET over TLS trusting the test's CA: status and body. */
function httpsGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    const req = request({ host: '127.0.0.1', port, path, ca: readFileSync(ca) }, (r) => {
      let body = '';
      r.on('data', (d: Buffer) => (body += d.toString()));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
    });
    req.on('error', rej);
    req.end();
  });
}

/** The serial of the certificate a port presents (ALPN h2 for gRPC's port). */
function servedSerial(port: number, alpn?: string): Promise<string> {
  return new Promise((res, rej) => {
    const s = connect({ host: '127.0.0.1', port, ca: readFileSync(ca), ...(alpn ? { ALPNProtocols: [alpn] } : {}) }, () => {
      res(s.getPeerCertificate().serialNumber.toUpperCase());
      s.end();
    });
    s.on('error', rej);
  });
}

describe.skipIf(OPENSSL === null)('TLS', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quiver-tls-'));
    ca = makeCa(dir);
    const first = makeServerCert(dir, 'first', '0A01');
    files = { cert: join(dir, 'served.pem'), key: join(dir, 'served.key') };
    copyFileSync(first.cert, files.cert);
    copyFileSync(first.key, files.key);
    server = await startServer({ env: { SERVICE_ENABLE_TLS: 'true', SERVICE_TLS_CERT: files.cert, SERVICE_TLS_KEY: files.key } });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
    rmSync(dir, { recursive: true, force: true });
  });

  it('REST answers over TLS, and refuses plain HTTP on the same port', async () => {
    const res = await httpsGet(server.port, '/collections');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result.collections).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${server.port}/collections`)).rejects.toThrow();
  });

  it('both official clients work over TLS (https: true)', () => {
    const script = `
      import { QdrantClient as Rest } from '@qdrant/js-client-rest';
      import { QdrantClient as Grpc } from '@qdrant/js-client-grpc';
      const rest = new Rest({ url: 'https://127.0.0.1:${server.port}', checkCompatibility: false });
      await rest.createCollection('t', { vectors: { size: 2, distance: 'Dot' } });
      await rest.upsert('t', { wait: true, points: [{ id: 1, vector: [1, 0] }, { id: 2, vector: [0, 1] }] });
      const hits = (await rest.query('t', { query: [1, 0.1], limit: 1 })).points;
      const grpc = new Grpc({ host: '127.0.0.1', port: ${server.grpcPort}, https: true, checkCompatibility: false });
      const listed = await grpc.api('collections').list({});
      const found = await grpc.api('points').search({ collectionName: 't', vector: [0.1, 1], limit: 1n });
      console.log(JSON.stringify({ rest: hits[0].id, grpc: listed.collections.map((c) => c.name), grpcTop: Number(found.result[0].id.pointIdOptions.value) }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, env: { ...process.env, NODE_EXTRA_CA_CERTS: ca }, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ rest: 1, grpc: ['t'], grpcTop: 2 });
    // Without trusting the CA, the certificate is refused: TLS is really checked by the clients.
    const untrusted = spawnSync(process.execPath, ['--input-type=module', '-e', `import { QdrantClient } from '@qdrant/js-client-rest'; await new QdrantClient({ url: 'https://127.0.0.1:${server.port}', checkCompatibility: false }).getCollections();`], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
    expect(untrusted.status).not.toBe(0);
  });

  it('a renewed certificate is served by both ports without a restart', async () => {
    expect(await servedSerial(server.port)).toBe('0A01');
    expect(await servedSerial(server.grpcPort, 'h2')).toBe('0A01');
    const renewed = makeServerCert(dir, 'renewed', '0B02');
    copyFileSync(renewed.key, files.key);
    copyFileSync(renewed.cert, files.cert);
    await expect.poll(() => servedSerial(server.port), { timeout: 10_000, interval: 200 }).toBe('0B02');
    await expect.poll(() => servedSerial(server.grpcPort, 'h2'), { timeout: 10_000, interval: 200 }).toBe('0B02');
    expect(server.logs.some((l) => l.includes('TLS certificate loaded again'))).toBe(true);
    expect((await httpsGet(server.port, '/collections')).status).toBe(200);
  }, 30_000);

  it('files that do not load stop start-up with one line and exit 2, leaving nothing', async () => {
    const start = (env: Record<string, string>): Promise<{ code: number | null; stderr: string; left: boolean }> =>
      new Promise((res) => {
        const data = tempDataDir();
        const p = spawn(process.execPath, [ENTRY], { env: { ...process.env, SERVICE_DATA_DIR: join(data, 'd'), SERVICE_REST_PORT: '0', SERVICE_GRPC_PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        p.on('exit', (code) => {
          const left = existsSync(join(data, 'd'));
          removeDir(data);
          res({ code, stderr, left });
        });
      });
    const missing = await start({ SERVICE_ENABLE_TLS: 'true', SERVICE_TLS_CERT: join(dir, 'nope.pem'), SERVICE_TLS_KEY: files.key });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain(`tls_cert (SERVICE_TLS_CERT) ${join(dir, 'nope.pem')}: ENOENT`);
    expect(missing.left).toBe(false);
    const mismatched = await start({ SERVICE_ENABLE_TLS: 'true', SERVICE_TLS_CERT: files.cert, SERVICE_TLS_KEY: join(dir, 'first.key') });
    expect(mismatched.code).toBe(2);
    expect(mismatched.stderr).toContain('key values mismatch');
    const unset = await start({ SERVICE_ENABLE_TLS: 'true' });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('enable_tls (SERVICE_ENABLE_TLS) needs tls_cert (SERVICE_TLS_CERT) and tls_key (SERVICE_TLS_KEY)');
  }, 60_000);
});
