import Type, { type Static } from 'typebox';
import { ClearPayload, DeletePayload, SetPayload } from './payload.js';
import { DeleteVectors, PointsSelector, UpdateVectors, UpsertPoints } from './points.js';

/** One operation of a batch update: an object with exactly one key naming the operation. */
const op = <K extends string, S extends Parameters<typeof Type.Object>[0][string]>(key: K, body: S) =>
  Type.Object({ [key]: body } as { [P in K]: S }, { additionalProperties: false });

export const UpdateOperation = Type.Union([
  op('upsert', UpsertPoints),
  op('delete', PointsSelector),
  op('set_payload', SetPayload),
  op('overwrite_payload', SetPayload),
  op('delete_payload', DeletePayload),
  op('clear_payload', ClearPayload),
  op('update_vectors', UpdateVectors),
  op('delete_vectors', DeleteVectors),
]);
export type UpdateOperation = Static<typeof UpdateOperation>;

export const UpdateOperations = Type.Object({ operations: Type.Array(UpdateOperation, { maxItems: 1000 }) });
export type UpdateOperations = Static<typeof UpdateOperations>;
