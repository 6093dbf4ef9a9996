// The REST calls the dashboard makes. The credential (an API key, or the admin JWT that the admin
// password logs in for) lives only in this module's memory: never in localStorage, sessionStorage
// or a cookie, so closing or reloading the tab signs out.

import { $, clearMessage, show } from './dom.js';

export type Held = { kind: 'api-key' | 'jwt'; token: string };

/** A point's id as the API writes it. */
export type PointId = number | string;

let credential: Held | null = null;

export function held(): Held | null {
  return credential;
}

export function hold(c: Held | null): void {
  credential = c;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function messageOf(body: unknown, status: number): string {
  if (typeof body === 'object' && body !== null) {
    const b = body as { status?: unknown; message?: unknown };
    if (typeof b.status === 'object' && b.status !== null && typeof (b.status as { error?: unknown }).error === 'string') {
      return (b.status as { error: string }).error;
    }
    if (typeof b.message === 'string') return b.message;
  }
  return typeof body === 'string' && body !== '' ? body : `HTTP ${status}`;
}

/** What came back: the status, the body parsed as JSON where it is JSON (else its text), and the time taken. */
export interface Answer {
  status: number;
  ok: boolean;
  body: unknown;
  ms: number;
}

/** One request with the credential in memory; `body` is sent as given (the console's text) or as JSON. */
export async function request(method: string, path: string, body?: { text: string } | { json: unknown }, withCredential = true): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (withCredential && credential !== null) {
    if (credential.kind === 'jwt') headers.authorization = `Bearer ${credential.token}`;
    else headers['api-key'] = credential.token;
  }
  const init: RequestInit = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (body !== undefined) init.body = 'text' in body ? body.text : JSON.stringify(body.json);
  const t0 = performance.now();
  const res = await fetch(path, init);
  const text = await res.text();
  const ms = performance.now() - t0;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (the metrics text, a plain error): keep the text
  }
  return { status: res.status, ok: res.ok, body: parsed, ms };
}

/** One call to the API; a failure throws with the server's message. */
export async function api<T>(method: string, path: string, body?: unknown, withCredential = true): Promise<T> {
  const res = await request(method, path, body === undefined ? undefined : { json: body }, withCredential);
  if (!res.ok) throw new ApiError(res.status, messageOf(res.body, res.status));
  return res.body as T;
}

/** A data endpoint's `result`, out of Qdrant's envelope. */
export async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await api<{ result: T }>(method, path, body)).result;
}

export const enc = encodeURIComponent;

/** Runs an action, showing its failure (and what to do about a 401/403) in the message bar. */
export async function attempt(what: string, action: () => Promise<void>): Promise<void> {
  // Each action starts with a clear bar, so what it shows is its own outcome.
  clearMessage();
  try {
    await action();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      show('error', `${what}: ${err.message}. This server has auth enabled: sign in with an API key or the admin password.`);
      $('cred-value').focus();
    } else {
      // Other refusals (403 included) carry the server's own explanation.
      show('error', `${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

export function onSubmit(id: string, what: string, action: () => Promise<void>): void {
  $(id).addEventListener('submit', (ev) => {
    ev.preventDefault();
    void attempt(what, action);
  });
}

export function onClick(id: string, what: string, action: () => Promise<void>): void {
  $(id).addEventListener('click', () => void attempt(what, action));
}
