// The Points tab: a collection a page at a time (with an optional filter), each point's payload
// and the start of its vector, the full vector on demand, and "Find similar" from any point.

import { attempt, data, enc, type PointId } from './api.js';
import { $, button, fillTable, h, jsonBox, pre, show } from './dom.js';
import { findSimilar } from './query.js';
import { refreshCollections } from './collections.js';


export interface Point {
  id: PointId;
  payload?: Record<string, unknown> | null;
  vector?: unknown;
}

interface ScrollPage {
  points: Point[];
  next_page_offset: PointId | null;
}

const paging: { offset: PointId | null; next: PointId | null; page: number } = { offset: null, next: null, page: 0 };

const isDense = (x: unknown): x is number[] => Array.isArray(x) && x.every((y) => typeof y === 'number');

/** A vector's text: every component (`full`), or the first four and the dimension count. */
export function vectorText(v: unknown, full: boolean): string {
  // String(x) of the parsed number prints the server's float32 shortest decimal back unchanged.
  const fmt = (a: number[]): string =>
    full ? `[${a.map(String).join(', ')}]` : `[${a.slice(0, 4).map((x) => x.toFixed(3)).join(', ')}${a.length > 4 ? `, … ${a.length} dims` : ''}]`;
  if (isDense(v)) return fmt(v);
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${isDense(x) ? fmt(x) : full ? JSON.stringify(x) : 'sparse'}`)
      .join('\n');
  }
  return '';
}

function pointRow(collection: string, p: Point): HTMLTableRowElement {
  const vector = h('pre', { class: 'vector' }, vectorText(p.vector, false));
  const toggle = button('Full vector', () => {
    const full = toggle.textContent === 'Full vector';
    vector.textContent = vectorText(p.vector, full);
    vector.classList.toggle('full', full);
    toggle.textContent = full ? 'Short vector' : 'Full vector';
  });
  toggle.classList.add('full-vector');
  const similar = button('Find similar', () => void attempt('Find similar', () => findSimilar(collection, p.id)));
  similar.classList.add('find-similar');
  return h(
    'tr',
    { 'data-id': String(p.id) },
    h('td', { class: 'num' }, String(p.id)),
    h('td', {}, pre(p.payload ?? {})),
    h('td', {}, vector),
    h('td', {}, h('div', { class: 'actions' }, toggle, similar)),
  );
}

export async function scroll(from: PointId | null, page: number): Promise<void> {
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
  fillTable('points-table', res.points.map((p) => pointRow(name, p)));
  $<HTMLButtonElement>('points-next').disabled = res.next_page_offset === null;
  $('points-page').textContent = `${name}: page ${page}, ${res.points.length} point${res.points.length === 1 ? '' : 's'}${res.next_page_offset === null ? ' (last page)' : ''}`;
}

export function nextPage(): Promise<void> {
  return scroll(paging.next, paging.page + 1);
}

export async function upsertPoints(): Promise<void> {
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
