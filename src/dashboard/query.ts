// The Query tab: a vector or a point id ("find similar": the point's own vector, the point left
// out), a limit, an optional filter and vector name; the results with their scores, best first.

import { attempt, data, enc, type PointId } from './api.js';
import { $, button, fillTable, h, jsonBox, pre, show } from './dom.js';
import { openTab } from './tabs.js';

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

export async function runQuery(): Promise<void> {
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
    h(
      'tr',
      { 'data-id': String(p.id) },
      h('td', { class: 'num' }, String(i + 1)),
      h('td', { class: 'num' }, String(p.id)),
      h('td', { class: 'num score' }, p.score.toFixed(4)),
      h('td', {}, pre(p.payload ?? {})),
      h('td', {}, button('Find similar', () => void attempt('Find similar', () => findSimilar(name, p.id)))),
    ),
  );
  fillTable('query-table', rows);
  show('ok', `${res.points.length} result${res.points.length === 1 ? '' : 's'} from ${name}.`);
}

/** The nearest neighbours of a stored point, by its id, in the Query tab (any filter cleared). */
export async function findSimilar(collection: string, id: PointId): Promise<void> {
  openTab('query');
  $<HTMLSelectElement>('query-collection').value = collection;
  $<HTMLInputElement>('query-input').value = String(id);
  $<HTMLTextAreaElement>('query-filter').value = '';
  await runQuery();
}
