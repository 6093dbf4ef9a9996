// Collections both ways: create and update requests (vector params, HNSW, sparse vectors, WAL and
// optimizer settings) in REST form, payload index requests, and the collection and cluster info
// replies built from what the service answers.

import { QuiverError } from '../../../shared/errors.js';
import type { CreateCollection, StrictModeConfig, UpdateCollection, VectorNameConfig, VectorParams as VectorParamsIn } from '../../../shared/schemas/collections.js';
import type { CreateFieldIndex } from '../../../shared/schemas/payload.js';
import type { StrictModeConfig as StrictModeConfigOut, StrictModeConfig__Output } from '../../../shared/grpc/generated/qdrant/StrictModeConfig.js';
import type { HnswConfig, MemoryPlacement, StrictModeSettings, PayloadSchemaType as PayloadSchemaTypeName, SparseVectorParams, VectorParams as VectorParamsConfig } from '../../../shared/types.js';
import type { CollectionParamsDiff__Output } from '../../../shared/grpc/generated/qdrant/CollectionParamsDiff.js';
import type { CollectionClusterInfo, CollectionInfo as CollectionInfoResult } from '../../service/collections.js';
import type { ClusterModeInfo } from '../../service/cluster.js';
import type { TransferMethod } from '../../../shared/cluster/cluster-ops.js';
import type { ClusterOperationsBody } from '../../../shared/schemas/cluster.js';
import type { ShardTransferMethod__Output } from '../../../shared/grpc/generated/qdrant/ShardTransferMethod.js';
import type { UpdateCollectionClusterSetupRequest__Output } from '../../../shared/grpc/generated/qdrant/UpdateCollectionClusterSetupRequest.js';
import type { CollectionClusterInfoResponse } from '../../../shared/grpc/generated/qdrant/CollectionClusterInfoResponse.js';
import type { CollectionInfo } from '../../../shared/grpc/generated/qdrant/CollectionInfo.js';
import type { CreateCollection__Output } from '../../../shared/grpc/generated/qdrant/CreateCollection.js';
import type { CreateVectorNameRequest__Output } from '../../../shared/grpc/generated/qdrant/CreateVectorNameRequest.js';
import type { CreateFieldIndexCollection__Output } from '../../../shared/grpc/generated/qdrant/CreateFieldIndexCollection.js';
import type { Distance__Output } from '../../../shared/grpc/generated/qdrant/Distance.js';
import type { HnswConfigDiff, HnswConfigDiff__Output } from '../../../shared/grpc/generated/qdrant/HnswConfigDiff.js';
import type { OptimizersConfigDiff, OptimizersConfigDiff__Output } from '../../../shared/grpc/generated/qdrant/OptimizersConfigDiff.js';
import type { PayloadIndexParams } from '../../../shared/grpc/generated/qdrant/PayloadIndexParams.js';
import type { SparseVectorConfig, SparseVectorConfig__Output } from '../../../shared/grpc/generated/qdrant/SparseVectorConfig.js';
import type { SparseVectorParams as SparseVectorParamsOut } from '../../../shared/grpc/generated/qdrant/SparseVectorParams.js';
import type { UpdateCollection__Output } from '../../../shared/grpc/generated/qdrant/UpdateCollection.js';
import type { VectorParams, VectorParams__Output } from '../../../shared/grpc/generated/qdrant/VectorParams.js';
import type { Datatype__Output } from '../../../shared/grpc/generated/qdrant/Datatype.js';
import type { VectorParamsDiff__Output } from '../../../shared/grpc/generated/qdrant/VectorParamsDiff.js';
import type { VectorsConfig } from '../../../shared/grpc/generated/qdrant/VectorsConfig.js';
import { lower, num, opt, plain } from '../../../shared/grpc/messages/common.js';
import { structIn, structOut } from '../../../shared/grpc/messages/values.js';
import { MEMORY_OUT, memoryIn, quantizationDiffIn, quantizationIn, quantizationOut } from './quantization.js';

function hnswIn(h: HnswConfigDiff__Output | undefined): CreateCollection['hnsw_config'] | undefined {
  if (h === undefined) return undefined;
  return {
    ...opt('m', num(h.m)),
    ...opt('ef_construct', num(h.ef_construct)),
    ...opt('full_scan_threshold', num(h.full_scan_threshold)),
    ...opt('max_indexing_threads', num(h.max_indexing_threads)),
    ...opt('on_disk', h.on_disk),
    ...opt('payload_m', num(h.payload_m)),
    ...opt('inline_storage', h.inline_storage),
    ...opt('memory', memoryIn(h.memory)),
  };
}

function distanceIn(d: Distance__Output | undefined): VectorParamsIn['distance'] {
  if (d === 'Cosine' || d === 'Euclid' || d === 'Dot' || d === 'Manhattan') return d;
  throw QuiverError.badInput(`Wrong input: unknown distance ${d ?? 'UnknownDistance'}, expected one of Cosine, Euclid, Dot, Manhattan`);
}

/** Qdrant's Datatype enum as REST's names (Default: none given); the service refuses those Quiver does not store. */
function datatypeIn(d: Datatype__Output | undefined): VectorParamsIn['datatype'] {
  if (d === undefined || d === 'Default') return undefined;
  return d === 'Float32' ? 'float32' : d === 'Uint8' ? 'uint8' : 'float16';
}

function vectorParamsIn(p: VectorParams__Output): VectorParamsIn {
  return {
    size: Number(p.size ?? 0),
    distance: distanceIn(p.distance),
    ...opt('hnsw_config', hnswIn(p.hnsw_config)),
    ...opt('on_disk', p.on_disk),
    ...opt('memory', memoryIn(p.memory)),
    ...opt('quantization_config', quantizationIn(p.quantization_config)),
    ...opt('datatype', datatypeIn(p.datatype)),
    ...opt('multivector_config', p.multivector_config && { comparator: 'max_sim' }),
  };
}

const OPTIMIZER_INTS = ['vacuum_min_vector_number', 'default_segment_number', 'max_segment_size', 'memmap_threshold', 'indexing_threshold', 'flush_interval_sec'];

/**
 * Qdrant's OptimizersConfigDiff in REST form: max_optimization_threads from its oneof (a count or
 * "auto"), else from the deprecated plain count, as Qdrant reads the two.
 */
function optimizersIn(o: OptimizersConfigDiff__Output): NonNullable<CreateCollection['optimizers_config']> {
  const { max_optimization_threads: threads, deprecated_max_optimization_threads: deprecated, ...rest } = o;
  const out = plain(rest, OPTIMIZER_INTS) as NonNullable<CreateCollection['optimizers_config']>;
  const count = threads?.variant === 'value' ? num(threads.value) : threads?.variant === 'setting' ? 'auto' : num(deprecated);
  if (count !== undefined) out.max_optimization_threads = count;
  return out;
}

function optimizersOut(o: CollectionInfoResult['config']['optimizer_config']): OptimizersConfigDiff {
  const { max_optimization_threads: threads, ...rest } = o;
  const out: OptimizersConfigDiff = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null));
  if (threads !== null) out.max_optimization_threads = threads === 'auto' ? { setting: 'Auto' } : { value: threads };
  return out;
}

function sparseConfigIn(c: SparseVectorConfig__Output | undefined): NonNullable<CreateCollection['sparse_vectors']> | undefined {
  if (c === undefined) return undefined;
  const out: NonNullable<CreateCollection['sparse_vectors']> = {};
  for (const [name, p] of Object.entries(c.map)) {
    out[name] = {
      ...opt('index', p.index && { ...opt('full_scan_threshold', num(p.index.full_scan_threshold)), ...opt('on_disk', p.index.on_disk), ...opt('datatype', datatypeIn(p.index.datatype)), ...opt('memory', memoryIn(p.index.memory)) }),
      ...opt('modifier', lower(p.modifier)),
    };
  }
  return out;
}

function sparseConfigOut(s: Record<string, SparseVectorParams> | undefined): SparseVectorConfig | undefined {
  if (s === undefined) return undefined;
  const map: Record<string, SparseVectorParamsOut> = {};
  for (const [name, p] of Object.entries(s)) {
    map[name] = {
      modifier: p.modifier === 'idf' ? 'Idf' : 'None',
      ...opt('index', p.index && { ...opt('full_scan_threshold', p.index.full_scan_threshold), ...opt('on_disk', p.index.on_disk), ...opt('memory', memoryOut(p.index.memory)) }),
    };
  }
  return { map };
}

/** StrictModeConfig in REST form: the fields set (64-bit counts read as numbers), the per-vector maps as maps. */
function strictModeIn(s: StrictModeConfig__Output): StrictModeConfig {
  const { multivector_config: multi, sparse_config: sparse, ...rest } = s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (!k.startsWith('_') && v !== undefined) out[k] = typeof v === 'string' ? Number(v) : v;
  if (multi !== undefined) out.multivector_config = Object.fromEntries(Object.entries(multi.multivector_config).map(([n, m]) => [n, { ...opt('max_vectors', num(m.max_vectors)) }]));
  if (sparse !== undefined) out.sparse_config = Object.fromEntries(Object.entries(sparse.sparse_config).map(([n, m]) => [n, { ...opt('max_length', num(m.max_length)) }]));
  return out as StrictModeConfig;
}

function strictModeOut(s: StrictModeSettings): StrictModeConfigOut {
  const { multivector_config: multi, sparse_config: sparse, ...rest } = s;
  return {
    ...rest,
    ...opt('multivector_config', multi && { multivector_config: Object.fromEntries(Object.entries(multi).map(([n, m]) => [n, { ...opt('max_vectors', m.max_vectors ?? undefined) }])) }),
    ...opt('sparse_config', sparse && { sparse_config: Object.fromEntries(Object.entries(sparse).map(([n, m]) => [n, { ...opt('max_length', m.max_length ?? undefined) }])) }),
  };
}

/** CreateVectorName's definition in REST form (VectorNameConfig); neither given reads as an empty sparse one, for the schema to refuse. */
export function vectorNameIn(r: CreateVectorNameRequest__Output): VectorNameConfig {
  const d = r.dense_config;
  if (r.vector_config === 'dense_config' && d !== undefined) {
    return {
      dense: {
        size: Number(d.size ?? 0),
        distance: distanceIn(d.distance),
        ...opt('multivector_config', d.multivector_config && { comparator: 'max_sim' as const }),
        ...opt('datatype', datatypeIn(d.datatype)),
      },
    };
  }
  const s = r.sparse_config;
  if (r.vector_config === 'sparse_config' && s !== undefined) return { sparse: { ...opt('modifier', lower(s.modifier)), ...opt('datatype', datatypeIn(s.datatype)) } } as VectorNameConfig;
  throw QuiverError.badInput('vector_config is required: dense_config or sparse_config');
}

export function createCollectionIn(r: CreateCollection__Output): CreateCollection {
  const v = r.vectors_config;
  let vectors: CreateCollection['vectors'];
  if (v?.config === 'params' && v.params) vectors = vectorParamsIn(v.params);
  else if (v?.config === 'params_map' && v.params_map) {
    const map: Record<string, VectorParamsIn> = {};
    for (const [name, p] of Object.entries(v.params_map.map)) map[name] = vectorParamsIn(p);
    vectors = map;
  }
  return {
    ...opt('vectors', vectors),
    ...opt('shard_number', r.shard_number),
    ...opt('hnsw_config', hnswIn(r.hnsw_config)),
    ...opt('on_disk_payload', r.on_disk_payload),
    ...opt('payload', r.payload && { ...opt('memory', memoryIn(r.payload.memory)) }),
    ...opt('sparse_vectors', sparseConfigIn(r.sparse_vectors_config)),
    ...opt('sharding_method', lower(r.sharding_method)),
    ...opt('replication_factor', r.replication_factor),
    ...opt('write_consistency_factor', r.write_consistency_factor),
    ...opt('quantization_config', quantizationIn(r.quantization_config)),
    ...opt('wal_config', r.wal_config && plain(r.wal_config, ['wal_capacity_mb', 'wal_segments_ahead', 'wal_retain_closed'])),
    ...opt('optimizers_config', r.optimizers_config && optimizersIn(r.optimizers_config)),
    ...opt('metadata', Object.keys(r.metadata).length > 0 ? structIn(r.metadata) : undefined),
    ...opt('strict_mode_config', r.strict_mode_config && strictModeIn(r.strict_mode_config)),
  };
}

function paramsDiffIn(p: CollectionParamsDiff__Output): NonNullable<UpdateCollection['params']> {
  const { payload, ...rest } = p;
  return { ...plain(rest, ['read_fan_out_delay_ms']), ...opt('payload', payload && { ...opt('memory', memoryIn(payload.memory)) }) };
}

export function updateCollectionIn(r: UpdateCollection__Output): UpdateCollection {
  const diffs: Record<string, VectorParamsDiff__Output> =
    r.vectors_config?.config === 'params' && r.vectors_config.params
      ? { '': r.vectors_config.params }
      : r.vectors_config?.config === 'params_map' && r.vectors_config.params_map
        ? r.vectors_config.params_map.map
        : {};
  const vectors: NonNullable<UpdateCollection['vectors']> = {};
  for (const [name, d] of Object.entries(diffs)) {
    vectors[name] = {
      ...opt('hnsw_config', hnswIn(d.hnsw_config)),
      ...opt('on_disk', d.on_disk),
      ...opt('memory', memoryIn(d.memory)),
      ...opt('quantization_config', quantizationDiffIn(d.quantization_config)),
    };
  }
  return {
    ...opt('vectors', Object.keys(vectors).length > 0 ? vectors : undefined),
    ...opt('hnsw_config', hnswIn(r.hnsw_config)),
    ...opt('quantization_config', quantizationDiffIn(r.quantization_config)),
    ...opt('params', r.params && paramsDiffIn(r.params)),
    ...opt('optimizers_config', r.optimizers_config && optimizersIn(r.optimizers_config)),
    ...opt('sparse_vectors', sparseConfigIn(r.sparse_vectors_config)),
    ...opt('metadata', Object.keys(r.metadata).length > 0 ? structIn(r.metadata) : undefined),
    ...opt('strict_mode_config', r.strict_mode_config && strictModeIn(r.strict_mode_config)),
  };
}

const FIELD_TYPES = {
  FieldTypeKeyword: 'keyword',
  FieldTypeInteger: 'integer',
  FieldTypeFloat: 'float',
  FieldTypeGeo: 'geo',
  FieldTypeText: 'text',
  FieldTypeBool: 'bool',
  FieldTypeDatetime: 'datetime',
  FieldTypeUuid: 'uuid',
} as const;

/** Each params field of PayloadIndexParams and its index type: the field is always `<type>_index_params`. */
const INDEX_PARAMS_TYPES = {
  keyword_index_params: 'keyword',
  integer_index_params: 'integer',
  float_index_params: 'float',
  geo_index_params: 'geo',
  text_index_params: 'text',
  bool_index_params: 'bool',
  datetime_index_params: 'datetime',
  uuid_index_params: 'uuid',
} as const satisfies { [T in PayloadSchemaTypeName as `${T}_index_params`]: T };

/** Qdrant's field_type + field_index_params as REST's field_schema: a type name, or an object with its params. */
export function createIndexIn(r: CreateFieldIndexCollection__Output): CreateFieldIndex {
  const p = r.field_index_params;
  const kind = p?.index_params;
  const type = r.field_type !== undefined ? FIELD_TYPES[r.field_type] : kind !== undefined ? INDEX_PARAMS_TYPES[kind] : undefined;
  // The schema's own union checks these at run time; its static type has lost the literals.
  type FieldSchema = NonNullable<CreateFieldIndex['field_schema']>;
  if (type === undefined || p === undefined || kind === undefined) {
    return { field_name: r.field_name ?? '', ...opt('field_schema', type as FieldSchema | undefined) };
  }
  const params = plain(p[kind] ?? {}, ['min_token_len', 'max_token_len']);
  // Enums in REST's lower case (their unknown zero values dropped), and the message forms of
  // prefix (an empty message: on) and stemmer (a oneof) in REST's.
  for (const [key, unknown] of [['tokenizer', 'Unknown'], ['memory', 'MemoryUnknown']] as const) {
    const v = params[key];
    if (v === unknown) delete params[key];
    else if (typeof v === 'string') params[key] = v.toLowerCase();
  }
  if (params.prefix !== undefined) params.prefix = params.prefix !== null;
  const stem = params.stemmer as { snowball?: { language: string }; stemming_params?: string } | undefined;
  if (stem !== undefined) params.stemmer = stem.stemming_params === 'snowball' ? { type: 'snowball', language: stem.snowball?.language ?? '' } : { type: 'none' };
  return { field_name: r.field_name ?? '', field_schema: { ...params, type } as FieldSchema };
}

/** One param of an index in gRPC form (see createIndexIn for the other way). */
function indexParamOut(k: string, v: unknown): unknown {
  if ((k === 'tokenizer' || k === 'memory') && typeof v === 'string') return v.charAt(0).toUpperCase() + v.slice(1);
  if (k === 'stopwords') return typeof v === 'string' ? { languages: [v] } : v;
  if (k === 'stemmer') {
    const s = v as { type: string; language?: string };
    return s.type === 'snowball' ? { snowball: { language: s.language } } : { disabled: {} };
  }
  if (k === 'prefix') return v === true ? {} : undefined;
  return v;
}

const memoryOut = (m: MemoryPlacement | undefined) => (m === undefined ? undefined : MEMORY_OUT[m]);

function hnswOut(h: Partial<HnswConfig>): HnswConfigDiff {
  return {
    ...opt('m', h.m),
    ...opt('ef_construct', h.ef_construct),
    ...opt('full_scan_threshold', h.full_scan_threshold),
    ...opt('max_indexing_threads', h.max_indexing_threads),
    ...opt('on_disk', h.on_disk ?? undefined),
    ...opt('inline_storage', h.inline_storage),
    ...opt('memory', memoryOut(h.memory)),
  };
}

function vectorParamsOut(p: VectorParamsConfig): VectorParams {
  return {
    size: p.size,
    distance: p.distance,
    ...opt('hnsw_config', p.hnsw_config ? hnswOut(p.hnsw_config) : undefined),
    ...opt('on_disk', p.on_disk ?? undefined),
    ...opt('memory', memoryOut(p.memory)),
    ...opt('quantization_config', p.quantization_config && quantizationOut(p.quantization_config)),
    ...opt('multivector_config', p.multivector_config && { comparator: 'MaxSim' as const }),
    ...opt('datatype', p.datatype && (p.datatype === 'uint8' ? ('Uint8' as const) : ('Float32' as const))),
  };
}

/** The unnamed vector's params alone, or a map of names (a vector may be named `size`). */
function isSingle(v: VectorParamsConfig | Record<string, VectorParamsConfig>): v is VectorParamsConfig {
  return typeof v.size === 'number' && typeof v.distance === 'string';
}

function vectorsConfigOut(v: CollectionInfoResult['config']['params']['vectors']): VectorsConfig {
  if (isSingle(v)) return { params: vectorParamsOut(v) };
  const map: Record<string, VectorParams> = {};
  for (const [name, p] of Object.entries(v)) map[name] = vectorParamsOut(p);
  return { params_map: { map } };
}

/** An index's params under its type's field (`keyword_index_params`, as INDEX_PARAMS_TYPES names them all). */
function indexParamsOut(dataType: PayloadSchemaTypeName, params: Record<string, unknown> | undefined): PayloadIndexParams | undefined {
  if (params === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === 'type' || v === null) continue;
    const g = indexParamOut(k, v);
    if (g !== undefined) out[k] = g;
  }
  return { [`${dataType}_index_params`]: out };
}

const capital = <T extends string>(s: T): Capitalize<T> => (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<T>;

export function collectionInfoOut(r: CollectionInfoResult): CollectionInfo {
  const payloadSchema: NonNullable<CollectionInfo['payload_schema']> = {};
  for (const [key, s] of Object.entries(r.payload_schema)) {
    payloadSchema[key] = {
      data_type: capital(s.data_type),
      ...opt('params', indexParamsOut(s.data_type, s.params)),
      ...opt('points', s.points),
    };
  }
  return {
    status: capital(r.status),
    optimizer_status: { ok: true },
    segments_count: r.segments_count,
    points_count: r.points_count,
    indexed_vectors_count: r.indexed_vectors_count,
    config: {
      params: {
        shard_number: r.config.params.shard_number,
        on_disk_payload: r.config.params.on_disk_payload,
        vectors_config: vectorsConfigOut(r.config.params.vectors),
        ...opt('sparse_vectors_config', sparseConfigOut(r.config.params.sparse_vectors)),
        replication_factor: r.config.params.replication_factor,
        write_consistency_factor: r.config.params.write_consistency_factor,
        ...opt('payload', r.config.params.payload && { ...opt('memory', memoryOut(r.config.params.payload.memory)) }),
      },
      hnsw_config: hnswOut(r.config.hnsw_config),
      optimizer_config: optimizersOut(r.config.optimizer_config),
      wal_config: r.config.wal_config,
      ...opt('quantization_config', r.config.quantization_config === null ? undefined : quantizationOut(r.config.quantization_config)),
      ...opt('strict_mode_config', r.config.strict_mode_config && strictModeOut(r.config.strict_mode_config)),
      ...opt('metadata', r.config.metadata === undefined ? undefined : structOut(r.config.metadata)),
    },
    payload_schema: payloadSchema,
  };
}

export function clusterInfoOut(r: CollectionClusterInfo | ClusterModeInfo): Omit<CollectionClusterInfoResponse, 'time'> {
  return {
    peer_id: r.peer_id,
    shard_count: r.shard_count,
    local_shards: r.local_shards.map((s) => ({ shard_id: s.shard_id, points_count: s.points_count, state: s.state })),
    remote_shards: r.remote_shards.map((s) => ({ shard_id: s.shard_id, peer_id: s.peer_id, state: s.state })),
    shard_transfers: r.shard_transfers.map((t) => ({ shard_id: t.shard_id, from: t.from, to: t.to, sync: t.sync })),
  };
}

const TRANSFER_METHOD: Record<ShardTransferMethod__Output, TransferMethod> = {
  StreamRecords: 'stream_records',
  Snapshot: 'snapshot',
  WalDelta: 'wal_delta',
  ReshardingStreamRecords: 'resharding_stream_records',
};

/** UpdateCollectionClusterSetup's operation as the REST body (checked by the REST schema after), and its timeout. */
export function clusterSetupIn(r: UpdateCollectionClusterSetupRequest__Output): { body: ClusterOperationsBody; timeout: number | undefined } {
  const peer = (v: string | undefined): number => Number(v ?? 0);
  const transfer = (m: NonNullable<UpdateCollectionClusterSetupRequest__Output['move_shard']>) => ({
    shard_id: m.shard_id ?? 0,
    from_peer_id: peer(m.from_peer_id),
    to_peer_id: peer(m.to_peer_id),
    ...(m.method === undefined ? {} : { method: TRANSFER_METHOD[m.method] }),
    ...(m.to_shard_id === undefined ? {} : { to_shard_id: m.to_shard_id }),
  });
  let body: ClusterOperationsBody = {};
  switch (r.operation) {
    case 'move_shard':
      if (r.move_shard !== undefined) body = { move_shard: transfer(r.move_shard) };
      break;
    case 'replicate_shard':
      if (r.replicate_shard !== undefined) body = { replicate_shard: transfer(r.replicate_shard) };
      break;
    case 'drop_replica':
      if (r.drop_replica !== undefined) body = { drop_replica: { shard_id: r.drop_replica.shard_id ?? 0, peer_id: peer(r.drop_replica.peer_id) } };
      break;
    case 'abort_transfer': {
      const a = r.abort_transfer;
      if (a !== undefined) body = { abort_transfer: { shard_id: a.shard_id ?? 0, from_peer_id: peer(a.from_peer_id), to_peer_id: peer(a.to_peer_id) } };
      break;
    }
    case undefined:
      break;
  }
  return { body, timeout: r.timeout === undefined ? undefined : Number(r.timeout) };
}
