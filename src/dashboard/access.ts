// The Access tab (admins): the auth switch, and API keys: create (shown once), list, delete.

import { api, attempt, data, held } from './api.js';
import { $, button, fillTable, h, show } from './dom.js';

interface KeyInfo {
  id: number;
  name: string;
  permission: string;
  created_at: string;
  expired_at: string | null;
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
      h('td', {}, k.permission),
      h('td', {}, k.created_at),
      h('td', {}, k.expired_at ?? 'never'),
      h('td', {}, button('Delete', () => void attempt('Delete key', () => deleteKey(k.id)), 'danger')),
    ),
  );
  fillTable('keys-table', rows);
}

export async function createKey(): Promise<void> {
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
