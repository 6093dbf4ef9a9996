// Point ids, payload values (protobuf Value and Struct <-> JSON) and vectors, both ways. A vector
// comes in as REST carries it (an array, a sparse pair, a map of names) for the service to check.

import { QuiverError } from '../../errors.js';
import type { VectorStruct } from '../../schemas/points.js';
import type { JsonValue, Payload, PointId, SparseVector, SparseVectorOut, VectorOutput } from '../../types.js';
import type { PointId as PointIdOut, PointId__Output } from '../generated/qdrant/PointId.js';
import type { Value, Value__Output } from '../generated/qdrant/Value.js';
import type { Vector__Output } from '../generated/qdrant/Vector.js';
import type { Vectors__Output } from '../generated/qdrant/Vectors.js';
import type { VectorOutput as VectorOutputOut } from '../generated/qdrant/VectorOutput.js';
import type { VectorsOutput } from '../generated/qdrant/VectorsOutput.js';

/** A point id as REST carries it (an integer or a UUID string); the service parses and checks it. */
export function pointIdIn(p: PointId__Output | undefined): number | string {
  if (p?.num !== undefined) return Number(p.num);
  if (p?.uuid !== undefined) return p.uuid;
  throw QuiverError.badInput('Point id is missing: expected `num` or `uuid`');
}

export function pointIdOut(id: PointId): PointIdOut {
  return typeof id === 'number' ? { num: id } : { uuid: id };
}

export function valueIn(v: Value__Output): JsonValue {
  switch (v.kind) {
    case 'double_value':
      return v.double_value ?? 0;
    case 'integer_value':
      return Number(v.integer_value);
    case 'string_value':
      return v.string_value ?? '';
    case 'bool_value':
      return v.bool_value ?? false;
    case 'struct_value':
      return structIn(v.struct_value?.fields ?? {});
    case 'list_value':
      return (v.list_value?.values ?? []).map(valueIn);
    default:
      return null;
  }
}

export function structIn(fields: Record<string, Value__Output>): Payload {
  const out: Payload = {};
  for (const [k, v] of Object.entries(fields)) out[k] = valueIn(v);
  return out;
}

const MAX_INT64 = 2 ** 63;

export function valueOut(v: JsonValue): Value {
  if (v === null) return { null_value: 'NULL_VALUE' };
  switch (typeof v) {
    case 'boolean':
      return { bool_value: v };
    case 'string':
      return { string_value: v };
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < MAX_INT64 ? { integer_value: v } : { double_value: v };
    default:
      return Array.isArray(v) ? { list_value: { values: v.map(valueOut) } } : { struct_value: { fields: structOut(v) } };
  }
}

export function structOut(p: Payload | null | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  if (p !== null && p !== undefined) for (const [k, v] of Object.entries(p)) out[k] = valueOut(v);
  return out;
}

/** Rows of a multi-vector in the deprecated flat form: `count` vectors packed in `data`. */
function rows(data: number[], count: number): number[][] {
  const size = count > 0 ? data.length / count : 0;
  return Array.from({ length: count }, (_, i) => data.slice(i * size, (i + 1) * size));
}

/** An inference input in REST form: {text | image | object, model, options}. */
export type InferenceInput = Record<string, unknown> & { model: string };

/**
 * One vector of a request in REST form: dense (an array), sparse ({indices, values}), a
 * multivector (an array of arrays), or an inference
 * input (a BM25 document is embedded by the service; the others are refused there by name).
 */
export function vectorIn(v: Vector__Output): number[] | SparseVector | number[][] | InferenceInput {
  const given = vectorFormIn(v.vector, v);
  if (given !== undefined) return given;
  // Older clients send the deprecated flat form: data, with indices (sparse) or vectors_count (multi).
  if (v.indices !== undefined) return { indices: v.indices.data, values: v.data };
  if (v.vectors_count !== undefined) return rows(v.data, v.vectors_count);
  return v.data;
}

/**
 * The vector forms Vector and VectorInput share, by the name of the oneof member set; undefined
 * for none of them. Inference inputs are refused.
 */
export function vectorFormIn(
  form: string | undefined,
  v: Pick<Vector__Output, 'dense' | 'sparse' | 'multi_dense' | 'document' | 'image' | 'object'>,
): number[] | SparseVector | number[][] | InferenceInput | undefined {
  switch (form) {
    case 'dense':
      return v.dense?.data ?? [];
    case 'sparse':
      return { indices: v.sparse?.indices ?? [], values: v.sparse?.values ?? [] };
    case 'multi_dense':
      return (v.multi_dense?.vectors ?? []).map((d) => d.data);
    // In REST form, for the service to embed (BM25 documents) or refuse by name (the rest).
    case 'document':
      return { text: v.document?.text ?? '', model: v.document?.model ?? '', ...(v.document && Object.keys(v.document.options).length > 0 ? { options: structIn(v.document.options) } : {}) };
    case 'image':
      return { image: v.image?.image ? valueIn(v.image.image) : null, model: v.image?.model ?? '' };
    case 'object':
      return { object: v.object?.object ? valueIn(v.object.object) : null, model: v.object?.model ?? '' };
    default:
      return undefined;
  }
}

/** A point's vectors in REST form: an array for the unnamed vector, a map of names otherwise. */
export function vectorsIn(v: Vectors__Output | undefined): VectorStruct {
  if (v?.vector !== undefined) {
    const one = vectorIn(v.vector);
    if ('indices' in one) throw QuiverError.badInput('Wrong input: a sparse vector must be named: send it in `vectors`');
    return one as VectorStruct;
  }
  const out: Record<string, unknown> = {};
  for (const [name, vec] of Object.entries(v?.vectors?.vectors ?? {})) out[name] = vectorIn(vec);
  return out as VectorStruct;
}

/**
 * A multivector comes in both of Qdrant's forms: multi_dense, and the deprecated flat data with
 * vectors_count, which Qdrant's own server still fills and older clients read.
 */
function vectorOut(v: Float32Array | Float32Array[] | SparseVectorOut): VectorOutputOut {
  // The float32 values go out as stored (their doubles are exact). A DenseVector's data stays a
  // Float32Array, which the coordinator's codec writes as raw bytes (grpc-codec.ts; the generated
  // type says number[]); elsewhere protobufjs wants plain arrays.
  const floats = (f: Float32Array): number[] => Array.from(f);
  const dense = (f: Float32Array): { data: number[] } => ({ data: f as unknown as number[] });
  if (v instanceof Float32Array) return { dense: dense(v) };
  if (!Array.isArray(v)) return { sparse: { indices: Array.from(v.indices), values: floats(v.values) } };
  return { multi_dense: { vectors: v.map(dense) }, data: v.flatMap(floats), vectors_count: v.length };
}

export function vectorsOut(v: VectorOutput | null | undefined): VectorsOutput | undefined {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Float32Array || Array.isArray(v)) return { vector: vectorOut(v) };
  const vectors: Record<string, VectorOutputOut> = {};
  for (const [name, data] of Object.entries(v)) vectors[name] = vectorOut(data);
  return { vectors: { vectors } };
}
