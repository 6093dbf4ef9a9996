import Type, { type Static } from 'typebox';
import { ExtendedPointId, Filter, parseBound, ShardKeySelector } from './common.js';

/** A payload key: Qdrant parses it as a JSON path, so an empty one does not read (400). */
const KeyPath = (): ReturnType<typeof Type.String> => parseBound(Type.String({ minLength: 1 }));

const PayloadObject = Type.Record(Type.String(), Type.Unknown());
const Selection = {
  points: Type.Optional(Type.Union([Type.Array(ExtendedPointId), Type.Null()])),
  filter: Type.Optional(Type.Union([Filter, Type.Null()])),
  shard_key: Type.Optional(ShardKeySelector),
};

export const SetPayload = Type.Object({
  payload: PayloadObject,
  ...Selection,
  key: Type.Optional(Type.Union([KeyPath(), Type.Null()])),
});
export type SetPayload = Static<typeof SetPayload>;

export const DeletePayload = Type.Object({ keys: Type.Array(KeyPath()), ...Selection });
export type DeletePayload = Static<typeof DeletePayload>;

export const ClearPayload = Type.Object(Selection);
export type ClearPayload = Static<typeof ClearPayload>;

// Spelled out: a union built with .map() has the static type never, which no caller could pass.
const SchemaType = Type.Union([
  Type.Literal('keyword'),
  Type.Literal('integer'),
  Type.Literal('float'),
  Type.Literal('geo'),
  Type.Literal('text'),
  Type.Literal('bool'),
  Type.Literal('datetime'),
  Type.Literal('uuid'),
]);

export const FieldSchemaParams = Type.Object(
  {
    type: SchemaType,
    tokenizer: Type.Optional(Type.Union([Type.Literal('prefix'), Type.Literal('whitespace'), Type.Literal('word'), Type.Literal('multilingual')])),
    min_token_len: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    max_token_len: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    lowercase: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    lookup: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    range: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    is_principal: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    is_tenant: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    on_disk: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    memory: Type.Optional(Type.Union([Type.Literal('cold'), Type.Literal('cached'), Type.Literal('pinned'), Type.Null()])),
    enable_hnsw: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    // keyword: prefix matching served by the index.
    prefix: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    ascii_folding: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    phrase_matching: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    // A language, or languages and custom words (the languages Quiver has: text-languages.ts).
    stopwords: Type.Optional(
      Type.Union([
        Type.String(),
        Type.Object({
          languages: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
          custom: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
        }),
        Type.Null(),
      ]),
    ),
    stemmer: Type.Optional(
      Type.Union([Type.Object({ type: Type.Literal('snowball'), language: Type.String() }), Type.Object({ type: Type.Literal('none') }), Type.Null()]),
    ),
  },
  { additionalProperties: true },
);

export const CreateFieldIndex = Type.Object({
  field_name: KeyPath(),
  field_schema: Type.Optional(Type.Union([SchemaType, FieldSchemaParams, Type.Null()])),
});
export type CreateFieldIndex = Static<typeof CreateFieldIndex>;

export const FieldNameParams = Type.Object({
  collection_name: Type.String({ minLength: 1, maxLength: 255 }),
  field_name: Type.String({ minLength: 1 }),
});
