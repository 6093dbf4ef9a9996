// Request shapes shared by several routes, as Qdrant's REST API names them. These schemas
// validate (compiled at boot), type the handlers (Static<>) and feed the OpenAPI document.

import Type, { type Static, type TSchema } from 'typebox';

/**
 * Marks a schema whose bounds are part of its type (a NonZeroU32, a JSON path that must not be
 * empty): breaking them is a format error (400), as when Qdrant's serde cannot read the value,
 * not a validation error (422). A symbol, so the OpenAPI document does not show it.
 */
export const PARSE_BOUND = Symbol.for('quiver.parseBound');

/** `schema` with its bounds read as part of its type (see PARSE_BOUND). */
export function parseBound<T extends TSchema>(schema: T): T {
  Object.defineProperty(schema, PARSE_BOUND, { value: true, enumerable: false });
  return schema;
}

/** A u32 that may not be 0, as Qdrant's `NonZeroU32` (0 does not read: 400, not 422). */
export const NonZeroU32 = parseBound(Type.Integer({ minimum: 1, maximum: 4_294_967_295 }));

/** An unsigned integer or a UUID string (checked and normalised by the service). */
/** Kept loose here so that a bad id gets the parser's precise message rather than a schema's. */
export const ExtendedPointId = Type.Union([Type.Number(), Type.String()], {
  description: 'Point id: unsigned integer or UUID',
});

export const CollectionNameParams = Type.Object({
  collection_name: Type.String({ minLength: 1, maxLength: 255 }),
});

export const WaitQuery = Type.Object({
  wait: Type.Optional(Type.Boolean()),
  ordering: Type.Optional(Type.Union([Type.Literal('weak'), Type.Literal('medium'), Type.Literal('strong')])),
  timeout: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** A read's query string: its read consistency (the service reads it: read-consistency.ts) and its timeout. */
export const ReadQuery = Type.Object({
  consistency: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'Replicas to read from: a number, or majority, quorum, all' })),
  timeout: Type.Optional(Type.Integer({ minimum: 1, description: 'Seconds to wait for the result (408 after)' })),
});

const KeyList = Type.Union([Type.Array(Type.String()), Type.String()]);

export const WithPayload = Type.Union([
  Type.Boolean(),
  Type.Array(Type.String()),
  Type.Object({ include: KeyList }, { additionalProperties: false }),
  Type.Object({ exclude: KeyList }, { additionalProperties: false }),
]);
export type WithPayload = Static<typeof WithPayload>;

export const WithVector = Type.Union([Type.Boolean(), Type.Array(Type.String())]);
export type WithVector = Static<typeof WithVector>;

/**
 * `with_vector` and its alias `with_vectors`, as Qdrant's serde accepts on every request that
 * returns points (search, query, retrieve, scroll and their batch and group forms). The service
 * reads the pair through `withVectorOf`, the one place that resolves the alias.
 */
export const VectorSelection = {
  with_vector: Type.Optional(WithVector),
  with_vectors: Type.Optional(Type.Union([Type.Boolean(), Type.Array(Type.String())], { description: 'Alias of with_vector' })),
};

/** A dense vector. Finiteness and size are checked against the collection by the service. */
// An empty one is a 400, as Qdrant refuses it (a dimension error), not a 422.
export const DenseVector = parseBound(Type.Array(Type.Number(), { minItems: 1 }));

/**
 * A multivector: rows of one size (multivector_config). Row sizes, and a plain vector given for a
 * multivector name, are checked by the service as Qdrant checks them.
 */
// Listed after the other forms in unions: the schema errors then name the other forms' faults.
export const MultiDenseVector = parseBound(Type.Array(Type.Array(Type.Number()), { minItems: 1 }));

/** A sparse vector; equal lengths, unique indices and finite values are checked by the service. */
export const SparseVector = Type.Object({
  indices: Type.Array(Type.Integer({ minimum: 0, maximum: 4_294_967_295 })),
  values: Type.Array(Type.Number()),
});

/**
 * Qdrant's inference inputs where a vector goes: a Document (text), an Image or an
 * InferenceObject, each with its model. Quiver embeds BM25 documents (src/workers/service/bm25.ts)
 * and refuses the rest by name.
 */
const Options = Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]));
export const InferenceInput = Type.Union([
  Type.Object({ text: Type.String(), model: Type.String({ minLength: 1 }), options: Options }),
  Type.Object({ image: Type.Unknown(), model: Type.String({ minLength: 1 }), options: Options }),
  Type.Object({ object: Type.Unknown(), model: Type.String({ minLength: 1 }), options: Options }),
]);

/** Qdrant's filter language; its grammar is checked, with precise messages, by the filter parser. */
export const Filter = Type.Object(
  {
    must: Type.Optional(Type.Unknown()),
    should: Type.Optional(Type.Unknown()),
    must_not: Type.Optional(Type.Unknown()),
    min_should: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true, description: 'Qdrant filter: must / should / must_not / min_should' },
);

export const ShardKeySelector = Type.Unknown();
