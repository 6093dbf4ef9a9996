// The gRPC method x credential matrix: every method of the permission table is called on the real
// server with each credential of test/helpers/auth-oracle.ts, in `api-key` and `authorization`
// metadata, with auth enabled and disabled, and the status compared with the oracle. The request
// is a raw message holding only field 1 (collection_name in every request that names one), sent
// undecoded through @grpc/grpc-js, so every method is reached whatever its message; an allowed
// call then answers whatever its missing fields give (never UNAUTHENTICATED, PERMISSION_DENIED
// or a server fault). Collection m is compared whole after every refused change.

import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPC_ACCESS, GRPC_NO_COLLECTION } from '../../src/main/auth/permissions.js';
import { bearer, setEnabled } from '../helpers/auth.js';
import { BOUND, CREDENTIALS, MATRIX_SECRET, oracle, setUpCredentials, type Credential, type Outcome } from '../helpers/auth-oracle.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: grpc.Client;
let creds = {} as Record<Credential, string | null>;
let adminJwt = '';
let unique = 0;

beforeAll(async () => {
  server = await startServer({ shards: 2, env: { SERVICE_JWT_SECRET: MATRIX_SECRET } });
  ({ creds, adminJwt } = await setUpCredentials(server.url));
  client = new grpc.Client(`127.0.0.1:${server.grpcPort}`, grpc.credentials.createInsecure());
}, 120_000);

afterAll(async () => {
  client?.close();
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

/** A message whose only field is field 1 as a string. */
function field1(name: string): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}

function ask(path: string, message: Buffer, metadata: grpc.Metadata): Promise<{ code: grpc.status; details: string }> {
  return new Promise((res) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      message,
      metadata,
      { deadline: Date.now() + 10_000 },
      (err) => res(err === null ? { code: grpc.status.OK, details: '' } : { code: err.code ?? grpc.status.UNKNOWN, details: err.details ?? '' }),
    );
  });
}

async function snapshot(): Promise<string> {
  const r = await call(server.url, 'POST', '/collections/m/points/scroll', { limit: 100, with_payload: true, with_vector: true }, bearer(adminJwt));
  const info = await call(server.url, 'GET', '/collections/m', undefined, bearer(adminJwt));
  return JSON.stringify([r.body?.result?.points, info.body?.result?.payload_schema, info.body?.result?.config]);
}

const EXPECTED_CODE: Record<Exclude<Outcome, 'pass'>, grpc.status> = { 401: grpc.status.UNAUTHENTICATED, 403: grpc.status.PERMISSION_DENIED };
const FAULTS: ReadonlySet<grpc.status> = new Set([grpc.status.INTERNAL, grpc.status.UNKNOWN, grpc.status.DATA_LOSS]);

describe.each([true, false])('gRPC method x credential matrix, auth enabled = %s', (enabled) => {
  it('every method answers every credential as the oracle says (both metadata styles)', async () => {
    await setEnabled(server.url, adminJwt, enabled);
    const failures: string[] = [];
    let cells = 0;
    for (const [path, access] of Object.entries(GRPC_ACCESS)) {
      for (const cred of CREDENTIALS) {
        for (const style of ['api-key', 'authorization'] as const) {
          const token = creds[cred];
          const metadata = new grpc.Metadata();
          if (token !== null) metadata.set(style, style === 'api-key' ? token : `Bearer ${token}`);
          // Creating and deleting name collections of their own, so an allowed call cannot drop m.
          const target = GRPC_NO_COLLECTION.has(path) ? null : path.endsWith('Collections/Create') ? `new_${++unique}` : path.endsWith('Collections/Delete') ? `absent_${++unique}` : 'm';
          const want = oracle(access, cred, enabled, target);
          const changes = (access === 'write' || access === 'manage') && target === 'm' && want !== 'pass';
          const before = changes ? await snapshot() : null;
          const got = await ask(path, target === null ? Buffer.alloc(0) : field1(target), metadata);
          cells++;
          const where = `${path} [${access}] with ${cred} via ${style}: got ${grpc.status[got.code]} ${got.details.slice(0, 120)}`;
          if (before !== null && (await snapshot()) !== before) failures.push(`${where}; refused, yet the collection changed`);
          if (want === 'pass') {
            const refusedByAuth = got.code === grpc.status.UNAUTHENTICATED || (got.code === grpc.status.PERMISSION_DENIED && !(BOUND.has(cred) && got.details.includes('tenant filter of API key')));
            if (refusedByAuth || FAULTS.has(got.code)) failures.push(`${where}; expected not refused`);
          } else if (got.code !== EXPECTED_CODE[want]) {
            failures.push(`${where}; expected ${grpc.status[EXPECTED_CODE[want]]}`);
          }
        }
      }
    }
    expect(cells).toBe(Object.keys(GRPC_ACCESS).length * CREDENTIALS.length * 2);
    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
  }, 300_000);
});
