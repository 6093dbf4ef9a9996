import Type, { type Static } from 'typebox';
import { MAX_VECTOR_SIZE } from '../types.js';
import { NonZeroU32 } from './common.js';

export const Distance = Type.Union([Type.Literal('Cosine'), Type.Literal('Euclid'), Type.Literal('Dot'), Type.Literal('Manhattan')]);

/**
 * Qdrant's Memory placement (1.19), read as Quiver's on_disk where it has a choice: `cold` on
 * disk, `cached` (Qdrant's in-RAM default) and `pinned` in memory (storage-settings.ts onDiskOf).
 */
export const Memory = Type.Union([Type.Literal('cold'), Type.Literal('cached'), Type.Literal('pinned'), Type.Null()]);

export const HnswConfigDiff = Type.Object({
  m: Type.Optional(Type.Integer({ minimum: 0, maximum: 1024 })),
  ef_construct: Type.Optional(Type.Integer({ minimum: 4, maximum: 100_000 })),
  full_scan_threshold: Type.Optional(Type.Integer({ minimum: 0 })),
  max_indexing_threads: Type.Optional(Type.Integer({ minimum: 0 })),
  on_disk: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  payload_m: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  memory: Type.Optional(Memory),
  inline_storage: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
export type HnswConfigDiff = Static<typeof HnswConfigDiff>;


export const ScalarQuantizationConfig = Type.Object({
  type: Type.Literal('int8'),
  quantile: Type.Optional(Type.Union([Type.Number({ minimum: 0.5, maximum: 1 }), Type.Null()])),
  always_ram: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  memory: Type.Optional(Memory),
});

export const BinaryQuantizationConfig = Type.Object({
  always_ram: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  memory: Type.Optional(Memory),
  encoding: Type.Optional(Type.Union([Type.Literal('one_bit'), Type.Literal('two_bits'), Type.Literal('one_and_half_bits'), Type.Null()])),
  query_encoding: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('binary'), Type.Literal('scalar4bits'), Type.Literal('scalar8bits'), Type.Null()])),
});

/**
 * Qdrant's QuantizationConfig. Product and turbo quantization read, so that the service can refuse
 * them by name (src/main/service/quantization.ts), as it refuses the binary encodings it lacks.
 */
export const QuantizationConfig = Type.Union([
  Type.Object({ scalar: ScalarQuantizationConfig }),
  Type.Object({ binary: BinaryQuantizationConfig }),
  Type.Object({ product: Type.Unknown() }),
  Type.Object({ turbo: Type.Unknown() }),
]);
export type QuantizationConfig = Static<typeof QuantizationConfig>;

/** A PATCH may also turn quantization off. */
export const QuantizationConfigDiff = Type.Union([QuantizationConfig, Type.Literal('Disabled')]);
export type QuantizationConfigDiff = Static<typeof QuantizationConfigDiff>;

/** Qdrant's Datatype: Quiver stores float32, and uint8 for multivectors; it refuses the others by name. */
const Datatype = Type.Union([Type.Literal('float32'), Type.Literal('float16'), Type.Literal('uint8'), Type.Null()]);

export const VectorParams = Type.Object({
  size: Type.Integer({ minimum: 1, maximum: MAX_VECTOR_SIZE }),
  distance: Distance,
  hnsw_config: Type.Optional(Type.Union([HnswConfigDiff, Type.Null()])),
  on_disk: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  memory: Type.Optional(Memory),
  quantization_config: Type.Optional(Type.Union([QuantizationConfig, Type.Null()])),
  // Read so that the service refuses what it does not store by name (storage-settings.ts).
  datatype: Type.Optional(Datatype),
  multivector_config: Type.Optional(Type.Union([Type.Object({ comparator: Type.Literal('max_sim') }), Type.Null()])),
});
export type VectorParams = Static<typeof VectorParams>;

export const VectorsConfig = Type.Union([VectorParams, Type.Record(Type.String(), VectorParams)]);
export type VectorsConfig = Static<typeof VectorsConfig>;

export const SparseVectorParams = Type.Object({
  index: Type.Optional(
    Type.Union([
      Type.Object({
        full_scan_threshold: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
        on_disk: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        datatype: Type.Optional(Datatype),
        memory: Type.Optional(Memory),
      }),
      Type.Null(),
    ]),
  ),
  modifier: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('idf'), Type.Null()])),
});
export type SparseVectorParams = Static<typeof SparseVectorParams>;

/** An optional, nullable unsigned integer with Qdrant's bounds. */
const Uint = (bounds: { minimum: number }) => Type.Optional(Type.Union([Type.Integer(bounds), Type.Null()]));

// Checked with Qdrant's rules so that a value Qdrant refuses is refused here too; kept and
// reported, and of the optimizers' fields the switch that turns indexing off is applied
// (CollectionConfig.optimizers_config in types.ts says which).
export const WalConfigDiff = Type.Object({
  wal_capacity_mb: Uint({ minimum: 1 }),
  wal_segments_ahead: Uint({ minimum: 0 }),
  wal_retain_closed: Uint({ minimum: 0 }),
});

export const OptimizersConfigDiff = Type.Object({
  deleted_threshold: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  vacuum_min_vector_number: Uint({ minimum: 100 }),
  default_segment_number: Uint({ minimum: 0 }),
  max_segment_size: Uint({ minimum: 1 }),
  memmap_threshold: Uint({ minimum: 0 }),
  indexing_threshold: Uint({ minimum: 0 }),
  flush_interval_sec: Uint({ minimum: 0 }),
  // A thread count, or "auto" (Qdrant's MaxOptimizationThreads); 0 turns indexing off.
  max_optimization_threads: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('auto'), Type.Null()])),
  prevent_unoptimized: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});

const NullableUint = (minimum: number) => Type.Optional(Type.Union([Type.Integer({ minimum }), Type.Null()]));
const NullableBool = Type.Optional(Type.Union([Type.Boolean(), Type.Null()]));

/**
 * Qdrant 1.19's StrictModeConfig, every field: enforced while `enabled` (src/workers/service/
 * strict-mode.ts), or refused by name where Quiver cannot (src/main/service/strict-mode-config.ts).
 */
export const StrictModeConfig = Type.Object({
  enabled: NullableBool,
  max_query_limit: NullableUint(1),
  max_timeout: NullableUint(1),
  unindexed_filtering_retrieve: NullableBool,
  unindexed_filtering_update: NullableBool,
  search_max_hnsw_ef: NullableUint(0),
  search_allow_exact: NullableBool,
  search_max_oversampling: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  upsert_max_batchsize: NullableUint(0),
  search_max_batchsize: NullableUint(0),
  max_collection_vector_size_bytes: NullableUint(0),
  read_rate_limit: NullableUint(1),
  write_rate_limit: NullableUint(1),
  max_collection_payload_size_bytes: NullableUint(0),
  max_points_count: NullableUint(1),
  filter_max_conditions: NullableUint(0),
  condition_max_size: NullableUint(0),
  multivector_config: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Object({ max_vectors: NullableUint(1) })), Type.Null()])),
  sparse_config: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Object({ max_length: NullableUint(1) })), Type.Null()])),
  max_payload_index_count: NullableUint(0),
  max_resident_memory_percent: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
});
export type StrictModeConfig = Static<typeof StrictModeConfig>;

/** Qdrant's collection metadata: a JSON object (a Payload), or null for none. */
const Metadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

/** Qdrant's PayloadStorageParams (1.19): `memory` overrides on_disk_payload. */
export const PayloadStorage = Type.Object({ memory: Type.Optional(Memory) });

export const CreateCollection = Type.Object({
  vectors: Type.Optional(VectorsConfig),
  vectors_config: Type.Optional(VectorsConfig),
  shard_number: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1024 }), Type.Null()])),
  hnsw_config: Type.Optional(Type.Union([HnswConfigDiff, Type.Null()])),
  on_disk_payload: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  payload: Type.Optional(Type.Union([PayloadStorage, Type.Null()])),
  sparse_vectors: Type.Optional(Type.Union([Type.Record(Type.String(), SparseVectorParams), Type.Null()])),
  // Kept and reported in the collection info, as Qdrant's u32 with a minimum of 1 (0 is a 422).
  replication_factor: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 4_294_967_295 }), Type.Null()])),
  write_consistency_factor: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 4_294_967_295 }), Type.Null()])),
  wal_config: Type.Optional(Type.Union([WalConfigDiff, Type.Null()])),
  optimizers_config: Type.Optional(Type.Union([OptimizersConfigDiff, Type.Null()])),
  // 'auto' taken, 'custom' refused by name (the service: collections.ts).
  sharding_method: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('custom'), Type.Null()])),
  quantization_config: Type.Optional(Type.Union([QuantizationConfig, Type.Null()])),
  strict_mode_config: Type.Optional(Type.Union([StrictModeConfig, Type.Null()])),
  init_from: Type.Optional(Type.Unknown()),
  metadata: Type.Optional(Metadata),
});
export type CreateCollection = Static<typeof CreateCollection>;

export const VectorParamsDiff = Type.Object({
  hnsw_config: Type.Optional(Type.Union([HnswConfigDiff, Type.Null()])),
  on_disk: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  memory: Type.Optional(Memory),
  quantization_config: Type.Optional(Type.Union([QuantizationConfigDiff, Type.Null()])),
});

/** Qdrant's CollectionParamsDiff: its factors are NonZeroU32, so a 0 there does not even read (400). */
export const CollectionParamsDiff = Type.Object({
  replication_factor: Type.Optional(Type.Union([NonZeroU32, Type.Null()])),
  write_consistency_factor: Type.Optional(Type.Union([NonZeroU32, Type.Null()])),
  // Read so that the service refuses them by name: in cluster mode a slow read is joined by a second
  // replica after one node-wide delay (SERVICE_CLUSTER_HEDGE_MS, src/shared/cluster/hedge.ts).
  read_fan_out_factor: Type.Optional(Type.Unknown()),
  read_fan_out_delay_ms: Type.Optional(Type.Unknown()),
  on_disk_payload: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  payload: Type.Optional(Type.Union([PayloadStorage, Type.Null()])),
});

export const UpdateCollection = Type.Object({
  vectors: Type.Optional(Type.Record(Type.String(), VectorParamsDiff)),
  hnsw_config: Type.Optional(Type.Union([HnswConfigDiff, Type.Null()])),
  params: Type.Optional(Type.Union([CollectionParamsDiff, Type.Null()])),
  optimizers_config: Type.Optional(Type.Union([OptimizersConfigDiff, Type.Null()])),
  quantization_config: Type.Optional(Type.Union([QuantizationConfigDiff, Type.Null()])),
  sparse_vectors: Type.Optional(Type.Union([Type.Record(Type.String(), SparseVectorParams), Type.Null()])),
  strict_mode_config: Type.Optional(Type.Union([StrictModeConfig, Type.Null()])),
  metadata: Type.Optional(Metadata),
});
export type UpdateCollection = Static<typeof UpdateCollection>;

/** A vector name created on a live collection (`PUT /collections/{name}/vectors/{vector_name}`). */
export const VectorNameParams = Type.Object({
  collection_name: Type.String({ minLength: 1, maxLength: 255 }),
  vector_name: Type.String({ minLength: 1 }),
});

/**
 * Qdrant's VectorNameConfig: what defines a vector's rows, dense (multivectors too) or sparse.
 * Graph, storage and quantization are the collection's, PATCHable afterwards.
 */
export const VectorNameConfig = Type.Union([
  Type.Object({
    dense: Type.Object({
      size: Type.Integer({ minimum: 1, maximum: MAX_VECTOR_SIZE }),
      distance: Distance,
      multivector_config: Type.Optional(Type.Union([Type.Object({ comparator: Type.Literal('max_sim') }), Type.Null()])),
      datatype: Type.Optional(Datatype),
    }),
  }),
  Type.Object({
    sparse: Type.Object({
      modifier: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('idf'), Type.Null()])),
      datatype: Type.Optional(Datatype),
    }),
  }),
]);
export type VectorNameConfig = Static<typeof VectorNameConfig>;

/** `GET /collections/{name}/optimizations`: `with` lists the optional parts (queued, completed, idle_segments). */
export const OptimizationsQuery = Type.Object({
  with: Type.Optional(Type.String()),
  completed_limit: Type.Optional(Type.Integer({ minimum: 0 })),
});
