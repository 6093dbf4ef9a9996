// The dashboard's script: plain DOM, no framework, talking to the same REST API the clients use.
// The credential (an API key, or the admin JWT that the admin password logs in for) lives only in
// this module's memory: never in localStorage, sessionStorage or a cookie, so closing or reloading
// the tab signs out. Data from the server is written with textContent only, never as HTML.

type Held = { kind: 'api-key' | 'jwt'; token: string };

let credential: Held | null = null;

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// ---------- DOM helpers ----------

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`missing element #${id}`);
  return el as T;
}

type Child = Node | string | null;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

function button(label: string, onClick: () => void, cls = 'secondary'): HTMLButtonElement {
  const b = h('button', { type: 'button', class: cls }, label);
  b.addEventListener('click', onClick);
  return b;
}

function pre(value: unknown): HTMLElement {
  return h('pre', {}, value === undefined ? '' : JSON.stringify(value, null, 2));
}

function show(kind: 'ok' | 'error', text: string): void {
  const m = $('message');
  m.dataset.kind = kind;
  m.textContent = text;
  m.hidden = false;
}

function clearMessage(): void {
  $('message').hidden = true;
}

// ---------- API ----------

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

/** One call to the API with the credential in memory; a failure throws with the server's message. */
async function api<T>(method: string, path: string, body?: unknown, withCredential = true): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (withCredential && credential !== null) {
    if (credential.kind === 'jwt') headers.authorization = `Bearer ${credential.token}`;
    else headers['api-key'] = credential.token;
  }
  const init: RequestInit = { method, headers, credentials: 'omit', cache: 'no-store' };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(parsed, res.status));
  return parsed as T;
}

/** A data endpoint's `result`, out of Qdrant's envelope. */
async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await api<{ result: T }>(method, path, body)).result;
}

const enc = encodeURIComponent;

/** Runs an action, showing its failure (and what to do about a 401/403) in the message bar. */
async function attempt(what: string, action: () => Promise<void>): Promise<void> {
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

// ---------- session ----------

function renderSession(): void {
  $('login-form').hidden = credential !== null;
  $('session').hidden = credential === null;
  $('who').textContent = credential === null ? '' : credential.kind === 'jwt' ? 'Signed in as admin (JWT)' : 'Using an API key';
}

async function signIn(kind: string, value: string): Promise<void> {
  if (value === '') throw new Error('enter an API key or the admin password');
  if (kind === 'password') {
    const res = await api<{ token: string }>('POST', '/auth/login', { username: 'admin', password: value }, false);
    credential = { kind: 'jwt', token: res.token };
  } else {
    credential = { kind: 'api-key', token: value };
  }
  renderSession();
}

function signOut(): void {
  credential = null;
  renderSession();
  for (const id of ['collections-table', 'points-table', 'query-table', 'keys-table']) $(id).querySelector('tbody')?.replaceChildren();
  $('new-key').hidden = true;
  show('ok', 'Signed out.');
}

// ---------- collections ----------

interface VectorParams {
  size?: number;
  distance?: string;
}

interface CollectionInfo {
  status: string;
  points_count: number | null;
  config: { params: { vectors?: VectorParams | Record<string, VectorParams>; sparse_vectors?: Record<string, unknown> } };
  payload_schema: Record<string, { data_type: string; points?: number }>;
}

let collectionNames: string[] = [];

function describeVectors(v: CollectionInfo['config']['params']): string {
  const one = (p: VectorParams): string => `${p.size ?? '?'} · ${p.distance ?? '?'}`;
  const parts: string[] = [];
  if (v.vectors !== undefined) {
    if (typeof (v.vectors as VectorParams).size === 'number') parts.push(one(v.vectors as VectorParams));
    else for (const [name, p] of Object.entries(v.vectors as Record<string, VectorParams>)) parts.push(`${name}: ${one(p)}`);
  }
  for (const name of Object.keys(v.sparse_vectors ?? {})) parts.push(`${name}: sparse`);
  return parts.join('\n') || '(none)';
}

function describeSchema(s: CollectionInfo['payload_schema']): string {
  const entries = Object.entries(s);
  if (entries.length === 0) return '(no indexes)';
  return entries.map(([field, info]) => `${field}: ${info.data_type}${info.points !== undefined ? ` (${info.points})` : ''}`).join('\n');
}

function fillSelect(id: string, names: readonly string[]): void {
  const sel = $<HTMLSelectElement>(id);
  const keep = sel.value;
  sel.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
  if (names.includes(keep)) sel.value = keep;
}

async function refreshCollections(): Promise<void> {
  const list = await data<{ collections: { name: string }[] }>('GET', '/collections');
  collectionNames = list.collections.map((c) => c.name).sort();
  const infos = await Promise.all(collectionNames.map((n) => data<CollectionInfo>('GET', `/collections/${enc(n)}`).catch((e: unknown) => e)));
  const rows = collectionNames.map((name, i) => {
    const info = infos[i];
    const actions = h(
      'div',
      { class: 'actions' },
      button('Browse', () => openTab('points', name)),
      button('Query', () => openTab('query', name)),
      button('Delete', () => void attempt('Delete collection', () => deleteCollection(name)), 'danger'),
    );
    if (!(typeof info === 'object' && info !== null && 'status' in info)) {
      return h('tr', { 'data-name': name }, h('td', {}, name), h('td', { colspan: '4' }, info instanceof Error ? info.message : 'unavailable'), h('td', {}, actions));
    }
    const c = info as CollectionInfo;
    return h(
      'tr',
      { 'data-name': name },
      h('td', {}, h('strong', {}, name)),
      h('td', { class: 'num' }, String(c.points_count ?? 0)),
      h('td', { class: `status-${c.status}` }, c.status),
      h('td', {}, h('pre', {}, describeVectors(c.config.params))),
      h('td', {}, h('pre', {}, describeSchema(c.payload_schema))),
      h('td', {}, actions),
    );
  });
  $('collections-table').querySelector('tbody')?.replaceChildren(...rows);
  $('collections-empty').hidden = rows.length > 0;
  fillSelect('points-collection', collectionNames);
  fillSelect('query-collection', collectionNames);
}

async function createCollection(): Promise<void> {
  const name = $<HTMLInputElement>('new-name').value.trim();
  const size = Number($<HTMLInputElement>('new-size').value);
  const distance = $<HTMLSelectElement>('new-distance').value;
  await data('PUT', `/collections/${enc(name)}`, { vectors: { size, distance } });
  $<HTMLInputElement>('new-name').value = '';
  await refreshCollections();
  show('ok', `Collection ${name} created.`);
}

async function deleteCollection(name: string): Promise<void> {
  if (!window.confirm(`Delete collection ${name} and all its points?`)) return;
  await data('DELETE', `/collections/${enc(name)}`);
  await refreshCollections();
  show('ok', `Collection ${name} deleted.`);
}

// ---------- points ----------

type PointId = number | string;

interface ScrollPage {
  points: { id: PointId; payload?: Record<string, unknown> | null; vector?: unknown }[];
  next_page_offset: PointId | null;
}

const paging: { offset: PointId | null; next: PointId | null; page: number } = { offset: null, next: null, page: 0 };

/** A JSON box's value, or undefined when empty; bad JSON is the caller's mistake, named as such. */
function jsonBox(id: string, what: string): unknown {
  const text = $<HTMLTextAreaElement | HTMLInputElement>(id).value.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${what} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function shortVector(v: unknown): string {
  const fmt = (a: number[]): string => `[${a.slice(0, 4).map((x) => x.toFixed(3)).join(', ')}${a.length > 4 ? `, … ${a.length} dims` : ''}]`;
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return fmt(v as number[]);
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${Array.isArray(x) && x.every((y) => typeof y === 'number') ? fmt(x as number[]) : 'sparse'}`)
      .join('\n');
  }
  return '';
}

async function scroll(from: PointId | null, page: number): Promise<void> {
  const name = $<HTMLSelectElement>('points-collection').value;
  if (name === '') throw new Error('no collection selected');
  const filter = jsonBox('points-filter', 'Filter');
  const limit = Number($<HTMLInputElement>('points-limit').value) || 10;
  const body: Record<string, unknown> = { limit, with_payload: true, with_vector: true };
  if (filter !== undefined) body.filter = filter;
  if (from !== null) body.offset = from;
  const res = await data<ScrollPage>('POST', `/collections/${enc(name)}/points/scroll`, body);
  paging.offset = from;
  paging.next = res.next_page_offset;
  paging.page = page;
  const rows = res.points.map((p) =>
    h('tr', { 'data-id': String(p.id) }, h('td', { class: 'num' }, String(p.id)), h('td', {}, pre(p.payload ?? {})), h('td', {}, h('pre', {}, shortVector(p.vector)))),
  );
  $('points-table').querySelector('tbody')?.replaceChildren(...rows);
  $<HTMLButtonElement>('points-next').disabled = res.next_page_offset === null;
  $('points-page').textContent = `${name}: page ${page}, ${res.points.length} point${res.points.length === 1 ? '' : 's'}${res.next_page_offset === null ? ' (last page)' : ''}`;
}

async function upsertPoints(): Promise<void> {
  const name = $<HTMLSelectElement>('points-collection').value;
  const value = jsonBox('points-upsert', 'Points');
  if (value === undefined) throw new Error('enter a JSON array of points');
  const points = Array.isArray(value) ? value : (value as { points?: unknown }).points;
  await data('PUT', `/collections/${enc(name)}/points?wait=true`, { points });
  $<HTMLTextAreaElement>('points-upsert').value = '';
  show('ok', `Upserted ${Array.isArray(points) ? points.length : 0} point(s) into ${name}.`);
  await scroll(null, 1);
  await refreshCollections();
}

// ---------- query ----------

/** A vector as a JSON array, an unsigned integer id, or a UUID id. */
function parseQuery(text: string): number[] | PointId {
  const t = text.trim();
  if (t === '') throw new Error('enter a vector (JSON array) or a point id');
  if (t.startsWith('[')) {
    const v = JSON.parse(t) as unknown;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw new Error('a vector is a JSON array of numbers');
    return v as number[];
  }
  if (/^\d+$/.test(t)) return Number(t);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t)) return t;
  throw new Error(`"${t}" is neither a JSON array nor a point id`);
}

async function runQuery(): Promise<void> {
  const name = $<HTMLSelectElement>('query-collection').value;
  if (name === '') throw new Error('no collection selected');
  const body: Record<string, unknown> = {
    query: parseQuery($<HTMLInputElement>('query-input').value),
    limit: Number($<HTMLInputElement>('query-limit').value) || 10,
    with_payload: true,
  };
  const filter = jsonBox('query-filter', 'Filter');
  if (filter !== undefined) body.filter = filter;
  const using = $<HTMLInputElement>('query-using').value.trim();
  if (using !== '') body.using = using;
  const res = await data<{ points: { id: PointId; score: number; payload?: unknown }[] }>('POST', `/collections/${enc(name)}/points/query`, body);
  const rows = res.points.map((p, i) =>
    h('tr', { 'data-id': String(p.id) }, h('td', { class: 'num' }, String(i + 1)), h('td', { class: 'num' }, String(p.id)), h('td', { class: 'num score' }, p.score.toFixed(4)), h('td', {}, pre(p.payload ?? {}))),
  );
  $('query-table').querySelector('tbody')?.replaceChildren(...rows);
  show('ok', `${res.points.length} result${res.points.length === 1 ? '' : 's'} from ${name}.`);
}

// ---------- access (admins) ----------

interface KeyInfo {
  id: number;
  name: string;
  permission: string;
  created_at: string;
  expired_at: string | null;
}

/** Whether auth is on, as an anonymous caller sees it: a data read without a credential. */
async function probeAuth(): Promise<void> {
  const res = await fetch('/collections', { credentials: 'omit', cache: 'no-store' });
  $('auth-state').textContent = res.status === 401 ? 'enabled' : res.ok ? 'disabled' : `unknown (HTTP ${res.status})`;
}

async function setAuth(enabled: boolean): Promise<void> {
  if (credential?.kind !== 'jwt') throw new Error('switching auth needs the admin password: sign in with it first');
  await data('PATCH', '/auth/enabled', { enabled });
  await probeAuth();
  show('ok', `Auth ${enabled ? 'enabled' : 'disabled'}.`);
}

async function refreshKeys(): Promise<void> {
  const keys = await api<KeyInfo[]>('GET', '/auth/api_keys');
  const rows = keys.map((k) =>
    h(
      'tr',
      { 'data-key-id': String(k.id) },
      h('td', { class: 'num' }, String(k.id)),
      h('td', {}, k.name),
      h('td', {}, k.permission),
      h('td', {}, k.created_at),
      h('td', {}, k.expired_at ?? 'never'),
      h('td', {}, button('Delete', () => void attempt('Delete key', () => deleteKey(k.id)), 'danger')),
    ),
  );
  $('keys-table').querySelector('tbody')?.replaceChildren(...rows);
}

async function createKey(): Promise<void> {
  const perms = ['read', 'write', 'admin'].filter((p) => $<HTMLInputElement>(`perm-${p}`).checked);
  if (perms.length === 0) throw new Error('choose at least one permission');
  const body: Record<string, unknown> = { name: $<HTMLInputElement>('key-name').value.trim(), permission: perms.join(',') };
  const expires = $<HTMLInputElement>('key-expires').value.trim();
  if (expires !== '') Object.assign(body, { will_expire: true, expires_in_seconds: Number(expires) });
  const created = await api<{ id: number; api_key: string }>('POST', '/auth/api_key', body);
  $('new-key-value').textContent = created.api_key;
  $('new-key').hidden = false;
  $<HTMLInputElement>('key-name').value = '';
  await refreshKeys();
  show('ok', `Key ${created.id} created.`);
}

async function deleteKey(id: number): Promise<void> {
  if (!window.confirm(`Delete API key ${id}? Clients using it stop working at once.`)) return;
  await api('DELETE', `/auth/api_key/${id}`);
  await refreshKeys();
  show('ok', `Key ${id} deleted.`);
}

// ---------- tabs and wiring ----------

const TABS = ['collections', 'points', 'query', 'access'] as const;
type Tab = (typeof TABS)[number];

function openTab(tab: Tab, collection?: string): void {
  clearMessage();
  for (const t of TABS) {
    $(`tab-${t}`).hidden = t !== tab;
    document.querySelector(`nav button[data-tab="${t}"]`)?.classList.toggle('active', t === tab);
  }
  if (collection !== undefined) {
    if (tab === 'points') $<HTMLSelectElement>('points-collection').value = collection;
    if (tab === 'query') $<HTMLSelectElement>('query-collection').value = collection;
  }
  if (tab === 'points' && collection !== undefined) void attempt('Scroll', () => scroll(null, 1));
  if (tab === 'access') {
    void attempt('Auth state', probeAuth);
    if (credential !== null) void attempt('API keys', refreshKeys);
  }
}

function onSubmit(id: string, what: string, action: () => Promise<void>): void {
  $(id).addEventListener('submit', (ev) => {
    ev.preventDefault();
    void attempt(what, action);
  });
}

function onClick(id: string, what: string, action: () => Promise<void>): void {
  $(id).addEventListener('click', () => void attempt(what, action));
}

function start(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('nav button[data-tab]')) {
    b.addEventListener('click', () => openTab(b.dataset.tab as Tab));
  }
  onSubmit('login-form', 'Sign in', async () => {
    const input = $<HTMLInputElement>('cred-value');
    await signIn($<HTMLSelectElement>('cred-kind').value, input.value);
    input.value = '';
    try {
      await refreshCollections();
      show('ok', credential?.kind === 'jwt' ? 'Signed in as admin.' : 'Signed in with the API key.');
    } catch (err) {
      // A key that cannot list collections may still be an admin-only key: keep it, say so.
      if (err instanceof ApiError && err.status === 401) {
        credential = null;
        renderSession();
      }
      throw err;
    }
  });
  $('logout').addEventListener('click', signOut);
  onClick('refresh-collections', 'Collections', refreshCollections);
  onSubmit('create-collection', 'Create collection', createCollection);
  onClick('points-scroll', 'Scroll', () => scroll(null, 1));
  onClick('points-next', 'Next page', () => scroll(paging.next, paging.page + 1));
  onClick('points-upsert-go', 'Upsert', upsertPoints);
  onClick('query-run', 'Query', runQuery);
  onClick('auth-enable', 'Enable auth', () => setAuth(true));
  onClick('auth-disable', 'Disable auth', () => setAuth(false));
  onSubmit('create-key', 'Create key', createKey);
  onClick('refresh-keys', 'API keys', refreshKeys);
  renderSession();
  void attempt('Collections', refreshCollections);
}

start();

// An ES module (the page loads it with type="module"): its names stay out of the global scope.
export {};
