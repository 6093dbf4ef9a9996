// Domain types shared by the main thread and the shard workers.

/** A point id as Qdrant clients send it: an unsigned integer or a UUID string (normalised, lowercase, hyphenated). */
export type PointId = number | string;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type Payload = { [key: string]: JsonValue };

export const DISTANCES = ['Cosine', 'Dot', 'Euclid', 'Manhattan'] as const;
export type Distance = (typeof DISTANCES)[number];

export interface HnswConfig {
  m: number;
  ef_construct: number;
  full_scan_threshold: number;
  max_indexing_threads: number;
  on_disk: boolean;
  /** As given (on_disk follows it: see MemoryPlacement). */
  memory?: MemoryPlacement;
  /** As given: only `false` is taken (graphs are in memory, no index file to read). */
  inline_storage?: boolean;
}

/**
 * Qdrant 1.19's placement of a component's data. Where Quiver has a choice it reads `cold` as
 * on disk, and `cached` (Qdrant's in-RAM default: page cache) and `pinned` as in memory; it
 * overrides the deprecated on_disk flags, as in Qdrant. Kept as given, to be reported.
 */
export type MemoryPlacement = 'cold' | 'cached' | 'pinned';

/**
 * Quantization as Qdrant configures it (docs/storage.md, "Quantized graphs"): the HNSW graph is
 * built over int8 or binary codes, and candidates are rescored with the float32 originals.
 * `always_ram` and `memory` are kept as given: the codes are always in RAM here.
 */
export type QuantizationConfig =
  | { scalar: { type: 'int8'; quantile?: number; always_ram?: boolean; memory?: string } }
  | { binary: { always_ram?: boolean; memory?: string; encoding?: 'one_bit'; query_encoding?: BinaryQueryEncoding } };

/**
 * How a binary vector's query is compared with its codes: as its own signs ('default', 'binary'),
 * or asymmetrically, the float32 query against the codes' signs ('scalar4bits', 'scalar8bits':
 * Qdrant quantizes the query to 4 or 8 bits for this; Quiver keeps it float32, which ranks at
 * least as well).
 */
export type BinaryQueryEncoding = 'default' | 'binary' | 'scalar4bits' | 'scalar8bits';

export interface VectorParams {
  size: number;
  distance: Distance;
  /** Per-vector overrides of the collection's hnsw_config, as Qdrant allows. */
  hnsw_config?: Partial<HnswConfig>;
  on_disk?: boolean;
  /** As given (on_disk follows it). */
  memory?: MemoryPlacement;
  /** This vector's own quantization, over the collection's (absent: the collection's). */
  quantization_config?: QuantizationConfig;
  /** A multivector: several sub-vectors of `size` per point, scored by MaxSim (docs/query.md). */
  multivector_config?: { comparator: 'max_sim' };
  /** As given; 'uint8' only on a multivector (its rows are then kept as bytes). */
  datatype?: 'float32' | 'uint8';
}

/** Whether vector `name` of `meta` is a multivector. */
export function isMulti(meta: { config: { vectors: Record<string, VectorParams> } }, name: string): boolean {
  return meta.config.vectors[name]?.multivector_config !== undefined;
}

/** The unnamed vector is stored under this name, so messages read `vector ''` as the spec's examples do. */
export const DEFAULT_VECTOR = '';

export const PAYLOAD_SCHEMA_TYPES = ['keyword', 'integer', 'float', 'geo', 'text', 'bool', 'datetime', 'uuid'] as const;
export type PayloadSchemaType = (typeof PAYLOAD_SCHEMA_TYPES)[number];

export const TOKENIZERS = ['prefix', 'whitespace', 'word', 'multilingual'] as const;
export type Tokenizer = (typeof TOKENIZERS)[number];

export interface TextIndexParams {
  tokenizer: Tokenizer;
  min_token_len: number | null;
  max_token_len: number | null;
  lowercase: boolean;
  /** Accented letters folded to ASCII ("ação" -> "acao"). */
  ascii_folding?: boolean;
  /** Words left out of stored and query text: the languages' lists and the custom words. */
  stopwords?: { languages: string[]; custom: string[] };
  /** The Snowball stemmer's language; absent: no stemming. */
  stemmer?: string;
}

/** A field index as configured (normalised from Qdrant's string and object forms). */
export interface FieldIndexSchema {
  type: PayloadSchemaType;
  /** Only for text indexes. */
  text?: TextIndexParams;
  /** Other params as the client sent them, reported back in payload_schema. */
  params?: Record<string, JsonValue>;
}

export interface SparseVectorParams {
  modifier: 'none' | 'idf';
  index?: { full_scan_threshold?: number; on_disk?: boolean; memory?: MemoryPlacement };
}

export interface CollectionConfig {
  /** Named vectors; an unnamed collection has exactly one entry, under DEFAULT_VECTOR. */
  vectors: Record<string, VectorParams>;
  /** Sparse vectors by name (always named). */
  sparse_vectors: Record<string, SparseVectorParams>;
  shard_number: number;
  /** As given at creation or by PATCH `params` (absent in catalogs written before they were kept: 1). */
  replication_factor?: number;
  write_consistency_factor?: number;
  hnsw_config: HnswConfig;
  /** The collection's quantization (absent in catalogs written before it was kept: none). */
  quantization_config?: QuantizationConfig | null;
  on_disk_payload: boolean;
  /** Qdrant 1.19's payload storage params as given (on_disk_payload follows their memory). */
  payload?: { memory?: MemoryPlacement };
  /** Field indexes by payload key. */
  payload_schema: Record<string, FieldIndexSchema>;
  /** The optimizers_config fields given (create, then PATCHes merged); absent: none given. */
  optimizers_config?: OptimizersSettings;
  /** The wal_config fields given, kept and reported (Quiver has no WAL segments). */
  wal_config?: WalSettings;
  /** Qdrant's collection metadata: any JSON object, kept and reported; a PATCH merges keys. */
  metadata?: Payload;
  /** Qdrant's strict mode: the fields given (src/main/service/strict-mode-config.ts). */
  strict_mode_config?: StrictModeSettings;
}

/** Qdrant's StrictModeConfig as kept: enforced while `enabled` (src/workers/service/strict-mode.ts). */
export interface StrictModeSettings {
  enabled?: boolean;
  max_query_limit?: number;
  max_timeout?: number;
  unindexed_filtering_retrieve?: boolean;
  unindexed_filtering_update?: boolean;
  search_max_hnsw_ef?: number;
  search_allow_exact?: boolean;
  search_max_oversampling?: number;
  upsert_max_batchsize?: number;
  search_max_batchsize?: number;
  max_collection_vector_size_bytes?: number;
  read_rate_limit?: number;
  write_rate_limit?: number;
  max_collection_payload_size_bytes?: number;
  max_points_count?: number;
  filter_max_conditions?: number;
  condition_max_size?: number;
  multivector_config?: Record<string, { max_vectors?: number | null }>;
  sparse_config?: Record<string, { max_length?: number | null }>;
  max_payload_index_count?: number;
  max_resident_memory_percent?: number;
}

/**
 * Qdrant's optimizers_config as given. Quiver applies one switch of it: `indexing_threshold: 0`
 * or `max_optimization_threads: 0` turns vector indexing off (no HNSW graph; searches exact)
 * until it is turned back on (see hnsw-params.ts indexingDisabled). The rest is kept and reported.
 */
export interface OptimizersSettings {
  deleted_threshold?: number;
  vacuum_min_vector_number?: number;
  default_segment_number?: number;
  max_segment_size?: number;
  memmap_threshold?: number;
  indexing_threshold?: number;
  flush_interval_sec?: number;
  /** A thread count, or 'auto'. */
  max_optimization_threads?: number | 'auto';
  prevent_unoptimized?: boolean;
}

export interface WalSettings {
  wal_capacity_mb?: number;
  wal_segments_ahead?: number;
  wal_retain_closed?: number;
}

/** A catalog record. `id` is unique per incarnation, so a re-created name never meets old data. */
export interface CollectionMeta {
  id: number;
  name: string;
  config: CollectionConfig;
  created_at: string;
}

export interface ScoredPoint {
  id: PointId;
  version: number;
  score: number;
  payload?: Payload | null;
  vector?: VectorOutput | null;
}

export interface PointRecord {
  id: PointId;
  payload?: Payload | null;
  vector?: VectorOutput | null;
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

/** A vector a request gives to search with: dense, a multivector's rows, or sparse. */
export type QueryVector = readonly number[] | readonly (readonly number[])[] | SparseVector;

/** A sparse vector as the shards return it (float32 values, as stored). */
export interface SparseVectorOut {
  indices: Uint32Array;
  values: Float32Array;
}

/**
 * A vector as returned to clients: a bare dense vector (or a multivector's rows) when it is the
 * unnamed one alone, a map of names otherwise. Values stay float32 from the shards to the edge:
 * REST writes each as its shortest decimal (src/shared/response-json.ts), gRPC sends the floats.
 */
export type VectorOutput = Float32Array | Float32Array[] | Record<string, Float32Array | Float32Array[] | SparseVectorOut>;

/** Vector `name` of a point as returned (a bare output is the one vector selected), as plain numbers to compute with. */
export function vectorOf(v: VectorOutput | null | undefined, name: string): number[] | number[][] | SparseVector | undefined {
  const one = v === null || v === undefined ? undefined : v instanceof Float32Array || Array.isArray(v) ? v : v[name];
  if (one === undefined) return undefined;
  if (one instanceof Float32Array) return Array.from(one);
  if (Array.isArray(one)) return one.map((row) => Array.from(row));
  return { indices: Array.from(one.indices), values: Array.from(one.values) };
}

/** What a request wants back of each point's payload and vectors, after the REST/gRPC forms are normalised. */
export type PayloadSelector =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'include'; keys: string[] }
  | { kind: 'exclude'; keys: string[] };

export type VectorSelector = { kind: 'none' } | { kind: 'all' } | { kind: 'names'; names: string[] };

export const DEFAULT_HNSW: HnswConfig = {
  m: 16,
  ef_construct: 100,
  full_scan_threshold: 10_000,
  max_indexing_threads: 0,
  on_disk: false,
};

/** Largest vector dimension accepted, as Qdrant. */
export const MAX_VECTOR_SIZE = 65_536;

/**
 * What a point write answers (Qdrant's UpdateResult): `completed` once applied with wait=true;
 * `wait_timeout`, with no operation id, when wait=true ran past the request's timeout.
 */
export interface UpdateResult {
  operation_id: number | null;
  status: 'acknowledged' | 'completed' | 'wait_timeout';
}
