// API keys' collection scopes in the Access tab: the key list's "Collections" cell, and the entry
// editor shared by the creation form and the "Edit scope" form. The server checks patterns,
// permissions and filters; the editor checks only what the page can tell before asking (an
// entry with no collection or no right, a tenant filter that is not JSON).

import { button, h, jsonText } from './dom.js';

/** A scope entry as the API lists and takes it: a collection name or `*` pattern, "read", "write" or "read,write", a tenant filter. */
export interface ScopeEntry {
  collection: string;
  permission: string;
  filter?: unknown;
}

/** The list's cell: "all" for an unscoped key, else one line per entry, its tenant filter behind a marker that opens it. */
export function scopeCell(scope: readonly ScopeEntry[] | undefined): HTMLElement {
  if (scope === undefined) return h('span', { class: 'muted', title: 'Not scoped: every collection, as its permission allows' }, 'all');
  return h(
    'ul',
    { class: 'scope' },
    ...scope.map((e) =>
      h(
        'li',
        {},
        h('code', {}, e.collection),
        `: ${e.permission}`,
        e.filter === undefined ? null : tenant(JSON.stringify(e.filter)),
      ),
    ),
  );
}

/** A tenant filter behind a marker: its JSON on one (wrapping) line, which a filter's few conditions fit. */
function tenant(json: string): HTMLElement {
  return h('details', { class: 'tenant' }, h('summary', { title: json }, 'tenant filter'), h('pre', {}, json));
}

const RIGHTS = ['read', 'write'] as const;

/** The entries of one form: a row each, added and removed by the admin. */
export class ScopeEditor {
  constructor(
    private readonly list: HTMLElement,
    /** Called when the number of entries changes (the permission's legend depends on it). */
    private readonly changed: () => void = () => undefined,
  ) {}

  get size(): number {
    return this.list.children.length;
  }

  /** One more entry, read only by default. */
  add(e: ScopeEntry = { collection: '', permission: 'read' }): void {
    const granted = e.permission.split(',');
    const boxes = RIGHTS.map((r) => {
      const box = h('input', { type: 'checkbox', class: `scope-${r}` });
      box.checked = granted.includes(r);
      return h('label', {}, box, ` ${r}`);
    });
    const name = h('input', { class: 'scope-collection', placeholder: 'orders or orders_*', spellcheck: 'false', 'aria-label': 'Collection name or pattern' });
    name.value = e.collection;
    const filter = h('textarea', {
      class: 'scope-filter',
      rows: '2',
      spellcheck: 'false',
      'aria-label': 'Tenant filter',
      placeholder: 'Tenant filter (JSON, optional): {"must": [{"key": "tenant", "match": {"value": "acme"}}]}',
    });
    filter.value = e.filter === undefined ? '' : JSON.stringify(e.filter);
    const row = h('div', { class: 'scope-entry' }, name, ...boxes, filter);
    row.append(
      button('Remove', () => {
        row.remove();
        this.changed();
      }),
    );
    this.list.append(row);
    this.changed();
  }

  /** The entries replaced by these (none: the form starts unscoped). */
  set(entries: readonly ScopeEntry[]): void {
    this.list.replaceChildren();
    for (const e of entries) this.add(e);
    this.changed();
  }

  /** The entries as the API takes them; throws naming the entry when one is incomplete or its filter is not JSON. */
  entries(): ScopeEntry[] {
    return [...this.list.querySelectorAll<HTMLElement>('.scope-entry')].map((row, i) => {
      const collection = row.querySelector<HTMLInputElement>('.scope-collection')?.value.trim() ?? '';
      const what = `collection ${i + 1}${collection === '' ? '' : ` (${collection})`}`;
      if (collection === '') throw new Error(`${what}: name a collection or a pattern with *`);
      const permission = RIGHTS.filter((r) => row.querySelector<HTMLInputElement>(`.scope-${r}`)?.checked === true).join(',');
      if (permission === '') throw new Error(`${what}: choose read, write or both`);
      const filter = jsonText(row.querySelector<HTMLTextAreaElement>('.scope-filter')?.value ?? '', `${what}: the tenant filter`);
      return { collection, permission, ...(filter === undefined ? {} : { filter }) };
    });
  }
}
