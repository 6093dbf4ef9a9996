// The Console tab: any REST request (method, path, JSON body) with the credential in memory, the
// answer as it came (status, time, body), and a history of this page's requests to send again.
// The history is kept in memory like the credential, so it goes with the tab.

import { request } from './api.js';
import { $, button, h } from './dom.js';

interface Sent {
  method: string;
  path: string;
  body: string;
  status: number;
  ms: number;
}

const history: Sent[] = [];
const HISTORY_MAX = 50;

function fill(s: Pick<Sent, 'method' | 'path' | 'body'>): void {
  $<HTMLSelectElement>('console-method').value = s.method;
  $<HTMLInputElement>('console-path').value = s.path;
  $<HTMLTextAreaElement>('console-body').value = s.body;
}

function renderHistory(): void {
  const items = history.map((s, i) => {
    const again = button(`${s.method} ${s.path}`, () => fill(s));
    again.title = s.body === '' ? 'Put this request back in the console' : s.body;
    return h('li', { 'data-index': String(i), 'data-status': String(s.status) }, again, h('span', { class: `muted http-${Math.floor(s.status / 100)}xx` }, ` ${s.status} · ${s.ms.toFixed(0)} ms`));
  });
  $('console-history').replaceChildren(...items);
  $('console-history-empty').hidden = items.length > 0;
}

export async function send(): Promise<void> {
  const method = $<HTMLSelectElement>('console-method').value;
  let path = $<HTMLInputElement>('console-path').value.trim();
  const text = $<HTMLTextAreaElement>('console-body').value.trim();
  if (path === '') throw new Error('enter a path, such as /collections');
  // Paths only, to this server: the page's CSP would refuse another origin anyway.
  if (!path.startsWith('/')) path = `/${path}`;
  if (text !== '') {
    try {
      JSON.parse(text);
    } catch (err) {
      throw new Error(`Body is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const res = await request(method, path, text === '' ? undefined : { text });
  const status = $('console-status');
  status.textContent = `${method} ${path}: HTTP ${res.status} · ${res.ms.toFixed(0)} ms`;
  status.dataset.ok = String(res.ok);
  $('console-response').textContent = typeof res.body === 'string' ? res.body : JSON.stringify(res.body, null, 2);
  history.unshift({ method, path, body: text, status: res.status, ms: res.ms });
  history.length = Math.min(history.length, HISTORY_MAX);
  renderHistory();
}

export function clearHistory(): void {
  history.length = 0;
  renderHistory();
}
