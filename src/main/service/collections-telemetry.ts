// GET /telemetry's `collections.collections`, by Qdrant's `details_level`: at 1 one aggregate per
// collection (its vectors, optimizer status, params); from 2 its id, init time and config; from 3
// also its shards (one replica set each: this node's copy as `local`, the others as `remote`,
// every replica's state by peer), transfers and resharding (none); from 4 each local shard's one
// segment (a shard stands for a segment, as in GET /collections/{name}/optimizations). Figures
// come from this node's own copies (ShardInfo): points, vectors by name, stored bytes, memory,
// load time; a shard it holds no Active copy of has no `local`.

import { QuiverError } from '../../shared/errors.js';
import type { ShardInfo } from '../../shared/shard-reports.js';
import { MEMORY_KINDS } from '../../shared/shard-results.js';
import type { CollectionMeta } from '../../shared/types.js';
import type { ClusterView } from '../cluster/view.js';
import type { Engine } from '../engine.js';
import { doCollectionClusterInfo } from './cluster.js';
import { collectionConfigOut } from './collections.js';
import { segmentUuid } from './optimizations.js';

const sum = (xs: Iterable<number>): number => {
  let n = 0;
  for (const x of xs) n += x;
  return n;
};

/** A shard's one segment (level 4): Qdrant's SegmentInfo and SegmentConfig from what the shard holds. */
function segmentOf(meta: CollectionMeta, s: ShardInfo): Record<string, unknown> {
  const c = meta.config;
  const indexing = c.optimizers_config?.indexing_threshold !== 0;
  const vectorData: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(c.vectors)) {
    const graph = indexing && p.multivector_config === undefined;
    vectorData[name] = {
      size: p.size,
      distance: p.distance,
      storage_type: p.on_disk === true ? 'ChunkedMmap' : 'Memory',
      index: graph ? { type: 'hnsw', options: { ...c.hnsw_config, ...p.hnsw_config } } : { type: 'plain', options: {} },
      ...(p.quantization_config ?? c.quantization_config ? { quantization_config: p.quantization_config ?? c.quantization_config } : {}),
      ...(p.multivector_config !== undefined ? { multivector_config: p.multivector_config } : {}),
      ...(p.datatype !== undefined ? { datatype: p.datatype } : {}),
    };
  }
  const sparseData: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(c.sparse_vectors)) sparseData[name] = { index: { index_type: 'MutableRam', datatype: 'float32' }, storage_type: 'mmap', modifier: p.modifier };
  const indexSchema: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(c.payload_schema)) indexSchema[key] = { data_type: schema.type, ...(schema.params !== undefined ? { params: schema.params } : {}), points: s.indexedPayload[key] ?? 0 };
  const names = Object.keys(s.vectors);
  return {
    info: {
      uuid: segmentUuid(meta.id, s.shard),
      segment_type: names.some((n) => (s.indexedVectors[n] ?? 0) > 0) ? 'indexed' : 'plain',
      num_vectors: sum(Object.values(s.vectors)),
      num_points: s.points,
      num_indexed_vectors: sum(Object.values(s.indexedVectors)),
      num_deleted_vectors: 0,
      vectors_size_bytes: s.stored.vectors,
      payloads_size_bytes: s.stored.payload,
      ram_usage_bytes: sum(MEMORY_KINDS.map((k) => s.memory[k])),
      // Its LMDB records hold the vectors and the payloads' JSON (graph files not counted).
      disk_usage_bytes: s.stored.vectors + s.stored.payload,
      is_appendable: true,
      index_schema: indexSchema,
      vector_data: Object.fromEntries(names.map((n) => [n, { num_vectors: s.vectors[n] ?? 0, num_indexed_vectors: s.indexedVectors[n] ?? 0, num_deleted_vectors: 0 }])),
    },
    config: { vector_data: vectorData, sparse_vector_data: sparseData, payload_storage_type: { type: c.on_disk_payload ? 'mmap' : 'in_ram_mmap' } },
    vector_index_searches: [],
    payload_field_indices: [],
  };
}

/** A shard held on this node (level 3; segments from 4): Qdrant's LocalShardTelemetry. */
function localShard(meta: CollectionMeta, s: ShardInfo, level: number): Record<string, unknown> {
  return {
    variant_name: 'local_shard',
    status: s.rebuilding || s.catchingUp ? 'yellow' : 'green',
    total_optimized_points: 0,
    vectors_size_bytes: s.stored.vectors,
    payloads_size_bytes: s.stored.payload,
    num_points: s.points,
    num_vectors: sum(Object.values(s.vectors)),
    num_vectors_by_name: s.vectors,
    ...(level >= 4 ? { segments: [segmentOf(meta, s)] } : {}),
    optimizations: { status: 'ok', optimizations: { count: 0 } },
    async_scorer: false,
  };
}

/** One collection's telemetry at `level` (1 or more). */
async function collectionTelemetry(engine: Engine, cluster: ClusterView | null, meta: CollectionMeta, level: number): Promise<Record<string, unknown>> {
  const config = collectionConfigOut(meta);
  // This node's own copies: in cluster mode a shard it holds no Active copy of has no figures here.
  const infos = await engine.localInfo(meta);
  if (level === 1) return { vectors: sum(infos.map((s) => sum(Object.values(s.vectors)))), optimizers_status: 'ok', params: config.params };
  const out: Record<string, unknown> = { id: meta.name, init_time_ms: Math.round(Math.max(0, ...infos.map((s) => s.loadMs))), config };
  if (level < 3) return out;
  const byShard = new Map(infos.map((s) => [s.shard, s]));
  const placement = await doCollectionClusterInfo(engine, meta.name, cluster?.api);
  out.shards = Array.from({ length: meta.config.shard_number }, (_, id) => {
    const local = placement.local_shards.filter((l) => l.shard_id === id);
    const remote = placement.remote_shards.filter((r) => r.shard_id === id);
    const states: Record<string, string> = {};
    for (const l of local) states[String(placement.peer_id)] ??= l.state;
    for (const r of remote) states[String(r.peer_id)] ??= r.state;
    const info = byShard.get(id);
    return {
      id,
      key: null,
      local: local.length > 0 && info !== undefined ? localShard(meta, info, level) : null,
      remote: remote.map((r) => ({ shard_id: id, peer_id: r.peer_id })),
      replicate_states: states,
    };
  });
  out.transfers = 'shard_transfers' in placement ? placement.shard_transfers : [];
  out.resharding = [];
  return out;
}

/** Every collection's telemetry at `level`; none at 0. */
export async function collectionsTelemetry(engine: Engine, cluster: ClusterView | null, level: number): Promise<Record<string, unknown>[] | undefined> {
  if (level < 1) return undefined;
  const out: Record<string, unknown>[] = [];
  for (const meta of engine.list()) {
    try {
      out.push(await collectionTelemetry(engine, cluster, meta, level));
    } catch (err) {
      // A collection dropped meanwhile is left out; any other failure is the request's.
      if (!(err instanceof QuiverError && err.code === 'NotFound')) throw err;
    }
  }
  return out;
}
