// Collection operations: create, inspect, update, delete, list.

import type { Static } from 'typebox';
import { QuiverError } from '../../shared/errors.js';
import type {
  CreateCollection,
  SparseVectorParams as SparseVectorParamsIn,
  UpdateCollection,
  VectorParams as VectorParamsIn,
  VectorsConfig,
} from '../../shared/schemas/collections.js';
import type { ShardCopy } from '../../shared/placement.js';
import { DEFAULT_HNSW, DEFAULT_VECTOR, type MemoryPlacement, type Payload, type StrictModeSettings, type OptimizersSettings, type WalSettings, type SparseVectorParams, type CollectionConfig, type CollectionMeta, type HnswConfig, type JsonValue, type PayloadSchemaType, type QuantizationConfig, type VectorParams } from '../../shared/types.js';
import { checkQuantizable, quantizationDiffIn, quantizationIn } from './quantization.js';
import { mergedStrictMode } from './strict-mode-config.js';
import { checkDatatype, checkPayloadM, checkStorageSettings, checkVectorRequest, onDiskOf, vectorName } from './storage-settings.js';
import type { CollectionClusterOut, CollectionInfoOut } from '../../shared/schemas/responses.js';
import type { MemoryBytes } from '../../shared/shard-reports.js';
import { MEMORY_KINDS, sumMemory } from '../../shared/shard-results.js';
import type { CollectionDefaults, Engine } from '../engine.js';
import { collectionNameError } from '../../shared/validation.js';

/** A new collection's name: 1 to 255 characters (also the route schema's rule), none forbidden. */
function checkName(name: string): void {
  if (name.length === 0 || name.length > 255) {
    throw QuiverError.unprocessable(`Validation error in path parameters: [name: value ${JSON.stringify(name)} invalid, must be from 1 to 255 characters]`);
  }
  const bad = collectionNameError(name, 'params');
  if (bad !== undefined) throw bad;
}

function hnswDiff(d: CreateCollection['hnsw_config']): Partial<HnswConfig> {
  const out: Partial<HnswConfig> = {};
  if (d === undefined || d === null) return out;
  // hnswlib needs m >= 2 (m = 1 makes its level draw infinite); 0 means no graph, as in Qdrant.
  if (d.m === 1) throw QuiverError.badInput('hnsw_config.m must be 0 (no HNSW graph: searches are exact) or at least 2, got 1');
  if (d.m !== undefined) out.m = d.m;
  if (d.ef_construct !== undefined) out.ef_construct = d.ef_construct;
  if (d.full_scan_threshold !== undefined) out.full_scan_threshold = d.full_scan_threshold;
  if (d.max_indexing_threads !== undefined) out.max_indexing_threads = d.max_indexing_threads;
  const onDisk = onDiskOf(d.memory, d.on_disk);
  if (onDisk !== undefined) out.on_disk = onDisk;
  if (d.memory !== undefined && d.memory !== null) out.memory = d.memory;
  // Copies of vectors inside an HNSW index file save disk seeks; Quiver's graphs are in memory.
  if (d.inline_storage === true) throw QuiverError.badInput('hnsw_config.inline_storage: true cannot apply: Quiver keeps HNSW graphs in memory, with no index file to read vectors from');
  if (d.inline_storage === false) out.inline_storage = false;
  return out;
}

/** The fields of a diff that are set (null and absent both mean "leave as is"), over `current`. */
function merged<T extends object>(current: T | undefined, diff: { [K in keyof T]?: T[K] | null } | null | undefined): T | undefined {
  if (diff === undefined || diff === null) return current;
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(diff)) if (v !== undefined && v !== null) out[k] = v;
  return Object.keys(out).length === 0 ? current : (out as T);
}

export function vectorParams(p: VectorParamsIn, name: string): VectorParams {
  checkVectorRequest(p, vectorName(name));
  const out: VectorParams = { size: p.size, distance: p.distance };
  const h = hnswDiff(p.hnsw_config);
  if (Object.keys(h).length > 0) out.hnsw_config = h;
  const onDisk = onDiskOf(p.memory, p.on_disk);
  if (onDisk !== undefined) out.on_disk = onDisk;
  if (p.memory !== undefined && p.memory !== null) out.memory = p.memory;
  if (p.quantization_config !== undefined && p.quantization_config !== null) out.quantization_config = quantizationIn(p.quantization_config);
  if (p.multivector_config !== undefined && p.multivector_config !== null) out.multivector_config = { comparator: 'max_sim' };
  if (p.datatype !== undefined && p.datatype !== null) out.datatype = p.datatype as 'float32' | 'uint8';
  return out;
}

function isSingle(v: VectorsConfig): v is VectorParamsIn {
  return typeof (v as { size?: unknown }).size === 'number' && typeof (v as { distance?: unknown }).distance === 'string';
}

export function sparseParams(p: SparseVectorParamsIn, current?: SparseVectorParams): SparseVectorParams {
  const out: SparseVectorParams = { modifier: p.modifier ?? current?.modifier ?? 'none' };
  const index = { ...current?.index };
  if (p.index?.full_scan_threshold !== undefined && p.index.full_scan_threshold !== null) index.full_scan_threshold = p.index.full_scan_threshold;
  const onDisk = onDiskOf(p.index?.memory, p.index?.on_disk);
  if (onDisk !== undefined) index.on_disk = onDisk;
  if (p.index?.memory !== undefined && p.index.memory !== null) index.memory = p.index.memory;
  checkDatatype(p.index?.datatype, 'a sparse vector index', 'Quiver stores sparse vectors as float32');
  if (Object.keys(index).length > 0) out.index = index;
  return out;
}

/**
 * Qdrant's metadata merge: each top-level key given replaces the one kept (a nested object is
 * replaced whole), a key given as null is removed; none left is no metadata.
 */
function mergedMetadata(current: Payload | undefined, diff: Record<string, unknown> | null | undefined): Payload | undefined {
  if (diff === undefined || diff === null) return current;
  const out: Payload = { ...current };
  for (const [k, v] of Object.entries(diff)) {
    if (v === null) delete out[k];
    else out[k] = v as JsonValue;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

export function buildConfig(req: CreateCollection, defaults: CollectionDefaults): CollectionConfig {
  const v = req.vectors ?? req.vectors_config;
  const sparse: Record<string, SparseVectorParams> = {};
  for (const [name, p] of Object.entries(req.sparse_vectors ?? {})) sparse[name] = sparseParams(p);
  if (v === undefined && Object.keys(sparse).length === 0) throw QuiverError.badInput('vectors_config is required');
  const vectors: Record<string, VectorParams> = {};
  if (v !== undefined && isSingle(v)) {
    vectors[DEFAULT_VECTOR] = vectorParams(v, DEFAULT_VECTOR);
  } else if (v !== undefined) {
    const entries = Object.entries(v);
    if (entries.length === 0 && Object.keys(sparse).length === 0) {
      throw QuiverError.badInput('vectors_config is required: at least one vector must be configured');
    }
    for (const [name, p] of entries) vectors[name] = vectorParams(p, name);
  }
  for (const name of Object.keys(sparse)) {
    if (vectors[name] !== undefined) throw QuiverError.badInput(`Vector name '${name}' is both dense and sparse`);
  }
  checkPayloadM(req.hnsw_config, 'hnsw_config');
  if (req.sharding_method === 'custom') throw QuiverError.badInput("sharding_method 'custom' is not supported: Quiver places points on shards by id");
  if (req.init_from !== undefined && req.init_from !== null) throw QuiverError.badInput('init_from is not supported: copy a collection with a snapshot (POST /collections/{name}/snapshots) or quiver export and import');
  const hnsw: HnswConfig = { ...DEFAULT_HNSW, ...hnswDiff(req.hnsw_config) };
  const config: CollectionConfig = {
    vectors,
    sparse_vectors: sparse,
    shard_number: req.shard_number ?? defaults.shard_number,
    replication_factor: req.replication_factor ?? defaults.replication_factor,
    write_consistency_factor: req.write_consistency_factor ?? 1,
    hnsw_config: hnsw,
    quantization_config: req.quantization_config === undefined || req.quantization_config === null ? null : quantizationIn(req.quantization_config),
    on_disk_payload: onDiskOf(req.payload?.memory, req.on_disk_payload) ?? true,
    payload_schema: {},
  };
  if (req.payload?.memory !== undefined && req.payload.memory !== null) config.payload = { memory: req.payload.memory };
  const metadata = mergedMetadata(undefined, req.metadata);
  if (metadata !== undefined) config.metadata = metadata;
  const strict = mergedStrictMode(undefined, req.strict_mode_config);
  if (strict !== undefined) config.strict_mode_config = strict;
  const optimizers = merged<OptimizersSettings>(undefined, req.optimizers_config);
  if (optimizers !== undefined) config.optimizers_config = optimizers;
  const wal = merged<WalSettings>(undefined, req.wal_config);
  if (wal !== undefined) config.wal_config = wal;
  checkQuantizable(config);
  checkStorageSettings(config);
  return config;
}

export async function doCreateCollection(engine: Engine, name: string, req: CreateCollection): Promise<boolean> {
  checkName(name);
  await engine.createCollection(name, buildConfig(req, engine.defaults));
  return true;
}

export async function doUpdateCollection(engine: Engine, name: string, req: UpdateCollection): Promise<boolean> {
  const meta = engine.collection(name);
  const config: CollectionConfig = structuredClone(meta.config);
  checkPayloadM(req.hnsw_config, 'hnsw_config');
  config.hnsw_config = { ...config.hnsw_config, ...hnswDiff(req.hnsw_config) };
  const quantization = quantizationDiffIn(req.quantization_config);
  if (quantization !== undefined) config.quantization_config = quantization;
  if (typeof req.params?.replication_factor === 'number') config.replication_factor = req.params.replication_factor;
  if (typeof req.params?.write_consistency_factor === 'number') config.write_consistency_factor = req.params.write_consistency_factor;
  const payloadOnDisk = onDiskOf(req.params?.payload?.memory, req.params?.on_disk_payload);
  if (payloadOnDisk !== undefined) config.on_disk_payload = payloadOnDisk;
  // The placement reported is the one last given; a bare on_disk_payload replaces it.
  if (req.params?.payload?.memory !== undefined && req.params.payload.memory !== null) config.payload = { memory: req.params.payload.memory };
  else if (typeof req.params?.on_disk_payload === 'boolean') delete config.payload;
  // Indexing turned off drops the graphs; turned back on, they are built in the background.
  const optimizers = merged(config.optimizers_config, req.optimizers_config);
  if (optimizers !== undefined) config.optimizers_config = optimizers;
  const metadata = mergedMetadata(config.metadata, req.metadata);
  if (metadata === undefined) delete config.metadata;
  else config.metadata = metadata;
  const strict = mergedStrictMode(config.strict_mode_config, req.strict_mode_config);
  if (strict !== undefined) config.strict_mode_config = strict;
  for (const key of ['read_fan_out_factor', 'read_fan_out_delay_ms'] as const) {
    // Quiver hedges a slow read across nodes after one node-wide, learned delay instead.
    if (req.params?.[key] !== undefined && req.params[key] !== null) throw QuiverError.badInput(`params.${key} cannot apply per collection: a read across nodes is joined by a second replica after the node's learned hedge delay (SERVICE_CLUSTER_HEDGE_MS caps it)`);
  }
  for (const [vname, diff] of Object.entries(req.vectors ?? {})) {
    const params = config.vectors[vname];
    if (params === undefined) throw QuiverError.unknownVector(vname);
    checkPayloadM(diff.hnsw_config, `hnsw_config of ${vectorName(vname)}`);
    const h = hnswDiff(diff.hnsw_config);
    if (Object.keys(h).length > 0) params.hnsw_config = { ...params.hnsw_config, ...h };
    const onDisk = onDiskOf(diff.memory, diff.on_disk);
    if (onDisk !== undefined) params.on_disk = onDisk;
    if (diff.memory !== undefined && diff.memory !== null) params.memory = diff.memory;
    else if (typeof diff.on_disk === 'boolean') delete params.memory;
    // "Disabled" drops the vector's own setting: the collection's applies again, as in Qdrant.
    const own = quantizationDiffIn(diff.quantization_config);
    if (own === null) delete params.quantization_config;
    else if (own !== undefined) params.quantization_config = own;
  }
  for (const [sname, diff] of Object.entries(req.sparse_vectors ?? {})) {
    const current = config.sparse_vectors[sname];
    if (current === undefined) throw QuiverError.badInput(`Wrong input: Not existing sparse vector name error: ${sname}`);
    config.sparse_vectors[sname] = sparseParams(diff, current);
  }
  checkQuantizable(config);
  checkStorageSettings(config, meta.config);
  await engine.updateCollection({ ...meta, config });
  return true;
}

export function doDeleteCollection(engine: Engine, name: string): Promise<boolean> {
  return engine.deleteCollection(name);
}

/** `visible`: the collections the caller may see (a scoped credential's; all by default). */
export function doListCollections(engine: Engine, visible: (name: string) => boolean = () => true): { collections: { name: string }[] } {
  return { collections: engine.list().flatMap((m) => (visible(m.name) ? [{ name: m.name }] : [])) };
}

export function doCollectionExists(engine: Engine, name: string): { exists: boolean } {
  return { exists: engine.exists(name) };
}

/**
 * What GET /collections/{name} answers: the documented response schema (so the OpenAPI document
 * and this type cannot disagree), with the fields Quiver fills typed exactly for the gRPC reply.
 */
export interface CollectionInfo extends Static<typeof CollectionInfoOut> {
  status: 'green' | 'yellow';
  optimizer_status: 'ok';
  indexed_vectors_count: number;
  points_count: number;
  segments_count: number;
  config: {
    params: {
      /** The unnamed vector's params alone, or named vectors by name. */
      vectors: VectorParams | Record<string, VectorParams>;
      sparse_vectors?: Record<string, SparseVectorParams>;
      shard_number: number;
      replication_factor: number;
      write_consistency_factor: number;
      on_disk_payload: boolean;
      payload?: { memory?: MemoryPlacement };
    };
    hnsw_config: HnswConfig;
    optimizer_config: Reported<OptimizersSettings, typeof OPTIMIZER_DEFAULTS>;
    wal_config: Reported<WalSettings, typeof WAL_DEFAULTS>;
    quantization_config: QuantizationConfig | null;
    metadata?: Payload;
    strict_mode_config?: StrictModeSettings;
  };
  payload_schema: Record<string, { data_type: PayloadSchemaType; params?: Record<string, JsonValue>; points: number }>;
}

/**
 * What GET /collections/{name}/cluster answers: the documented schema, typed exactly. Every copy
 * of every shard is local: one entry per copy, `worker` the thread holding it, `copy` 0 for the
 * primary, `state` Qdrant's replica state (Partial: being built, not read; Dead: out of reads).
 */
export interface CollectionClusterInfo extends Static<typeof CollectionClusterOut> {
  peer_id: number;
  shard_count: number;
  /** Copies kept of each shard: replication_factor, at most the worker count. */
  replicas_per_shard: number;
  local_shards: { shard_id: number; points_count: number; state: ShardCopy['state']; worker: number; copy: number }[];
  remote_shards: [];
  shard_transfers: [];
}

/** Settings as reported: every field, the given value or Qdrant's default (null where it has none). */
type Reported<T, D> = { [K in keyof T]-?: T[K] | (K extends keyof D ? D[K] : never) };

// Qdrant's defaults, reported for the fields a collection was not given.
const OPTIMIZER_DEFAULTS = {
  deleted_threshold: 0.2,
  vacuum_min_vector_number: 1000,
  default_segment_number: 0,
  max_segment_size: null,
  memmap_threshold: null,
  indexing_threshold: 10000,
  flush_interval_sec: 5,
  max_optimization_threads: null,
  prevent_unoptimized: null,
} as const;
const WAL_DEFAULTS = { wal_capacity_mb: 32, wal_segments_ahead: 0, wal_retain_closed: 1 } as const;

/** As reported: Qdrant's stored max_optimization_threads is a count or null, "auto" being null. */
function optimizersOut(given: OptimizersSettings | undefined): CollectionInfo['config']['optimizer_config'] {
  const out = { ...OPTIMIZER_DEFAULTS, ...given };
  return { ...out, max_optimization_threads: out.max_optimization_threads === 'auto' ? null : out.max_optimization_threads };
}

function vectorsOut(meta: CollectionMeta): VectorParams | Record<string, VectorParams> {
  const v = meta.config.vectors;
  const unnamed = v[DEFAULT_VECTOR];
  return unnamed !== undefined && Object.keys(v).length === 1 ? unnamed : v;
}

function sparseOut(meta: CollectionMeta): { sparse_vectors?: Record<string, SparseVectorParams> } {
  const s = meta.config.sparse_vectors;
  return Object.keys(s).length === 0 ? {} : { sparse_vectors: s };
}

/** A collection's config as GET /collections/{name} (and /telemetry) reports it: Qdrant's defaults where a field was not given. */
export function collectionConfigOut(meta: CollectionMeta): CollectionInfo['config'] {
  return {
    params: {
      vectors: vectorsOut(meta),
      ...sparseOut(meta),
      shard_number: meta.config.shard_number,
      replication_factor: meta.config.replication_factor ?? 1,
      write_consistency_factor: meta.config.write_consistency_factor ?? 1,
      on_disk_payload: meta.config.on_disk_payload,
      ...(meta.config.payload !== undefined ? { payload: meta.config.payload } : {}),
    },
    hnsw_config: meta.config.hnsw_config,
    optimizer_config: optimizersOut(meta.config.optimizers_config),
    wal_config: { ...WAL_DEFAULTS, ...meta.config.wal_config },
    quantization_config: meta.config.quantization_config ?? null,
    ...(meta.config.metadata !== undefined ? { metadata: meta.config.metadata } : {}),
    ...(meta.config.strict_mode_config !== undefined ? { strict_mode_config: meta.config.strict_mode_config } : {}),
  };
}

export async function doGetCollection(engine: Engine, name: string): Promise<CollectionInfo> {
  const meta = engine.collection(name);
  const shards = await engine.fanOut(meta, { op: 'shardInfo' });
  const points = shards.reduce((n, s) => n + s.points, 0);
  const indexed = shards.reduce((n, s) => n + Object.values(s.indexedVectors).reduce((a, b) => a + b, 0), 0);
  const payloadSchema: CollectionInfo['payload_schema'] = {};
  for (const [key, schema] of Object.entries(meta.config.payload_schema)) {
    payloadSchema[key] = {
      data_type: schema.type,
      ...(schema.params !== undefined ? { params: schema.params } : {}),
      points: shards.reduce((n, s) => n + (s.indexedPayload[key] ?? 0), 0),
    };
  }
  return {
    // Yellow while a shard rebuilds an HNSW graph with new parameters, or adds the writes it
    // replayed at start to a restored one in the background: graph work running, as Qdrant's
    // yellow while it optimizes (grey is for optimizations not started, which never happens here).
    status: shards.some((s) => s.rebuilding || s.catchingUp) ? 'yellow' : 'green',
    optimizer_status: 'ok',
    indexed_vectors_count: indexed,
    points_count: points,
    segments_count: meta.config.shard_number,
    config: collectionConfigOut(meta),
    payload_schema: payloadSchema,
    memory: withTotal(sumMemory(shards.map((s) => s.memory))),
  };
}

/** Memory figures by kind with their total, as MemoryOut shows them. */
export function withTotal(m: MemoryBytes): MemoryBytes & { total: number } {
  return { ...m, total: MEMORY_KINDS.reduce((n, k) => n + m[k], 0) };
}

/** Where the collection's shards live: Qdrant's cluster-info shape, with the owning worker. */
export async function doCollectionCluster(engine: Engine, name: string): Promise<CollectionClusterInfo> {
  const meta = engine.collection(name);
  const copies = await engine.copies(meta);
  return {
    peer_id: 0,
    shard_count: meta.config.shard_number,
    replicas_per_shard: engine.effectiveReplicas(meta),
    local_shards: copies.map((c) => ({ shard_id: c.shard, points_count: c.points, state: c.state, worker: c.worker, copy: c.copy })),
    remote_shards: [],
    shard_transfers: [],
  };
}
