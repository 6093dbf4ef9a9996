// The Detail tab: one collection's state, config, vectors, payload indexes, shards and replicas,
// the cluster's state, and its live recall (from /metrics).

import { api, data, enc } from './api.js';
import { $, h, table } from './dom.js';
import { denseVectors, type CollectionInfo } from './collections.js';
import { describeRecall, liveRecall } from './recall.js';

interface ShardsInfo {
  peer_id: number;
  shard_count: number;
  local_shards: { shard_id: number; points_count: number; state: string; shard_key?: unknown }[];
  remote_shards: { shard_id: number; peer_id: number; state: string; shard_key?: unknown }[];
  shard_transfers: { shard_id: number; from: number; to: number; sync: boolean; method?: string }[];
}

type ClusterStatus = { status: 'disabled' } | { status: 'enabled'; peer_id: number; peers: Record<string, { uri: string }>; raft_info: { term: number; commit: number; leader: number | null; role: string | null } };

const text = (v: unknown): string => (v === undefined || v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function row(cells: readonly unknown[], attrs: Record<string, string> = {}): HTMLTableRowElement {
  return h('tr', attrs, ...cells.map((c) => h('td', {}, text(c))));
}

/** Nested settings as dotted keys: hnsw_config.m = 16. Arrays and leaves are one value each. */
function flatten(value: unknown, prefix: string, out: [string, unknown][]): [string, unknown][] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
  } else out.push([prefix, value]);
  return out;
}

function renderInfo(name: string, info: CollectionInfo): void {
  $('detail-title').textContent = name;
  $('detail-overview').replaceChildren(
    table('kv', ['', ''], [
      row(['status', info.status], { 'data-key': 'status' }),
      row(['optimizer status', info.optimizer_status]),
      row(['points', info.points_count], { 'data-key': 'points' }),
      row(['indexed vectors', info.indexed_vectors_count]),
      row(['segments', info.segments_count]),
    ]),
  );
  const vectors = denseVectors(info.config.params).map(([n, p]) =>
    row([n === '' ? '(unnamed)' : n, p.size, p.distance, p.datatype ?? 'float32', p.on_disk ?? false, p.multivector_config ?? 'no', p.hnsw_config ?? 'collection', p.quantization_config ?? 'collection'], { 'data-vector': n }),
  );
  for (const [n, p] of Object.entries(info.config.params.sparse_vectors ?? {})) vectors.push(row([n, 'sparse', 'Dot', '', '', '', p, ''], { 'data-vector': n }));
  $('detail-vectors').replaceChildren(table('', ['Name', 'Size', 'Distance', 'Datatype', 'On disk', 'Multivector', 'HNSW', 'Quantization'], vectors));
  const indexes = Object.entries(info.payload_schema).map(([field, s]) => row([field, s.data_type, s.points, s.params], { 'data-field': field }));
  $('detail-indexes').replaceChildren(indexes.length === 0 ? h('p', { class: 'muted' }, 'No payload indexes.') : table('', ['Field', 'Type', 'Points', 'Parameters'], indexes));
  const settings = flatten(info.config, '', []).filter(([k]) => !k.startsWith('params.vectors') && !k.startsWith('params.sparse_vectors'));
  $('detail-config').replaceChildren(table('kv', ['Setting', 'Value'], settings.map(([k, v]) => row([k, v], { 'data-key': k }))));
}

function renderShards(s: ShardsInfo): void {
  const rows = [
    ...s.local_shards.map((l) => row([l.shard_id, `this peer (${s.peer_id})`, l.state, l.points_count], { 'data-shard': String(l.shard_id) })),
    ...s.remote_shards.map((r) => row([r.shard_id, `peer ${r.peer_id}`, r.state, ''], { 'data-shard': String(r.shard_id) })),
  ].sort((a, b) => Number(a.dataset.shard) - Number(b.dataset.shard));
  const transfers = s.shard_transfers.map((t) => row([t.shard_id, t.from, t.to, t.sync, t.method]));
  $('detail-shards').replaceChildren(
    h('p', {}, `${s.shard_count} shard${s.shard_count === 1 ? '' : 's'}; ${s.local_shards.length} local replica${s.local_shards.length === 1 ? '' : 's'}, ${s.remote_shards.length} remote.`),
    table('', ['Shard', 'Replica on', 'State', 'Points'], rows),
    transfers.length === 0 ? h('p', { class: 'muted' }, 'No shard transfers.') : table('', ['Shard', 'From', 'To', 'Sync', 'Method'], transfers),
  );
}

function renderCluster(c: ClusterStatus): void {
  if (c.status === 'disabled') {
    $('detail-cluster').replaceChildren(h('p', { 'data-cluster': 'disabled' }, 'Cluster mode is off: a single node.'));
    return;
  }
  const peers = Object.entries(c.peers).map(([id, p]) => row([id, p.uri, Number(id) === c.raft_info.leader ? 'controller' : '', Number(id) === c.peer_id ? 'this peer' : '']));
  $('detail-cluster').replaceChildren(
    h('p', { 'data-cluster': 'enabled' }, `Cluster mode: this peer ${c.peer_id}, role ${text(c.raft_info.role)}, term ${c.raft_info.term}.`),
    table('', ['Peer', 'URI', '', ''], peers),
  );
}

async function loadRecall(name: string): Promise<void> {
  const out = $('detail-recall');
  try {
    const metrics = await api<unknown>('GET', '/metrics');
    out.textContent = describeRecall(liveRecall(typeof metrics === 'string' ? metrics : '', name));
  } catch (err) {
    out.textContent = `unavailable (${err instanceof Error ? err.message : String(err)})`;
  }
}

export async function loadDetail(): Promise<void> {
  const name = $<HTMLSelectElement>('detail-collection').value;
  if (name === '') throw new Error('no collection selected');
  $('detail-body').hidden = true;
  const [info, shards, cluster] = await Promise.all([
    data<CollectionInfo>('GET', `/collections/${enc(name)}`),
    data<ShardsInfo>('GET', `/collections/${enc(name)}/cluster`),
    data<ClusterStatus>('GET', '/cluster'),
  ]);
  renderInfo(name, info);
  renderShards(shards);
  renderCluster(cluster);
  await loadRecall(name);
  $('detail-body').hidden = false;
  $('detail-body').dataset.collection = name;
}
