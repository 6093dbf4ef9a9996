// Field indexes: create and delete, normalised from Qdrant's string and object field_schema.

import { QuiverError } from '../../shared/errors.js';
import { requireJsonPath } from '../../shared/json-path.js';
import type { CreateFieldIndex } from '../../shared/schemas/payload.js';
import { PAYLOAD_SCHEMA_TYPES, type FieldIndexSchema, type JsonValue, type PayloadSchemaType } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { updateResult, type UpdateResult } from '../../workers/service/writes.js';

export function fieldSchema(raw: CreateFieldIndex['field_schema']): FieldIndexSchema {
  if (raw === undefined || raw === null) {
    throw QuiverError.badInput(`field_schema is required: one of ${PAYLOAD_SCHEMA_TYPES.join(', ')}, or an object with a type`);
  }
  if (typeof raw === 'string') {
    const type = raw as PayloadSchemaType;
    return type === 'text' ? { type, text: { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true } } : { type };
  }
  const type = raw.type as PayloadSchemaType;
  // Qdrant's IntegerIndexParams validation: an integer index that can neither look up nor range
  // would index nothing. Worded as its validator words a rule with a code and no message.
  if (type === 'integer' && raw['lookup'] === false && raw['range'] === false) {
    throw QuiverError.unprocessable(
      "Validation error in JSON body: [field_schema.lookup: Validation error: the 'lookup' and 'range' capabilities can't be both disabled [{}]]",
    );
  }
  // Field indexes are in memory (payloads may be on disk: on_disk_payload); refused rather than ignored.
  if (raw['on_disk'] === true) throw QuiverError.badInput(`field_schema.on_disk: true cannot apply: Quiver keeps field indexes in memory`);
  const params = JSON.parse(JSON.stringify(raw)) as Record<string, JsonValue>;
  if (type !== 'text') return { type, params };
  return {
    type,
    params,
    text: {
      tokenizer: raw.tokenizer ?? 'word',
      min_token_len: raw.min_token_len ?? null,
      max_token_len: raw.max_token_len ?? null,
      lowercase: raw.lowercase ?? true,
    },
  };
}

export async function doCreateIndex(engine: Engine, name: string, req: CreateFieldIndex, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  requireJsonPath(req.field_name, 'Bad field_name');
  const schema = fieldSchema(req.field_schema);
  const opId = engine.nextOpId(meta.id);
  await engine.setIndex(meta, req.field_name, schema);
  return updateResult(opId, wait);
}

export async function doDeleteIndex(engine: Engine, name: string, field: string, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  const opId = engine.nextOpId(meta.id);
  if (meta.config.payload_schema[field] !== undefined) await engine.setIndex(meta, field, null);
  return updateResult(opId, wait);
}
