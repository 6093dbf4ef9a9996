import Type, { type Static } from 'typebox';
import { DenseVector, MultiDenseVector, ExtendedPointId, Filter, InferenceInput, parseBound, ShardKeySelector, SparseVector, VectorSelection, WithPayload } from './common.js';

/**
 * One point's vectors: a plain array or a multivector's rows (unnamed vector), or a map of names
 * to dense, multi or sparse vectors; an inference input in place of either (a BM25 document
 * becomes a sparse vector).
 */
export const VectorStruct = Type.Union([DenseVector, InferenceInput, Type.Record(Type.String(), Type.Union([DenseVector, SparseVector, InferenceInput, MultiDenseVector])), MultiDenseVector]);
export type VectorStruct = Static<typeof VectorStruct>;

const PayloadObject = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const PointStruct = Type.Object({
  id: ExtendedPointId,
  vector: VectorStruct,
  payload: Type.Optional(PayloadObject),
});

const UpdateMode = Type.Union([Type.Literal('upsert'), Type.Literal('insert_only'), Type.Literal('update_only')]);
const WriteConditions = {
  update_filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  update_mode: Type.Optional(Type.Union([UpdateMode, Type.Null()])),
};

export const PointsList = Type.Object({
  points: Type.Array(PointStruct),
  shard_key: Type.Optional(ShardKeySelector),
  ...WriteConditions,
});

export const PointsBatch = Type.Object({
  batch: Type.Object({
    ids: Type.Array(ExtendedPointId),
    vectors: Type.Union([
      Type.Array(Type.Union([DenseVector, InferenceInput, MultiDenseVector])),
      Type.Record(Type.String(), Type.Array(Type.Union([DenseVector, SparseVector, InferenceInput, MultiDenseVector]))),
    ]),
    payloads: Type.Optional(Type.Union([Type.Array(PayloadObject), Type.Null()])),
  }),
  shard_key: Type.Optional(ShardKeySelector),
  ...WriteConditions,
});

export const UpsertPoints = Type.Union([PointsList, PointsBatch]);
export type UpsertPoints = Static<typeof UpsertPoints>;

export const RetrievePoints = Type.Object({
  ids: Type.Array(ExtendedPointId),
  with_payload: Type.Optional(WithPayload),
  ...VectorSelection,
  shard_key: Type.Optional(ShardKeySelector),
});
export type RetrievePoints = Static<typeof RetrievePoints>;

export const PointIdParams = Type.Object({
  collection_name: Type.String({ minLength: 1, maxLength: 255 }),
  id: Type.String({ minLength: 1 }),
});

export const PointsSelector = Type.Union([
  Type.Object({ points: Type.Array(ExtendedPointId), shard_key: Type.Optional(ShardKeySelector) }),
  Type.Object({ filter: Filter, shard_key: Type.Optional(ShardKeySelector) }),
]);
export type PointsSelector = Static<typeof PointsSelector>;

export const UpdateVectors = Type.Object({
  points: Type.Array(Type.Object({ id: ExtendedPointId, vector: VectorStruct })),
  shard_key: Type.Optional(ShardKeySelector),
  update_filter: Type.Optional(Type.Union([Filter, Type.Null()])),
});
export type UpdateVectors = Static<typeof UpdateVectors>;

export const CountPoints = Type.Object({
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  exact: Type.Optional(Type.Boolean()),
  shard_key: Type.Optional(ShardKeySelector),
});
export type CountPoints = Static<typeof CountPoints>;

export const FacetRequest = Type.Object({
  // A JSON path in Qdrant: an empty one does not read (400).
  key: parseBound(Type.String({ minLength: 1 })),
  limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  exact: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  shard_key: Type.Optional(ShardKeySelector),
});
export type FacetRequest = Static<typeof FacetRequest>;

/** Qdrant's SearchMatrixRequest: sample at least 2 (default 10), limit at least 1 (default 3). */
export const SearchMatrixRequest = Type.Object({
  sample: Type.Optional(Type.Union([Type.Integer({ minimum: 2 }), Type.Null()])),
  limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  using: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  shard_key: Type.Optional(ShardKeySelector),
});
export type SearchMatrixRequest = Static<typeof SearchMatrixRequest>;

export const OrderBy = Type.Union([
  Type.String(),
  Type.Object({
    key: Type.String(),
    direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Null()])),
    start_from: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  }),
]);

export const ScrollPoints = Type.Object({
  offset: Type.Optional(Type.Union([ExtendedPointId, Type.Null()])),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  with_payload: Type.Optional(WithPayload),
  ...VectorSelection,
  order_by: Type.Optional(OrderBy),
  shard_key: Type.Optional(ShardKeySelector),
});
export type ScrollPoints = Static<typeof ScrollPoints>;

export const DeleteVectors = Type.Object({
  points: Type.Optional(Type.Union([Type.Array(ExtendedPointId), Type.Null()])),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  vector: Type.Array(Type.String(), { minItems: 1 }),
  shard_key: Type.Optional(ShardKeySelector),
});
export type DeleteVectors = Static<typeof DeleteVectors>;
