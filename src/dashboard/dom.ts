// DOM helpers shared by the dashboard's tabs. Server data goes in through textContent (h's
// children, pre) only, never as HTML.

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`missing element #${id}`);
  return el as T;
}

type Child = Node | string | null;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== null) el.append(c);
  return el;
}

export function button(label: string, onClick: () => void, cls = 'secondary'): HTMLButtonElement {
  const b = h('button', { type: 'button', class: cls }, label);
  b.addEventListener('click', onClick);
  return b;
}

export function pre(value: unknown): HTMLElement {
  return h('pre', {}, value === undefined ? '' : JSON.stringify(value, null, 2));
}

export function show(kind: 'ok' | 'error', text: string): void {
  const m = $('message');
  m.dataset.kind = kind;
  m.textContent = text;
  m.hidden = false;
}

export function clearMessage(): void {
  $('message').hidden = true;
}

export function fillSelect(id: string, names: readonly string[]): void {
  const sel = $<HTMLSelectElement>(id);
  const keep = sel.value;
  sel.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
  if (names.includes(keep)) sel.value = keep;
}

/** A JSON box's value, or undefined when empty; bad JSON is the caller's mistake, named as such. */
export function jsonBox(id: string, what: string): unknown {
  return jsonText($<HTMLTextAreaElement | HTMLInputElement>(id).value, what);
}

/** Typed JSON's value, or undefined when empty (the boxes built on the fly have no id). */
export function jsonText(raw: string, what: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${what} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** A table body's rows replaced. */
export function fillTable(id: string, rows: readonly HTMLTableRowElement[]): void {
  $(id).querySelector('tbody')?.replaceChildren(...rows);
}

/** A header row and body rows as one table, for the panels built on the fly. */
export function table(cls: string, head: readonly string[], rows: readonly HTMLTableRowElement[]): HTMLTableElement {
  return h('table', { class: cls }, h('thead', {}, h('tr', {}, ...head.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows));
}
