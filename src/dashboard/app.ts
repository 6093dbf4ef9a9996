// The dashboard's entry: plain DOM, no framework, talking to the same REST API the clients use.
// config/dashboard-bundle.mjs bundles it with its modules into dist/src/dashboard/app.js:
// api.ts (the credential, in memory only), one module per tab, and the map's PCA library.

import { closeEdit, probeAuth, refreshKeys, wireAccess } from './access.js';
import { api, ApiError, attempt, held, hold, onClick, onSubmit } from './api.js';
import { createCollection, refreshCollections } from './collections.js';
import { clearHistory, send } from './console.js';
import { loadDetail } from './detail.js';
import { $, show } from './dom.js';
import { clearMap, drawMap, wireMap } from './map.js';
import { nextPage, scroll, upsertPoints } from './points.js';
import { runQuery } from './query.js';
import { choose, openTab, whenOpened, type Tab } from './tabs.js';

function renderSession(): void {
  const c = held();
  $('login-form').hidden = c !== null;
  $('session').hidden = c === null;
  $('who').textContent = c === null ? '' : c.kind === 'jwt' ? 'Signed in as admin (JWT)' : 'Using an API key';
}

async function signIn(kind: string, value: string): Promise<void> {
  if (value === '') throw new Error('enter an API key or the admin password');
  if (kind === 'password') {
    const res = await api<{ token: string }>('POST', '/auth/login', { username: 'admin', password: value }, false);
    hold({ kind: 'jwt', token: res.token });
  } else {
    hold({ kind: 'api-key', token: value });
  }
  renderSession();
}

function signOut(): void {
  hold(null);
  renderSession();
  for (const id of ['collections-table', 'points-table', 'query-table', 'keys-table']) $(id).querySelector('tbody')?.replaceChildren();
  clearMap();
  $('new-key').hidden = true;
  closeEdit();
  $('detail-body').hidden = true;
  $('console-response').textContent = '';
  clearHistory();
  show('ok', 'Signed out.');
}

function start(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('nav button[data-tab]')) {
    b.addEventListener('click', () => openTab(b.dataset.tab as Tab));
  }
  whenOpened('points', (c) => {
    if (choose('points-collection', c)) void attempt('Scroll', () => scroll(null, 1));
  });
  whenOpened('query', (c) => void choose('query-collection', c));
  whenOpened('detail', (c) => {
    if (choose('detail-collection', c)) void attempt('Detail', loadDetail);
  });
  whenOpened('map', (c) => void choose('map-collection', c));
  whenOpened('access', () => {
    void attempt('Auth state', probeAuth);
    if (held() !== null) void attempt('API keys', refreshKeys);
  });
  onSubmit('login-form', 'Sign in', async () => {
    const input = $<HTMLInputElement>('cred-value');
    await signIn($<HTMLSelectElement>('cred-kind').value, input.value);
    input.value = '';
    try {
      await refreshCollections();
      show('ok', held()?.kind === 'jwt' ? 'Signed in as admin.' : 'Signed in with the API key.');
    } catch (err) {
      // A key that cannot list collections may still be an admin-only key: keep it, say so.
      if (err instanceof ApiError && err.status === 401) {
        hold(null);
        renderSession();
      }
      throw err;
    }
  });
  $('logout').addEventListener('click', signOut);
  onClick('refresh-collections', 'Collections', refreshCollections);
  onSubmit('create-collection', 'Create collection', createCollection);
  onClick('detail-load', 'Detail', loadDetail);
  onClick('points-scroll', 'Scroll', () => scroll(null, 1));
  onClick('points-next', 'Next page', nextPage);
  onClick('points-upsert-go', 'Upsert', upsertPoints);
  onClick('query-run', 'Query', runQuery);
  onClick('map-draw', 'Map', drawMap);
  wireMap();
  onSubmit('console-form', 'Console', send);
  // Enter in the body makes a new line; Ctrl+Enter (Cmd+Enter) sends, as in other consoles.
  $('console-body').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      $<HTMLFormElement>('console-form').requestSubmit();
    }
  });
  onClick('console-clear', 'History', async () => clearHistory());
  wireAccess();
  renderSession();
  void attempt('Collections', refreshCollections);
}

start();
