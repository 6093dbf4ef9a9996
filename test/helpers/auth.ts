// Helpers for the auth integration tests: bootstrap, login, tokens, and the two error envelopes.

import { expect } from 'vitest';
import { call } from './server.js';

export const ADMIN_PASSWORD = 'Correct-Horse-9';
export const OTHER_PASSWORD = 'Battery-Staple-42';

export interface Res {
  status: number;
  body: any;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
export const apiKeyHeader = (token: string): Record<string, string> => ({ 'api-key': token });

export async function createAdmin(base: string, password = ADMIN_PASSWORD, headers: Record<string, string> = {}): Promise<void> {
  const r = await call(base, 'POST', '/auth/admin', { password }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

export async function login(base: string, password = ADMIN_PASSWORD): Promise<string> {
  const r = await call(base, 'POST', '/auth/login', { username: 'admin', password });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
}

export async function setEnabled(base: string, jwt: string, enabled: boolean): Promise<void> {
  const r = await call(base, 'PATCH', '/auth/enabled', { enabled }, bearer(jwt));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.result).toBe(enabled);
}

export interface CreatedKey {
  id: number;
  api_key: string;
  [k: string]: unknown;
}

export async function createKey(base: string, jwt: string, body: Record<string, unknown>): Promise<CreatedKey> {
  const r = await call(base, 'POST', '/auth/api_key', { name: 'test', ...body }, bearer(jwt));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as CreatedKey;
}

/** The auth envelope {status: "error", message} of /auth/* endpoints. */
export function expectAuthError(res: Res, status: number, message?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body, JSON.stringify(res.body)).toEqual({ status: 'error', message: expect.any(String) });
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else if (message !== undefined) expect(res.body.message).toMatch(message);
}

/** The data envelope {time, status: {error}} of data endpoints. */
export function expectDataError(res: Res, status: number, message?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['status', 'time']);
  expect(typeof res.body.time).toBe('number');
  expect(typeof res.body.status.error).toBe('string');
  if (typeof message === 'string') expect(res.body.status.error).toBe(message);
  else if (message !== undefined) expect(res.body.status.error).toMatch(message);
}

export function expectSuccess(res: Res): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ status: 'success', message: expect.any(String) });
}
