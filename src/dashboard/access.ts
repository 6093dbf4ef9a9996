// The Access tab (admins): the auth switch, and API keys: create (shown once), list, change a
// key's collection scope, delete.

import { api, attempt, data, held, onClick, onSubmit } from './api.js';
import { $, button, fillTable, h, show } from './dom.js';
import { ScopeEditor, scopeCell, type ScopeEntry } from './scope.js';

interface KeyInfo {
  id: number;
  name: string;
  /** A scoped key's rights outside collections; may then be "". */
  permission: string;
  created_at: string;
  expired_at: string | null;
  /** Present on a scoped key only. */
  scope?: ScopeEntry[];
}

const PERMS = ['read', 'write', 'admin'] as const;

/** The permission boxes of a form (ids `${prefix}-read` and so on) as the API writes a permission. */
function checkedPerms(prefix: string): string {
  return PERMS.filter((p) => $<HTMLInputElement>(`${prefix}-${p}`).checked).join(',');
}

function setPerms(prefix: string, permission: string): void {
  const granted = permission.split(',');
  for (const p of PERMS) $<HTMLInputElement>(`${prefix}-${p}`).checked = granted.includes(p);
}

/** With collections listed the permission means only the rights outside them: the legend says which. */
function legendFollows(legend: string): () => void {
  return () => {
    $(legend).textContent = $(legend).closest('form')?.querySelector('.scope-entry') ? 'Permission outside collections' : 'Permission';
  };
}

let creating: ScopeEditor | null = null;
let editing: ScopeEditor | null = null;

/** The Access tab's buttons and forms. */
export function wireAccess(): void {
  creating = new ScopeEditor($('key-scope'), legendFollows('key-perm-legend'));
  editing = new ScopeEditor($('edit-key-scope'), legendFollows('edit-perm-legend'));
  onClick('auth-enable', 'Enable auth', () => setAuth(true));
  onClick('auth-disable', 'Disable auth', () => setAuth(false));
  onSubmit('create-key', 'Create key', createKey);
  onClick('key-add-entry', 'Scope', async () => creating?.add());
  onClick('refresh-keys', 'API keys', refreshKeys);
  onSubmit('edit-key', 'Edit scope', saveScope);
  onClick('edit-key-add-entry', 'Scope', async () => editing?.add());
  onClick('edit-key-cancel', 'Edit scope', async () => closeEdit());
}

/** Whether auth is on, as an anonymous caller sees it: a data read without a credential. */
export async function probeAuth(): Promise<void> {
  const res = await fetch('/collections', { credentials: 'omit', cache: 'no-store' });
  $('auth-state').textContent = res.status === 401 ? 'enabled' : res.ok ? 'disabled' : `unknown (HTTP ${res.status})`;
}

export async function setAuth(enabled: boolean): Promise<void> {
  if (held()?.kind !== 'jwt') throw new Error('switching auth needs the admin password: sign in with it first');
  await data('PATCH', '/auth/enabled', { enabled });
  await probeAuth();
  show('ok', `Auth ${enabled ? 'enabled' : 'disabled'}.`);
}

export async function refreshKeys(): Promise<void> {
  const keys = await api<KeyInfo[]>('GET', '/auth/api_keys');
  const rows = keys.map((k) =>
    h(
      'tr',
      { 'data-key-id': String(k.id) },
      h('td', { class: 'num' }, String(k.id)),
      h('td', {}, k.name),
      // A scoped key may have no rights outside its collections.
      k.permission === '' ? h('td', { class: 'muted' }, 'none') : h('td', {}, k.permission),
      h('td', {}, scopeCell(k.scope)),
      h('td', {}, k.created_at),
      h('td', {}, k.expired_at ?? 'never'),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'actions' },
          button('Edit scope', () => openEdit(k)),
          button('Delete', () => void attempt('Delete key', () => deleteKey(k.id)), 'danger'),
        ),
      ),
    ),
  );
  fillTable('keys-table', rows);
}

export async function createKey(): Promise<void> {
  const scope = creating?.entries() ?? [];
  const permission = checkedPerms('perm');
  if (permission === '' && scope.length === 0) throw new Error('choose at least one permission, or add the collections the key may use');
  const body: Record<string, unknown> = { name: $<HTMLInputElement>('key-name').value.trim() };
  // A scoped key may go without a permission: then it has no rights outside its collections.
  if (permission !== '') body.permission = permission;
  if (scope.length > 0) body.scope = scope;
  const expires = $<HTMLInputElement>('key-expires').value.trim();
  if (expires !== '') Object.assign(body, { will_expire: true, expires_in_seconds: Number(expires) });
  const created = await api<{ id: number; api_key: string }>('POST', '/auth/api_key', body);
  $('new-key-value').textContent = created.api_key;
  $('new-key').hidden = false;
  $<HTMLInputElement>('key-name').value = '';
  creating?.set([]);
  await refreshKeys();
  show('ok', `Key ${created.id} created.`);
}

function openEdit(k: KeyInfo): void {
  const form = $<HTMLFormElement>('edit-key');
  form.dataset.keyId = String(k.id);
  form.dataset.permission = k.permission;
  $('edit-key-title').textContent = `Scope of key ${k.id} (${k.name})`;
  setPerms('edit-perm', k.permission);
  editing?.set(k.scope ?? []);
  form.hidden = false;
  form.scrollIntoView({ block: 'nearest' });
}

export function closeEdit(): void {
  $('edit-key').hidden = true;
  editing?.set([]);
}

/** PATCH with the scope (none listed: unscoped), and the permission when it changed; the server's 400 stays on screen with the form. */
async function saveScope(): Promise<void> {
  const form = $<HTMLFormElement>('edit-key');
  const id = Number(form.dataset.keyId);
  const scope = editing?.entries() ?? [];
  const body: Record<string, unknown> = { scope: scope.length === 0 ? null : scope };
  const permission = checkedPerms('edit-perm');
  if (permission !== form.dataset.permission) body.permission = permission;
  const k = await api<KeyInfo>('PATCH', `/auth/api_key/${id}`, body);
  closeEdit();
  await refreshKeys();
  show('ok', `Key ${id} updated: ${k.scope === undefined ? 'every collection' : `${k.scope.length} collection(s)`}.`);
}

async function deleteKey(id: number): Promise<void> {
  if (!window.confirm(`Delete API key ${id}? Clients using it stop working at once.`)) return;
  await api('DELETE', `/auth/api_key/${id}`);
  if ($('edit-key').dataset.keyId === String(id)) closeEdit();
  await refreshKeys();
  show('ok', `Key ${id} deleted.`);
}
