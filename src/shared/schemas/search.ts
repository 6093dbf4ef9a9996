import Type, { type Static } from 'typebox';
import { DenseVector, MultiDenseVector, ExtendedPointId, Filter, ShardKeySelector, SparseVector, VectorSelection, WithPayload } from './common.js';

/** Qdrant's QuantizationSearchParams: how a quantized vector's graph is searched (search-planner.ts). */
export const QuantizationSearchParams = Type.Object({
  ignore: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  rescore: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  oversampling: Type.Optional(Type.Union([Type.Number({ minimum: 1 }), Type.Null()])),
});
export type QuantizationSearchParams = Static<typeof QuantizationSearchParams>;

export const SearchParams = Type.Object({
  hnsw_ef: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  exact: Type.Optional(Type.Boolean()),
  quantization: Type.Optional(Type.Union([QuantizationSearchParams, Type.Null()])),
  indexed_only: Type.Optional(Type.Boolean()),
  acorn: Type.Optional(Type.Unknown()),
});
export type SearchParams = Static<typeof SearchParams>;

export const NamedVectorStruct = Type.Union([
  DenseVector,
  Type.Object({ name: Type.String(), vector: DenseVector }),
  Type.Object({ name: Type.String(), vector: SparseVector }),
]);

// Qdrant: `range(min = 1)`, so 0 is a 422 and a negative number a 400.
const Limit = Type.Integer({ minimum: 1 });

export const SearchRequest = Type.Object({
  vector: NamedVectorStruct,
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  params: Type.Optional(Type.Union([SearchParams, Type.Null()])),
  limit: Limit,
  offset: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  with_payload: Type.Optional(WithPayload),
  ...VectorSelection,
  score_threshold: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  shard_key: Type.Optional(ShardKeySelector),
});
export type SearchRequest = Static<typeof SearchRequest>;

export const SearchBatch = Type.Object({ searches: Type.Array(SearchRequest) });
export type SearchBatch = Static<typeof SearchBatch>;

/** Query kinds: a vector, a point id, or one of Qdrant's tagged objects. Checked by the service. */
export const QueryInterface = Type.Union([
  DenseVector,
  ExtendedPointId,
  Type.Object({ nearest: Type.Union([DenseVector, ExtendedPointId, Type.Record(Type.String(), Type.Unknown()), MultiDenseVector]) }),
  Type.Record(Type.String(), Type.Unknown()),
  MultiDenseVector,
]);

export const QueryRequest = Type.Object({
  prefetch: Type.Optional(Type.Unknown()),
  query: Type.Optional(Type.Union([QueryInterface, Type.Null()])),
  using: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  params: Type.Optional(Type.Union([SearchParams, Type.Null()])),
  score_threshold: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  limit: Type.Optional(Limit),
  offset: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  ...VectorSelection,
  with_payload: Type.Optional(WithPayload),
  lookup_from: Type.Optional(Type.Unknown()),
  shard_key: Type.Optional(ShardKeySelector),
});
export type QueryRequest = Static<typeof QueryRequest>;

export const QueryBatch = Type.Object({ searches: Type.Array(QueryRequest) });
export type QueryBatch = Static<typeof QueryBatch>;

export { ExtendedPointId };
