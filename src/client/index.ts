// Quiver's own typed REST client. Request and response shapes are the server's TypeBox schemas
// and types from src/shared (types only, never a src/main module), so the client cannot drift
// from what the server validates and pulls in no server code. While the server is starting it
// answers 412 `Engine not initialized`; the client then retries as docs/interface.md section 7.3 says: after 500 ms,
// 1 s, 2 s, 4 s and 8 s, at most 5 retries, then the error reaches the caller. No other error
// is retried (a 412 for a collection being deleted is final).

import type { CreateCollection, UpdateCollection } from '../shared/schemas/collections.js';
import type { ClearPayload, CreateFieldIndex, DeletePayload, SetPayload } from '../shared/schemas/payload.js';
import type { ApiKeyCreated, ApiKeyInfo, CreateApiKeyBody, UpdateApiKeyBody } from '../shared/schemas/auth.js';
import type { CountPoints, DeleteVectors, FacetRequest, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints } from '../shared/schemas/points.js';
import type { UpdateOperation, UpdateOperations } from '../shared/schemas/batch.js';
import type { FacetValue } from '../shared/protocol.js';
import type { QueryRequest, SearchRequest } from '../shared/schemas/search.js';
import type { PointId, PointRecord, ScoredPoint } from '../shared/types.js';

export type { CreateCollection, UpdateCollection, ClearPayload, CreateFieldIndex, DeletePayload, SetPayload };
export type { ApiKeyCreated, ApiKeyInfo, CreateApiKeyBody, DeleteVectors, UpdateApiKeyBody };
export type { CountPoints, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints, QueryRequest, SearchRequest };
export type { FacetRequest, FacetValue, UpdateOperation, UpdateOperations };
export type { PointId, PointRecord, ScoredPoint };

export const ENGINE_NOT_INITIALIZED = 'Engine not initialized';

/** A non-2xx answer: the HTTP status and the server's message. */
export class QuiverClientError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'QuiverClientError';
    this.status = status;
  }
}

export interface RetryPolicy {
  /** First delay in ms; each retry doubles it. */
  initialDelayMs: number;
  maxRetries: number;
}

export const DEFAULT_RETRY: RetryPolicy = { initialDelayMs: 500, maxRetries: 5 };

export interface ClientOptions {
  url?: string;
  apiKey?: string;
  retry?: RetryPolicy;
  fetch?: typeof fetch;
  /** Injectable for tests (fake timers). */
  sleep?: (ms: number) => Promise<void>;
}

export interface UpdateResult {
  /** Null when the write answered `wait_timeout` (wait=true ran past its timeout; it goes on). */
  operation_id: number | null;
  status: 'acknowledged' | 'completed' | 'wait_timeout';
}

export interface CollectionInfo {
  status: string;
  points_count: number;
  indexed_vectors_count: number;
  segments_count: number;
  config: Record<string, unknown>;
  payload_schema: Record<string, { data_type: string; points: number; params?: Record<string, unknown> }>;
}

type Query = Record<string, string | number | boolean | undefined>;

export class QuiverClient {
  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #retry: RetryPolicy;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(opts: ClientOptions = {}) {
    this.#url = (opts.url ?? 'http://127.0.0.1:6573').replace(/\/+$/, '');
    this.#headers = opts.apiKey !== undefined ? { 'api-key': opts.apiKey } : {};
    this.#retry = opts.retry ?? DEFAULT_RETRY;
    this.#fetch = opts.fetch ?? fetch;
    this.#sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** One request, with the 412-at-start-up retry. Returns the envelope's `result`. */
  async request<T>(method: string, path: string, body?: unknown, query: Query = {}): Promise<T> {
    return ((await this.requestBody(method, path, body, query)) as { result: T }).result;
  }

  /** One request, with the 412-at-start-up retry. Returns the whole body (the auth endpoints answer without an envelope). */
  async requestBody(method: string, path: string, body?: unknown, query: Query = {}): Promise<unknown> {
    const qs = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    const url = `${this.#url}${path}${qs ? `?${qs}` : ''}`;
    const init: RequestInit = {
      method,
      headers: body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    for (let attempt = 0; ; attempt++) {
      const res = await this.#fetch(url, init);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the text is the message
      }
      if (res.ok) return parsed;
      const message = errorMessage(parsed, res.statusText);
      if (res.status === 412 && message === ENGINE_NOT_INITIALIZED && attempt < this.#retry.maxRetries) {
        await this.#sleep(this.#retry.initialDelayMs * 2 ** attempt);
        continue;
      }
      throw new QuiverClientError(res.status, message);
    }
  }

  // ---- collections ----
  listCollections(): Promise<{ collections: { name: string }[] }> {
    return this.request('GET', '/collections');
  }
  getCollection(name: string): Promise<CollectionInfo> {
    return this.request('GET', `/collections/${enc(name)}`);
  }
  createCollection(name: string, body: CreateCollection): Promise<boolean> {
    return this.request('PUT', `/collections/${enc(name)}`, body);
  }
  updateCollection(name: string, body: UpdateCollection): Promise<boolean> {
    return this.request('PATCH', `/collections/${enc(name)}`, body);
  }
  deleteCollection(name: string): Promise<boolean> {
    return this.request('DELETE', `/collections/${enc(name)}`);
  }
  collectionExists(name: string): Promise<{ exists: boolean }> {
    return this.request('GET', `/collections/${enc(name)}/exists`);
  }

  collectionCluster(name: string): Promise<{ shard_count: number; local_shards: { shard_id: number; points_count: number; worker: number }[] }> {
    return this.request('GET', `/collections/${enc(name)}/cluster`);
  }

  // ---- points ----
  upsert(name: string, body: UpsertPoints, wait = true): Promise<UpdateResult> {
    return this.request('PUT', `/collections/${enc(name)}/points`, body, { wait });
  }
  retrieve(name: string, body: RetrievePoints): Promise<PointRecord[]> {
    return this.request('POST', `/collections/${enc(name)}/points`, body);
  }
  getPoint(name: string, id: PointId): Promise<PointRecord> {
    return this.request('GET', `/collections/${enc(name)}/points/${enc(String(id))}`);
  }
  deletePoints(name: string, body: PointsSelector, wait = true): Promise<UpdateResult> {
    return this.request('POST', `/collections/${enc(name)}/points/delete`, body, { wait });
  }
  updateVectors(name: string, body: UpdateVectors, wait = true): Promise<UpdateResult> {
    return this.request('PUT', `/collections/${enc(name)}/points/vectors`, body, { wait });
  }
  deleteVectors(name: string, body: DeleteVectors, wait = true): Promise<UpdateResult> {
    return this.request('POST', `/collections/${enc(name)}/points/vectors/delete`, body, { wait });
  }
  /** Runs the operations in order, one operation id each; not atomic (see the server's README). */
  batchUpdate(name: string, body: UpdateOperations, wait = true): Promise<UpdateResult[]> {
    return this.request('POST', `/collections/${enc(name)}/points/batch`, body, { wait });
  }
  facet(name: string, body: FacetRequest): Promise<{ hits: { value: FacetValue; count: number }[] }> {
    return this.request('POST', `/collections/${enc(name)}/facet`, body);
  }
  count(name: string, body: CountPoints = {}): Promise<{ count: number }> {
    return this.request('POST', `/collections/${enc(name)}/points/count`, body);
  }
  scroll(name: string, body: ScrollPoints = {}): Promise<{ points: PointRecord[]; next_page_offset: PointId | null }> {
    return this.request('POST', `/collections/${enc(name)}/points/scroll`, body);
  }

  // ---- payload and indexes ----
  setPayload(name: string, body: SetPayload, wait = true): Promise<UpdateResult> {
    return this.request('POST', `/collections/${enc(name)}/points/payload`, body, { wait });
  }
  overwritePayload(name: string, body: SetPayload, wait = true): Promise<UpdateResult> {
    return this.request('PUT', `/collections/${enc(name)}/points/payload`, body, { wait });
  }
  deletePayload(name: string, body: DeletePayload, wait = true): Promise<UpdateResult> {
    return this.request('POST', `/collections/${enc(name)}/points/payload/delete`, body, { wait });
  }
  clearPayload(name: string, body: ClearPayload, wait = true): Promise<UpdateResult> {
    return this.request('POST', `/collections/${enc(name)}/points/payload/clear`, body, { wait });
  }
  createIndex(name: string, body: CreateFieldIndex, wait = true): Promise<UpdateResult> {
    return this.request('PUT', `/collections/${enc(name)}/index`, body, { wait });
  }
  deleteIndex(name: string, field: string, wait = true): Promise<UpdateResult> {
    return this.request('DELETE', `/collections/${enc(name)}/index/${enc(field)}`, undefined, { wait });
  }

  // ---- search ----
  search(name: string, body: SearchRequest): Promise<ScoredPoint[]> {
    return this.request('POST', `/collections/${enc(name)}/points/search`, body);
  }
  searchBatch(name: string, searches: SearchRequest[]): Promise<ScoredPoint[][]> {
    return this.request('POST', `/collections/${enc(name)}/points/search/batch`, { searches });
  }
  query(name: string, body: QueryRequest): Promise<{ points: ScoredPoint[] }> {
    return this.request('POST', `/collections/${enc(name)}/points/query`, body);
  }
  queryBatch(name: string, searches: QueryRequest[]): Promise<{ points: ScoredPoint[] }[]> {
    return this.request('POST', `/collections/${enc(name)}/points/query/batch`, { searches });
  }

  // ---- authentication (answers are {status, message, ...}, not the data envelope) ----
  login(password: string, username = 'admin'): Promise<{ status: string; message: string; token: string; token_type: string; expires_in: number }> {
    return this.requestBody('POST', '/auth/login', { username, password }) as Promise<{ status: string; message: string; token: string; token_type: string; expires_in: number }>;
  }
  createAdmin(password: string): Promise<{ status: string; message: string }> {
    return this.requestBody('POST', '/auth/admin', { password }) as Promise<{ status: string; message: string }>;
  }
  resetAdminPassword(password: string): Promise<{ status: string; message: string }> {
    return this.requestBody('POST', '/auth/admin/reset-password', { password }) as Promise<{ status: string; message: string }>;
  }
  setAuthEnabled(enabled: boolean): Promise<boolean> {
    return this.request('PATCH', '/auth/enabled', { enabled });
  }
  createApiKey(body: CreateApiKeyBody): Promise<ApiKeyCreated> {
    return this.requestBody('POST', '/auth/api_key', body) as Promise<ApiKeyCreated>;
  }
  listApiKeys(): Promise<ApiKeyInfo[]> {
    return this.requestBody('GET', '/auth/api_keys') as Promise<ApiKeyInfo[]>;
  }
  deleteApiKey(id: number): Promise<{ status: string; message: string }> {
    return this.requestBody('DELETE', `/auth/api_key/${id}`) as Promise<{ status: string; message: string }>;
  }
  /** Changes a key's name, description, permission or scope (`scope: null`: every collection); the key itself stays. */
  updateApiKey(id: number, body: UpdateApiKeyBody): Promise<ApiKeyInfo> {
    return this.requestBody('PATCH', `/auth/api_key/${id}`, body) as Promise<ApiKeyInfo>;
  }
  rotateApiKey(id: number): Promise<ApiKeyCreated> {
    return this.requestBody('POST', `/auth/api_key/${id}/rotate`) as Promise<ApiKeyCreated>;
  }

  /** The OpenAPI document the server generates from its route schemas. */
  openapi(): Promise<Record<string, unknown>> {
    return this.requestBody('GET', '/openapi.json') as Promise<Record<string, unknown>>;
  }

  /** GET /metrics: the Prometheus text exposition. */
  async metrics(): Promise<string> {
    return (await this.requestBody('GET', '/metrics')) as string;
  }

  // ---- service ----
  /** GET /: title and version; never gated by readiness. */
  health(): Promise<{ title: string; version: string; commit: string }> {
    return this.#fetch(`${this.#url}/`, { headers: this.#headers }).then((r) => r.json() as Promise<{ title: string; version: string; commit: string }>);
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

function errorMessage(body: unknown, fallback: string): string {
  if (body !== null && typeof body === 'object') {
    const status = (body as { status?: unknown }).status;
    if (status !== null && typeof status === 'object' && typeof (status as { error?: unknown }).error === 'string') {
      return (status as { error: string }).error;
    }
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return typeof body === 'string' && body !== '' ? body : fallback;
}
