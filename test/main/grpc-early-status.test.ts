// early-status.ts on a bare @grpc/grpc-js server with no services, so every call is answered
// UNIMPLEMENTED trailers-only: the answer waits for the end of the request body, at most the hold
// time, and is never lost when the client goes away first.

import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { holdEarlyStatuses } from '../../src/main/grpc/early-status.js';

const servers: grpc.Server[] = [];
const sessions: http2.ClientHttp2Session[] = [];
afterEach(() => {
  sessions.splice(0).forEach((s) => s.destroy());
  servers.splice(0).forEach((s) => s.forceShutdown());
});

async function bareServer(maxHoldMs?: number): Promise<{ port: number; reached: number }> {
  const server = new grpc.Server();
  servers.push(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))),
  );
  return { port, reached: holdEarlyStatuses(server, maxHoldMs) };
}

/** Opens a call and writes `body` without ending it; `status` settles with the grpc-status header. */
function openCall(port: number, body: Buffer) {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  sessions.push(session);
  session.on('error', () => {});
  const req = session.request({ ':method': 'POST', ':path': '/qdrant.Points/Upsert', 'content-type': 'application/grpc', te: 'trailers' });
  req.on('error', () => {});
  let answered = false;
  const status = new Promise<string>((resolve) =>
    req.on('response', (h) => {
      answered = true;
      resolve(String(h['grpc-status']));
    }),
  );
  req.write(body);
  return { req, status, answered: () => answered };
}

const flush = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('holdEarlyStatuses', () => {
  it('reaches the HTTP/2 server grpc-js binds', async () => {
    expect((await bareServer()).reached).toBe(1);
  });

  it('holds a trailers-only answer until the request body ends', async () => {
    const { port } = await bareServer();
    const call = openCall(port, Buffer.alloc(64 * 1024));
    await flush(300);
    expect(call.answered()).toBe(false);
    call.req.end(Buffer.alloc(1024));
    expect(await call.status).toBe(String(grpc.status.UNIMPLEMENTED));
  });

  it('answers after the hold time when the body never ends', async () => {
    const { port } = await bareServer(200);
    const call = openCall(port, Buffer.alloc(1024));
    expect(await call.status).toBe(String(grpc.status.UNIMPLEMENTED));
  });

  it('answers at once a call whose body has already ended', async () => {
    const { port } = await bareServer(60_000);
    const call = openCall(port, Buffer.alloc(16));
    call.req.end();
    expect(await call.status).toBe(String(grpc.status.UNIMPLEMENTED));
  });

  it.each([
    ['CANCEL', http2.constants.NGHTTP2_CANCEL],
    // NO_ERROR closes the stream before destroying it: the held answer must not be sent on a
    // closed stream, where respond() throws.
    ['NO_ERROR', http2.constants.NGHTTP2_NO_ERROR],
  ])('drops a held answer quietly when the client resets the stream with %s', async (_name, code) => {
    const { port } = await bareServer();
    const first = openCall(port, Buffer.alloc(1024));
    await flush(100);
    first.req.close(code);
    await flush(100);
    // The server is unharmed: the next call on a new connection is answered.
    const next = openCall(port, Buffer.alloc(16));
    next.req.end();
    expect(await next.status).toBe(String(grpc.status.UNIMPLEMENTED));
    expect(first.answered()).toBe(false);
  });
});
