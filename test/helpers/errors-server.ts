// Shared setup of the error tests (test/main/errors-*.workers.test.ts): each file starts one real
// server (2 shards, 1 MiB body limit) with a plain and a named collection, and asserts on the
// data error envelope {time, status: {error}} of docs/interface.md section 7.1, a message that names the problem
// (docs/decisions.md section 6), and rejected writes that write nothing. `server` and `base` are set by the hooks
// useErrorsServer() registers, before the file's first test.

import { afterAll, beforeAll, expect } from 'vitest';
import { call, removeDir, startServer, type TestServer } from './server.js';

export let server: TestServer;
export let base: string;

export const PLAIN = 'plain'; // unnamed vector, size 4, Dot
export const NAMED = 'named'; // img: size 4 Dot, txt: size 2 Cosine
export const MISSING = 'nope';

export const PLAIN_POINTS = [
  { id: 1, vector: [1, 0, 0, 0], payload: { n: 1, tag: 'a' } },
  { id: 2, vector: [0, 1, 0, 0], payload: { n: 2, tag: 'b' } },
  { id: 3, vector: [0, 0, 1, 0], payload: { n: 3, tag: 'a' } },
  { id: 4, vector: [0, 0, 0, 1], payload: { n: 4, tag: 'b' } },
  { id: 5, vector: [1, 1, 0, 0], payload: { n: 5, tag: 'a' } },
  { id: 6, vector: [0, 1, 1, 0], payload: { n: 6, tag: 'b' } },
];

/** Starts the file's server with its collections and points, and stops it after the file's tests. */
export function useErrorsServer(): void {
  beforeAll(async () => {
    server = await startServer({ shards: 2, env: { SERVICE_BODY_LIMIT_MB: '1' } });
    base = server.url;
    const a = await call(base, 'PUT', `/collections/${PLAIN}`, { vectors: { size: 4, distance: 'Dot' } });
    expect(a.status).toBe(200);
    const b = await call(base, 'PUT', `/collections/${NAMED}`, {
      vectors: { img: { size: 4, distance: 'Dot' }, txt: { size: 2, distance: 'Cosine' } },
    });
    expect(b.status).toBe(200);
    const c = await call(base, 'PUT', `/collections/${PLAIN}/points?wait=true`, { points: PLAIN_POINTS });
    expect(c.status).toBe(200);
    const d = await call(base, 'PUT', `/collections/${NAMED}/points?wait=true`, {
      points: [
        { id: 1, vector: { img: [1, 0, 0, 0], txt: [1, 0] } },
        { id: 2, vector: { img: [0, 1, 0, 0], txt: [0, 1] } },
      ],
    });
    expect(d.status).toBe(200);
  });

  afterAll(async () => {
    if (server === undefined) return;
    await server.stop();
    removeDir(server.dataDir);
  });
}

// ---------------------------------------------------------------- helpers

export interface Res {
  status: number;
  body: any;
}

/** fetch with a raw body and explicit headers; parses JSON when it can. */
export async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Res> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = body;
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the envelope assertions below will say so
  }
  return { status: res.status, body: parsed };
}

export const JSON_CT = { 'content-type': 'application/json' };

/** Asserts the status and the data error envelope, and returns the message. */
export function expectError(res: Res, status: number, ...parts: (string | RegExp)[]): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body, `body is not JSON: ${String(res.body)}`).toBe('object');
  expect(res.body).not.toBeNull();
  expect(Object.keys(res.body).sort()).toEqual(['status', 'time']);
  expect(res.body).not.toHaveProperty('result');
  expect(typeof res.body.time).toBe('number');
  expect(res.body.time).toBeGreaterThanOrEqual(0);
  expect(typeof res.body.status).toBe('object');
  expect(typeof res.body.status.error).toBe('string');
  const msg: string = res.body.status.error;
  expect(msg.length).toBeGreaterThan(0);
  for (const p of parts) {
    if (typeof p === 'string') expect(msg).toContain(p);
    else expect(msg).toMatch(p);
  }
  return msg;
}

export function expectOk(res: Res): any {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('ok');
  return res.body.result;
}

export async function count(coll: string): Promise<number> {
  const r = await call(base, 'POST', `/collections/${coll}/points/count`, { exact: true });
  return expectOk(r).count as number;
}

/** Sends a write that must be rejected and checks that the point count did not move. */
export async function rejectedWrite(coll: string, method: string, path: string, body: unknown, status: number, ...parts: (string | RegExp)[]): Promise<string> {
  const before = await count(coll);
  const res = await call(base, method, `/collections/${coll}${path}`, body);
  const msg = expectError(res, status, ...parts);
  expect(await count(coll)).toBe(before);
  return msg;
}
