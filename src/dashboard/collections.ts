// The Collections tab: every collection with its count, status, vectors and indexes; create and
// delete; the way into a collection's detail, points, query and map.

import { attempt, data, enc } from './api.js';
import { $, button, fillSelect, fillTable, h, show } from './dom.js';
import { openTab } from './tabs.js';

export interface VectorParams {
  size?: number;
  distance?: string;
  on_disk?: boolean;
  datatype?: string;
  multivector_config?: unknown;
  hnsw_config?: unknown;
  quantization_config?: unknown;
}

export interface CollectionInfo {
  status: string;
  optimizer_status?: unknown;
  points_count: number | null;
  indexed_vectors_count?: number | null;
  segments_count?: number;
  config: {
    params: { vectors?: VectorParams | Record<string, VectorParams>; sparse_vectors?: Record<string, unknown>; [k: string]: unknown };
    [section: string]: unknown;
  };
  payload_schema: Record<string, { data_type: string; points?: number; params?: unknown }>;
}

/** The collection's dense vectors by name ('' for the unnamed one). */
export function denseVectors(params: CollectionInfo['config']['params']): [string, VectorParams][] {
  const v = params.vectors;
  if (v === undefined) return [];
  if (typeof (v as VectorParams).size === 'number') return [['', v as VectorParams]];
  return Object.entries(v as Record<string, VectorParams>);
}

function describeVectors(v: CollectionInfo['config']['params']): string {
  const one = (p: VectorParams): string => `${p.size ?? '?'} · ${p.distance ?? '?'}`;
  const parts = denseVectors(v).map(([name, p]) => (name === '' ? one(p) : `${name}: ${one(p)}`));
  for (const name of Object.keys(v.sparse_vectors ?? {})) parts.push(`${name}: sparse`);
  return parts.join('\n') || '(none)';
}

function describeSchema(s: CollectionInfo['payload_schema']): string {
  const entries = Object.entries(s);
  if (entries.length === 0) return '(no indexes)';
  return entries.map(([field, info]) => `${field}: ${info.data_type}${info.points !== undefined ? ` (${info.points})` : ''}`).join('\n');
}

/** The selects that pick a collection, one per tab that works on one. */
const COLLECTION_SELECTS = ['points-collection', 'query-collection', 'detail-collection', 'map-collection'];

export async function refreshCollections(): Promise<void> {
  const list = await data<{ collections: { name: string }[] }>('GET', '/collections');
  const names = list.collections.map((c) => c.name).sort();
  const infos = await Promise.all(names.map((n) => data<CollectionInfo>('GET', `/collections/${enc(n)}`).catch((e: unknown) => e)));
  const rows = names.map((name, i) => {
    const info = infos[i];
    const actions = h(
      'div',
      { class: 'actions' },
      button('Detail', () => openTab('detail', name)),
      button('Browse', () => openTab('points', name)),
      button('Query', () => openTab('query', name)),
      button('Map', () => openTab('map', name)),
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
  fillTable('collections-table', rows);
  $('collections-empty').hidden = rows.length > 0;
  for (const id of COLLECTION_SELECTS) fillSelect(id, names);
}

export async function createCollection(): Promise<void> {
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
