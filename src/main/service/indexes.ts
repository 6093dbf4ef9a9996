// Field indexes: create and delete, normalised from Qdrant's string and object field_schema.

import { QuiverError } from '../../shared/errors.js';
import { requireJsonPath } from '../../shared/json-path.js';
import type { CreateFieldIndex } from '../../shared/schemas/payload.js';
import { STEMMER_LANGUAGES, STOPWORD_LANGUAGES } from '../../shared/text-languages.js';
import { PAYLOAD_SCHEMA_TYPES, type FieldIndexSchema, type JsonValue, type PayloadSchemaType, type TextIndexParams } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { updateResult, type UpdateResult } from '../../workers/service/writes.js';

type FieldSchemaObject = Exclude<NonNullable<CreateFieldIndex['field_schema']>, string>;

const DEFAULT_TEXT: TextIndexParams = { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true };

export function fieldSchema(raw: CreateFieldIndex['field_schema']): FieldIndexSchema {
  if (raw === undefined || raw === null) {
    throw QuiverError.badInput(`field_schema is required: one of ${PAYLOAD_SCHEMA_TYPES.join(', ')}, or an object with a type`);
  }
  if (typeof raw === 'string') {
    const type = raw as PayloadSchemaType;
    return type === 'text' ? { type, text: DEFAULT_TEXT } : { type };
  }
  const type = raw.type as PayloadSchemaType;
  // Qdrant's IntegerIndexParams validation: an integer index that can neither look up nor range
  // would index nothing. Worded as its validator words a rule with a code and no message.
  if (type === 'integer' && raw['lookup'] === false && raw['range'] === false) {
    throw QuiverError.unprocessable(
      "Validation error in JSON body: [field_schema.lookup: Validation error: the 'lookup' and 'range' capabilities can't be both disabled [{}]]",
    );
  }
  checkPlacement(raw);
  const params = JSON.parse(JSON.stringify(raw)) as Record<string, JsonValue>;
  if (type !== 'text') return { type, params };
  return { type, params, text: textParams(raw) };
}

/**
 * Field indexes are in memory (payloads may be on disk: on_disk_payload), and Quiver builds no
 * per-payload HNSW links (hnsw_config.payload_m is refused too): settings asking otherwise are
 * refused rather than ignored.
 */
function checkPlacement(raw: FieldSchemaObject): void {
  if (raw.on_disk === true) throw QuiverError.badInput(`field_schema.on_disk: true cannot apply: Quiver keeps field indexes in memory`);
  if (raw.memory === 'cold') throw QuiverError.badInput(`field_schema.memory: 'cold' cannot apply: Quiver keeps field indexes in memory`);
  if (raw.enable_hnsw === true) {
    throw QuiverError.badInput('field_schema.enable_hnsw: true cannot apply: Quiver builds no per-payload HNSW links (filtered searches are planned from the field indexes instead)');
  }
}

/** A text index's params: the tokenizer and bounds, and the word steps Quiver has data for. */
function textParams(raw: FieldSchemaObject): TextIndexParams {
  const out: TextIndexParams = {
    tokenizer: raw.tokenizer ?? 'word',
    min_token_len: raw.min_token_len ?? null,
    max_token_len: raw.max_token_len ?? null,
    lowercase: raw.lowercase ?? true,
  };
  if (raw.ascii_folding === true) out.ascii_folding = true;
  const stop = raw.stopwords;
  if (stop !== undefined && stop !== null) {
    const languages = typeof stop === 'string' ? [stop] : (stop.languages ?? []);
    for (const l of languages) {
      if (!STOPWORD_LANGUAGES.includes(l)) {
        throw QuiverError.badInput(`field_schema.stopwords: no stop-word list for '${l}' in Quiver (it has: ${STOPWORD_LANGUAGES.join(', ')}); list the words in stopwords.custom`);
      }
    }
    out.stopwords = { languages: [...new Set(languages)], custom: typeof stop === 'string' ? [] : (stop.custom ?? []) };
  }
  if (raw.stemmer?.type === 'snowball') {
    const l = raw.stemmer.language;
    if (!STEMMER_LANGUAGES.includes(l)) throw QuiverError.badInput(`field_schema.stemmer: no Snowball stemmer for '${l}' in Quiver (it has: ${STEMMER_LANGUAGES.join(', ')})`);
    out.stemmer = l;
  }
  return out;
}

export async function doCreateIndex(engine: Engine, name: string, req: CreateFieldIndex, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  requireJsonPath(req.field_name, 'Bad field_name');
  const schema = fieldSchema(req.field_schema);
  const strict = meta.config.strict_mode_config;
  const indexes = Object.keys(meta.config.payload_schema).length;
  if (strict?.enabled === true && strict.max_payload_index_count !== undefined && meta.config.payload_schema[req.field_name] === undefined && indexes >= strict.max_payload_index_count) {
    throw QuiverError.badInput(`Bad request: Collection already has the maximum number of payload indices (${indexes}). Help: Please delete an existing index before creating a new one.`);
  }
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
