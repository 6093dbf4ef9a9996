// Conversions between Qdrant's protobuf messages (as @grpc/proto-loader decodes them: keepCase,
// 64-bit integers as strings, enums as names, oneofs named) and the request and result shapes of
// the service layer, which are the REST shapes. No rule of the service lives here: a request is
// rewritten into the REST form, checked by the same TypeBox schema a REST route uses (so errors
// read the same), and handed to the same do* function.

import type { Static, TSchema } from 'typebox';
import { QuiverError } from '../../shared/errors.js';
import type { WithPayload, WithVector } from '../../shared/schemas/common.js';
import type { CreateCollection, UpdateCollection, VectorParams as VectorParamsIn } from '../../shared/schemas/collections.js';
import type { DeleteVectors, UpdateVectors, UpsertPoints, VectorStruct } from '../../shared/schemas/points.js';
import type { CreateFieldIndex } from '../../shared/schemas/payload.js';
import type { QueryRequest, SearchParams as SearchParamsIn, SearchRequest } from '../../shared/schemas/search.js';
import type { JsonValue, Payload, PointId, PointRecord, ScoredPoint, SparseVector, SparseVectorParams, VectorOutput } from '../../shared/types.js';
import { compileCheck } from '../validation.js';
import type { UpdateResult } from '../service/writes.js';
import type { Timestamp__Output } from './generated/google/protobuf/Timestamp.js';
import type { CollectionClusterInfoResponse } from './generated/qdrant/CollectionClusterInfoResponse.js';
import type { CollectionInfo } from './generated/qdrant/CollectionInfo.js';
import type { Condition__Output } from './generated/qdrant/Condition.js';
import type { CreateCollection__Output } from './generated/qdrant/CreateCollection.js';
import type { CreateFieldIndexCollection__Output } from './generated/qdrant/CreateFieldIndexCollection.js';
import type { DeletePointVectors__Output } from './generated/qdrant/DeletePointVectors.js';
import type { Distance__Output } from './generated/qdrant/Distance.js';
import type { FieldCondition__Output } from './generated/qdrant/FieldCondition.js';
import type { Filter__Output } from './generated/qdrant/Filter.js';
import type { GeoLineString__Output } from './generated/qdrant/GeoLineString.js';
import type { GeoPoint__Output } from './generated/qdrant/GeoPoint.js';
import type { HnswConfigDiff, HnswConfigDiff__Output } from './generated/qdrant/HnswConfigDiff.js';
import type { Match__Output } from './generated/qdrant/Match.js';
import type { LookupLocation__Output } from './generated/qdrant/LookupLocation.js';
import type { OrderBy__Output } from './generated/qdrant/OrderBy.js';
import type { PayloadIndexParams } from './generated/qdrant/PayloadIndexParams.js';
import type { PayloadSchemaType } from './generated/qdrant/PayloadSchemaType.js';
import type { PointId as PointIdOut, PointId__Output } from './generated/qdrant/PointId.js';
import type { PointsSelector__Output } from './generated/qdrant/PointsSelector.js';
import type { PrefetchQuery__Output } from './generated/qdrant/PrefetchQuery.js';
import type { Query__Output } from './generated/qdrant/Query.js';
import type { RetrievedPoint } from './generated/qdrant/RetrievedPoint.js';
import type { ScoredPoint as ScoredPointOut } from './generated/qdrant/ScoredPoint.js';
import type { SearchParams__Output } from './generated/qdrant/SearchParams.js';
import type { SparseVectorConfig, SparseVectorConfig__Output } from './generated/qdrant/SparseVectorConfig.js';
import type { SparseVectorParams as SparseVectorParamsOut } from './generated/qdrant/SparseVectorParams.js';
import type { SearchPoints__Output } from './generated/qdrant/SearchPoints.js';
import type { ShardKeySelector__Output } from './generated/qdrant/ShardKeySelector.js';
import type { UpdateCollection__Output } from './generated/qdrant/UpdateCollection.js';
import type { UpdatePointVectors__Output } from './generated/qdrant/UpdatePointVectors.js';
import type { UpsertPoints__Output } from './generated/qdrant/UpsertPoints.js';
import type { FacetValue__Output } from './generated/qdrant/FacetValue.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { UpdateResult as UpdateResultOut } from './generated/qdrant/UpdateResult.js';
import type { QueryPoints__Output } from './generated/qdrant/QueryPoints.js';
import type { Value, Value__Output } from './generated/qdrant/Value.js';
import type { Vector__Output } from './generated/qdrant/Vector.js';
import type { VectorInput__Output } from './generated/qdrant/VectorInput.js';
import type { VectorParams, VectorParams__Output } from './generated/qdrant/VectorParams.js';
import type { VectorParamsDiff__Output } from './generated/qdrant/VectorParamsDiff.js';
import type { Vectors__Output } from './generated/qdrant/Vectors.js';
import type { VectorsConfig } from './generated/qdrant/VectorsConfig.js';
import type { VectorOutput as VectorOutputOut } from './generated/qdrant/VectorOutput.js';
import type { VectorsOutput } from './generated/qdrant/VectorsOutput.js';
import type { WithPayloadSelector__Output } from './generated/qdrant/WithPayloadSelector.js';
import type { WithVectorsSelector__Output } from './generated/qdrant/WithVectorsSelector.js';

// ---------------------------------------------------------------------------------------------
// Small tools

/** `{key: value}` when value is defined, `{}` otherwise: optional fields without `undefined`. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A decoded message as plain data: without the markers the decoder adds for proto3 `optional`
 * fields (`_gte: 'gte'`), and with 64-bit integers (decoded as strings) as numbers. For messages
 * passed on whole, such as a range or index params.
 */
export function plain<T extends object>(msg: T, int64: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(msg)) {
    if (k.startsWith('_') && v === k.slice(1)) continue;
    out[k] = int64.includes(k) && typeof v === 'string' ? Number(v) : v;
  }
  return out;
}

/** A uint64/int64 decoded as a string (so no precision is lost on the way), as a JS number. */
export function num(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

function lower<T extends string>(v: T | undefined): Lowercase<T> | undefined {
  return v === undefined ? undefined : (v.toLowerCase() as Lowercase<T>);
}

/**
 * A REST schema compiled once; the check throws what Qdrant's gRPC answers (INVALID_ARGUMENT):
 * a format error, or `Validation error in body: [...]` for broken value rules.
 */
export function schemaCheck<S extends TSchema>(schema: S): (value: Static<S>) => Static<S> {
  const compiled = compileCheck(schema, 'grpc');
  return (value) => {
    const r = compiled.check(value);
    if (r.error !== undefined) throw r.error;
    return value;
  };
}

// ---------------------------------------------------------------------------------------------
// Point ids, payloads, vectors

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

/**
 * One vector of a request in REST form: dense (an array), sparse ({indices, values}) or a
 * multi-vector (an array of arrays, which the REST schema refuses as REST does). Inference
 * inputs (document, image, object) have no REST form in Quiver and are refused here.
 */
export function vectorIn(v: Vector__Output): number[] | SparseVector | number[][] {
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
function vectorFormIn(
  form: string | undefined,
  v: Pick<Vector__Output, 'dense' | 'sparse' | 'multi_dense'>,
): number[] | SparseVector | number[][] | undefined {
  switch (form) {
    case 'dense':
      return v.dense?.data ?? [];
    case 'sparse':
      return { indices: v.sparse?.indices ?? [], values: v.sparse?.values ?? [] };
    case 'multi_dense':
      return (v.multi_dense?.vectors ?? []).map((d) => d.data);
    case 'document':
    case 'image':
    case 'object':
      throw QuiverError.badInput(`Inference from a ${form} is not supported: send vectors`);
    default:
      return undefined;
  }
}

/** A point's vectors in REST form: an array for the unnamed vector, a map of names otherwise. */
export function vectorsIn(v: Vectors__Output | undefined): VectorStruct {
  if (v?.vector !== undefined) {
    const one = vectorIn(v.vector);
    if (!Array.isArray(one)) throw QuiverError.badInput('Wrong input: a sparse vector must be named: send it in `vectors`');
    return one as VectorStruct;
  }
  const out: Record<string, unknown> = {};
  for (const [name, vec] of Object.entries(v?.vectors?.vectors ?? {})) out[name] = vectorIn(vec);
  // Multi-vectors stay in the request for the REST schema to refuse.
  return out as VectorStruct;
}

function vectorOut(v: number[] | SparseVector): VectorOutputOut {
  return Array.isArray(v) ? { dense: { data: v } } : { sparse: { indices: v.indices, values: v.values } };
}

export function vectorsOut(v: VectorOutput | null | undefined): VectorsOutput | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return { vector: vectorOut(v) };
  const vectors: Record<string, VectorOutputOut> = {};
  for (const [name, data] of Object.entries(v)) vectors[name] = vectorOut(data);
  return { vectors: { vectors } };
}

// ---------------------------------------------------------------------------------------------
// Selectors and filters

export function withPayloadIn(s: WithPayloadSelector__Output | undefined): WithPayload | undefined {
  switch (s?.selector_options) {
    case 'enable':
      return s.enable ?? false;
    case 'include':
      return { include: s.include?.fields ?? [] };
    case 'exclude':
      return { exclude: s.exclude?.fields ?? [] };
    default:
      return undefined;
  }
}

export function withVectorIn(s: WithVectorsSelector__Output | undefined): WithVector | undefined {
  switch (s?.selector_options) {
    case 'enable':
      return s.enable ?? false;
    case 'include':
      return s.include?.names ?? [];
    default:
      return undefined;
  }
}

/** A protobuf Timestamp as an RFC 3339 string, which is how REST filters carry datetimes. */
export function timestampIn(t: Timestamp__Output): string {
  return new Date(Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}

type Json = Record<string, unknown>;

function matchIn(m: Match__Output): Json {
  switch (m.match_value) {
    case 'keyword':
      return { value: m.keyword };
    case 'integer':
      return { value: Number(m.integer) };
    case 'boolean':
      return { value: m.boolean };
    case 'keywords':
      return { any: m.keywords?.strings ?? [] };
    case 'integers':
      return { any: (m.integers?.integers ?? []).map(Number) };
    case 'except_keywords':
      return { except: m.except_keywords?.strings ?? [] };
    case 'except_integers':
      return { except: (m.except_integers?.integers ?? []).map(Number) };
    case 'text':
    case 'phrase':
    case 'text_any':
    case 'prefix':
      // The REST field names are the proto's: the filter parser checks them for both.
      return { [m.match_value]: m[m.match_value] };
    default:
      return {};
  }
}

// proto3 leaves zero-valued plain fields off the wire: a point on the equator has no `lat`.
const geoIn = (p: GeoPoint__Output | undefined): { lon: number; lat: number } => ({ lon: p?.lon ?? 0, lat: p?.lat ?? 0 });
const ringIn = (r: GeoLineString__Output | undefined): { points: { lon: number; lat: number }[] } => ({ points: (r?.points ?? []).map(geoIn) });

function fieldConditionIn(f: FieldCondition__Output): Json {
  const out: Json = { key: f.key ?? '' };
  if (f.match !== undefined) out.match = matchIn(f.match);
  if (f.range !== undefined) out.range = plain(f.range);
  if (f.datetime_range !== undefined) {
    if (f.range !== undefined) throw QuiverError.badInput(`Bad filter: condition on '${f.key ?? ''}' has both range and datetime_range`);
    const range: Json = {};
    for (const k of ['lt', 'gt', 'gte', 'lte'] as const) {
      const t = f.datetime_range[k];
      if (t !== undefined) range[k] = timestampIn(t);
    }
    out.range = range;
  }
  if (f.geo_bounding_box !== undefined) {
    out.geo_bounding_box = { top_left: geoIn(f.geo_bounding_box.top_left), bottom_right: geoIn(f.geo_bounding_box.bottom_right) };
  }
  if (f.geo_radius !== undefined) out.geo_radius = { center: geoIn(f.geo_radius.center), radius: f.geo_radius.radius ?? 0 };
  if (f.geo_polygon !== undefined) {
    out.geo_polygon = { exterior: ringIn(f.geo_polygon.exterior), interiors: f.geo_polygon.interiors.map(ringIn) };
  }
  if (f.values_count !== undefined) {
    const c = f.values_count;
    out.values_count = { ...opt('lt', num(c.lt)), ...opt('gt', num(c.gt)), ...opt('gte', num(c.gte)), ...opt('lte', num(c.lte)) };
  }
  if (f.is_empty !== undefined) out.is_empty = f.is_empty;
  if (f.is_null !== undefined) out.is_null = f.is_null;
  return out;
}

function conditionIn(c: Condition__Output): Json {
  switch (c.condition_one_of) {
    case 'field':
      return fieldConditionIn(c.field ?? {});
    case 'is_empty':
      return { is_empty: { key: c.is_empty?.key ?? '' } };
    case 'is_null':
      return { is_null: { key: c.is_null?.key ?? '' } };
    case 'has_id':
      return { has_id: (c.has_id?.has_id ?? []).map(pointIdIn) };
    case 'has_vector':
      return { has_vector: c.has_vector?.has_vector ?? '' };
    case 'filter':
      return { filter: filterIn(c.filter) ?? {} };
    case 'nested':
      return { nested: { key: c.nested?.key ?? '', filter: filterIn(c.nested?.filter) ?? {} } };
    case 'slice':
      // Refused by the filter parser as an unknown condition.
      return { slice: c.slice };
    default:
      return {};
  }
}

/** A filter in REST form, or undefined when the message has none. */
export function filterIn(f: Filter__Output | undefined): Json | undefined {
  if (f === undefined) return undefined;
  const out: Json = {};
  if (f.must.length > 0) out.must = f.must.map(conditionIn);
  if (f.should.length > 0) out.should = f.should.map(conditionIn);
  if (f.must_not.length > 0) out.must_not = f.must_not.map(conditionIn);
  if (f.min_should !== undefined) {
    out.min_should = { conditions: f.min_should.conditions.map(conditionIn), min_count: Number(f.min_should.min_count ?? 0) };
  }
  return out;
}

/** Ids or a filter, as REST's points selector. A missing selector is refused as Qdrant does. */
export function pointsSelectorIn(s: PointsSelector__Output | undefined): { points: (number | string)[] } | { filter: Json } {
  if (s?.points_selector_one_of === 'points') return { points: (s.points?.ids ?? []).map(pointIdIn) };
  if (s?.points_selector_one_of === 'filter') return { filter: filterIn(s.filter) ?? {} };
  throw QuiverError.badInput('PointsSelector is missing: expected `points` or `filter`');
}

/** Like pointsSelectorIn, for payload operations whose selector may be absent (the service says what is missing). */
export function selectionIn(s: PointsSelector__Output | undefined): { points?: (number | string)[]; filter?: Json } {
  return s === undefined ? {} : pointsSelectorIn(s);
}

/** REST's shard_key: present exactly when the message names shard keys, so the service refuses it as for REST. */
export function shardKeyIn(s: ShardKeySelector__Output | undefined): { shard_key?: unknown } {
  return s === undefined ? {} : { shard_key: s.shard_keys.map((k) => k.keyword ?? Number(k.number)) };
}

// ---------------------------------------------------------------------------------------------
// Search and query

function searchParamsIn(p: SearchParams__Output | undefined): SearchParamsIn | undefined {
  if (p === undefined) return undefined;
  return {
    ...opt('hnsw_ef', num(p.hnsw_ef)),
    ...opt('exact', p.exact),
    ...opt('quantization', p.quantization && plain(p.quantization)),
    ...opt('indexed_only', p.indexed_only),
    ...opt('acorn', p.acorn && plain(p.acorn)),
  };
}

export function searchIn(r: SearchPoints__Output): SearchRequest {
  let vector: SearchRequest['vector'] = r.vector_name !== undefined ? { name: r.vector_name, vector: r.vector } : r.vector;
  // A sparse search sends the values in `vector` and their indices beside them.
  if (r.sparse_indices !== undefined) vector = { name: r.vector_name ?? '', vector: { indices: r.sparse_indices.data, values: r.vector } };
  return {
    vector,
    limit: Number(r.limit ?? 0),
    ...opt('filter', filterIn(r.filter)),
    ...opt('params', searchParamsIn(r.params)),
    ...opt('offset', num(r.offset)),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...opt('score_threshold', r.score_threshold),
    ...shardKeyIn(r.shard_key_selector),
  };
}

function vectorInputIn(v: VectorInput__Output | undefined): unknown {
  if (v === undefined) return undefined;
  return v.variant === 'id' ? pointIdIn(v.id) : vectorFormIn(v.variant, v);
}

interface OrderByIn {
  key: string;
  direction?: 'asc' | 'desc';
  start_from?: number | string;
}

function orderByIn(o: OrderBy__Output): OrderByIn {
  const s = o.start_from;
  const start =
    s?.value === 'float' ? s.float : s?.value === 'integer' ? Number(s.integer) : s?.value === 'timestamp' && s.timestamp ? timestampIn(s.timestamp) : s?.datetime;
  return { key: o.key ?? '', ...opt('direction', lower(o.direction)), ...opt('start_from', start) };
}

/** A query in REST form. Kinds the service does not offer keep their REST name, so it refuses them by name. */
function queryKindIn(q: Query__Output | undefined): unknown {
  if (q?.variant === undefined) return undefined;
  switch (q.variant) {
    case 'nearest':
      return vectorInputIn(q.nearest);
    case 'nearest_with_mmr':
      return { nearest: vectorInputIn(q.nearest_with_mmr?.nearest), mmr: plain(q.nearest_with_mmr?.mmr ?? {}) };
    case 'recommend':
      return {
        recommend: {
          positive: (q.recommend?.positive ?? []).map(vectorInputIn),
          negative: (q.recommend?.negative ?? []).map(vectorInputIn),
          ...opt('strategy', q.recommend?.strategy),
        },
      };
    case 'discover':
      return { discover: { target: vectorInputIn(q.discover?.target), context: q.discover?.context?.pairs ?? [] } };
    case 'context':
      return { context: q.context?.pairs ?? [] };
    case 'order_by':
      return { order_by: q.order_by ? orderByIn(q.order_by) : {} };
    case 'fusion':
      return { fusion: lower(q.fusion) };
    case 'sample':
      return { sample: lower(q.sample) };
    case 'rrf':
      return { rrf: { ...opt('k', q.rrf?.k), ...opt('weights', q.rrf?.weights.length ? q.rrf.weights : undefined) } };
    default:
      return { [q.variant]: {} };
  }
}

const lookupIn = (l: LookupLocation__Output | undefined): Json | undefined =>
  l && { collection: l.collection_name ?? '', ...opt('vector', l.vector_name) };

function prefetchIn(p: PrefetchQuery__Output): Json {
  return {
    ...opt('prefetch', p.prefetch.length > 0 ? p.prefetch.map(prefetchIn) : undefined),
    ...opt('query', queryKindIn(p.query)),
    ...opt('using', p.using),
    ...opt('filter', filterIn(p.filter)),
    ...opt('params', searchParamsIn(p.params)),
    ...opt('score_threshold', p.score_threshold),
    ...opt('limit', num(p.limit)),
    ...opt('lookup_from', lookupIn(p.lookup_from)),
  };
}

export function queryIn(r: QueryPoints__Output): QueryRequest {
  const query = queryKindIn(r.query);
  return {
    ...opt('prefetch', r.prefetch.length > 0 ? r.prefetch.map(prefetchIn) : undefined),
    ...opt('query', query as QueryRequest['query']),
    ...opt('using', r.using),
    ...opt('filter', filterIn(r.filter)),
    ...opt('params', searchParamsIn(r.params)),
    ...opt('score_threshold', r.score_threshold),
    ...opt('limit', num(r.limit)),
    ...opt('offset', num(r.offset)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('lookup_from', lookupIn(r.lookup_from)),
    ...shardKeyIn(r.shard_key_selector),
  };
}

export function orderByRequestIn(o: OrderBy__Output | undefined): OrderByIn | undefined {
  return o === undefined ? undefined : orderByIn(o);
}

// ---------------------------------------------------------------------------------------------
// Results

function orderValueOut(rec: PointRecord | ScoredPoint): { order_value?: { int: number } | { float: number } } {
  const v = (rec as { order_value?: unknown }).order_value;
  if (typeof v !== 'number') return {};
  return { order_value: Number.isInteger(v) ? { int: v } : { float: v } };
}

export function scoredPointOut(p: ScoredPoint): ScoredPointOut {
  return {
    id: pointIdOut(p.id),
    payload: structOut(p.payload),
    score: p.score,
    version: p.version,
    ...opt('vectors', vectorsOut(p.vector)),
    ...orderValueOut(p),
  };
}

export function retrievedPointOut(p: PointRecord): RetrievedPoint {
  return { id: pointIdOut(p.id), payload: structOut(p.payload), ...opt('vectors', vectorsOut(p.vector)), ...orderValueOut(p) };
}

export function updateResultOut(r: UpdateResult): UpdateResultOut {
  return { operation_id: r.operation_id, status: r.status === 'completed' ? 'Completed' : 'Acknowledged' };
}

// ---------------------------------------------------------------------------------------------
// Collections

function hnswIn(h: HnswConfigDiff__Output | undefined): CreateCollection['hnsw_config'] | undefined {
  if (h === undefined) return undefined;
  return {
    ...opt('m', num(h.m)),
    ...opt('ef_construct', num(h.ef_construct)),
    ...opt('full_scan_threshold', num(h.full_scan_threshold)),
    ...opt('max_indexing_threads', num(h.max_indexing_threads)),
    ...opt('on_disk', h.on_disk),
    ...opt('payload_m', num(h.payload_m)),
  };
}

function distanceIn(d: Distance__Output | undefined): VectorParamsIn['distance'] {
  if (d === 'Cosine' || d === 'Euclid' || d === 'Dot' || d === 'Manhattan') return d;
  throw QuiverError.badInput(`Wrong input: unknown distance ${d ?? 'UnknownDistance'}, expected one of Cosine, Euclid, Dot, Manhattan`);
}

function vectorParamsIn(p: VectorParams__Output): VectorParamsIn {
  return { size: Number(p.size ?? 0), distance: distanceIn(p.distance), ...opt('hnsw_config', hnswIn(p.hnsw_config)), ...opt('on_disk', p.on_disk) };
}

const OPTIMIZER_INTS = ['vacuum_min_vector_number', 'default_segment_number', 'max_segment_size', 'memmap_threshold', 'indexing_threshold', 'flush_interval_sec'];

function sparseConfigIn(c: SparseVectorConfig__Output | undefined): NonNullable<CreateCollection['sparse_vectors']> | undefined {
  if (c === undefined) return undefined;
  const out: NonNullable<CreateCollection['sparse_vectors']> = {};
  for (const [name, p] of Object.entries(c.map)) {
    out[name] = {
      ...opt('index', p.index && { ...opt('full_scan_threshold', num(p.index.full_scan_threshold)), ...opt('on_disk', p.index.on_disk) }),
      ...opt('modifier', lower(p.modifier)),
    };
  }
  return out;
}

function sparseConfigOut(s: Record<string, SparseVectorParams> | undefined): SparseVectorConfig | undefined {
  if (s === undefined) return undefined;
  const map: Record<string, SparseVectorParamsOut> = {};
  for (const [name, p] of Object.entries(s)) {
    map[name] = {
      modifier: p.modifier === 'idf' ? 'Idf' : 'None',
      ...opt('index', p.index && { ...opt('full_scan_threshold', p.index.full_scan_threshold), ...opt('on_disk', p.index.on_disk) }),
    };
  }
  return { map };
}

export function createCollectionIn(r: CreateCollection__Output): CreateCollection {
  const v = r.vectors_config;
  let vectors: CreateCollection['vectors'];
  if (v?.config === 'params' && v.params) vectors = vectorParamsIn(v.params);
  else if (v?.config === 'params_map' && v.params_map) {
    const map: Record<string, VectorParamsIn> = {};
    for (const [name, p] of Object.entries(v.params_map.map)) map[name] = vectorParamsIn(p);
    vectors = map;
  }
  return {
    ...opt('vectors', vectors),
    ...opt('shard_number', r.shard_number),
    ...opt('hnsw_config', hnswIn(r.hnsw_config)),
    ...opt('on_disk_payload', r.on_disk_payload),
    ...opt('sparse_vectors', sparseConfigIn(r.sparse_vectors_config)),
    ...opt('sharding_method', lower(r.sharding_method)),
    ...opt('replication_factor', r.replication_factor),
    ...opt('write_consistency_factor', r.write_consistency_factor),
    ...opt('wal_config', r.wal_config && plain(r.wal_config, ['wal_capacity_mb', 'wal_segments_ahead'])),
    ...opt('optimizers_config', r.optimizers_config && plain(r.optimizers_config, OPTIMIZER_INTS)),
    ...opt('metadata', Object.keys(r.metadata).length > 0 ? structIn(r.metadata) : undefined),
  };
}

export function updateCollectionIn(r: UpdateCollection__Output): UpdateCollection {
  const diffs: Record<string, VectorParamsDiff__Output> =
    r.vectors_config?.config === 'params' && r.vectors_config.params
      ? { '': r.vectors_config.params }
      : r.vectors_config?.config === 'params_map' && r.vectors_config.params_map
        ? r.vectors_config.params_map.map
        : {};
  const vectors: NonNullable<UpdateCollection['vectors']> = {};
  for (const [name, d] of Object.entries(diffs)) vectors[name] = { ...opt('hnsw_config', hnswIn(d.hnsw_config)), ...opt('on_disk', d.on_disk) };
  return {
    ...opt('vectors', Object.keys(vectors).length > 0 ? vectors : undefined),
    ...opt('hnsw_config', hnswIn(r.hnsw_config)),
    ...opt('params', r.params && plain(r.params)),
    ...opt('optimizers_config', r.optimizers_config && plain(r.optimizers_config, OPTIMIZER_INTS)),
    ...opt('sparse_vectors', sparseConfigIn(r.sparse_vectors_config)),
    ...opt('metadata', Object.keys(r.metadata).length > 0 ? structIn(r.metadata) : undefined),
  };
}

const FIELD_TYPES = {
  FieldTypeKeyword: 'keyword',
  FieldTypeInteger: 'integer',
  FieldTypeFloat: 'float',
  FieldTypeGeo: 'geo',
  FieldTypeText: 'text',
  FieldTypeBool: 'bool',
  FieldTypeDatetime: 'datetime',
  FieldTypeUuid: 'uuid',
} as const;

const INDEX_PARAMS_TYPES = {
  keyword_index_params: 'keyword',
  integer_index_params: 'integer',
  float_index_params: 'float',
  geo_index_params: 'geo',
  text_index_params: 'text',
  bool_index_params: 'bool',
  datetime_index_params: 'datetime',
  uuid_index_params: 'uuid',
} as const;

/** Qdrant's field_type + field_index_params as REST's field_schema: a type name, or an object with its params. */
export function createIndexIn(r: CreateFieldIndexCollection__Output): CreateFieldIndex {
  const p = r.field_index_params;
  const kind = p?.index_params;
  const type = r.field_type !== undefined ? FIELD_TYPES[r.field_type] : kind !== undefined ? INDEX_PARAMS_TYPES[kind] : undefined;
  // The schema's own union checks these at run time; its static type has lost the literals.
  type FieldSchema = NonNullable<CreateFieldIndex['field_schema']>;
  if (type === undefined || p === undefined || kind === undefined) {
    return { field_name: r.field_name ?? '', ...opt('field_schema', type as FieldSchema | undefined) };
  }
  const params = plain(p[kind] ?? {}, ['min_token_len', 'max_token_len']);
  if (typeof params.tokenizer === 'string') {
    if (params.tokenizer === 'Unknown') delete params.tokenizer;
    else params.tokenizer = params.tokenizer.toLowerCase();
  }
  return { field_name: r.field_name ?? '', field_schema: { ...params, type } as FieldSchema };
}

/** What doGetCollection answers (REST's collection info), as far as the gRPC reply uses it. */
interface CollectionInfoResult {
  status: 'green' | 'yellow' | 'grey' | 'red';
  segments_count: number;
  points_count: number;
  indexed_vectors_count: number;
  config: {
    params: {
      vectors: VectorParamsIn | Record<string, VectorParamsIn>;
      sparse_vectors?: Record<string, SparseVectorParams>;
      shard_number: number;
      replication_factor: number;
      write_consistency_factor: number;
      on_disk_payload: boolean;
    };
    hnsw_config: { m: number; ef_construct: number; full_scan_threshold: number; max_indexing_threads: number; on_disk: boolean };
    optimizer_config: Record<string, number | null>;
    wal_config: { wal_capacity_mb: number; wal_segments_ahead: number };
  };
  payload_schema: Record<string, { data_type: string; params?: Record<string, unknown>; points?: number }>;
}

function hnswOut(h: { m?: number; ef_construct?: number; full_scan_threshold?: number; max_indexing_threads?: number; on_disk?: boolean | null }): HnswConfigDiff {
  return {
    ...opt('m', h.m),
    ...opt('ef_construct', h.ef_construct),
    ...opt('full_scan_threshold', h.full_scan_threshold),
    ...opt('max_indexing_threads', h.max_indexing_threads),
    ...opt('on_disk', h.on_disk ?? undefined),
  };
}

function vectorParamsOut(p: VectorParamsIn): VectorParams {
  return { size: p.size, distance: p.distance, ...opt('hnsw_config', p.hnsw_config ? hnswOut(p.hnsw_config) : undefined), ...opt('on_disk', p.on_disk ?? undefined) };
}

function vectorsConfigOut(v: CollectionInfoResult['config']['params']['vectors']): VectorsConfig {
  if (typeof v.size === 'number' && typeof v.distance === 'string') return { params: vectorParamsOut(v as VectorParamsIn) };
  const map: Record<string, VectorParams> = {};
  for (const [name, p] of Object.entries(v as Record<string, VectorParamsIn>)) map[name] = vectorParamsOut(p);
  return { params_map: { map } };
}

function indexParamsOut(dataType: string, params: Record<string, unknown> | undefined): PayloadIndexParams | undefined {
  const entry = Object.entries(INDEX_PARAMS_TYPES).find(([, t]) => t === dataType);
  if (params === undefined || entry === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === 'type' || v === null) continue;
    out[k] = k === 'tokenizer' && typeof v === 'string' ? v.charAt(0).toUpperCase() + v.slice(1) : v;
  }
  return { [entry[0]]: out };
}

const capital = <T extends string>(s: T): Capitalize<T> => (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<T>;

export function collectionInfoOut(raw: Record<string, unknown>): CollectionInfo {
  // doGetCollection is typed for REST as a plain record; this is its documented shape.
  const r = raw as unknown as CollectionInfoResult;
  const o = r.config.optimizer_config;
  const payloadSchema: NonNullable<CollectionInfo['payload_schema']> = {};
  for (const [key, s] of Object.entries(r.payload_schema)) {
    payloadSchema[key] = {
      data_type: capital(s.data_type) as PayloadSchemaType,
      ...opt('params', indexParamsOut(s.data_type, s.params)),
      ...opt('points', s.points),
    };
  }
  return {
    status: capital(r.status),
    optimizer_status: { ok: true },
    segments_count: r.segments_count,
    points_count: r.points_count,
    indexed_vectors_count: r.indexed_vectors_count,
    config: {
      params: {
        shard_number: r.config.params.shard_number,
        on_disk_payload: r.config.params.on_disk_payload,
        vectors_config: vectorsConfigOut(r.config.params.vectors),
        ...opt('sparse_vectors_config', sparseConfigOut(r.config.params.sparse_vectors)),
        replication_factor: r.config.params.replication_factor,
        write_consistency_factor: r.config.params.write_consistency_factor,
      },
      hnsw_config: hnswOut(r.config.hnsw_config),
      optimizer_config: Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)),
      wal_config: r.config.wal_config,
    },
    payload_schema: payloadSchema,
  };
}

/** What doCollectionCluster answers (REST's cluster info), as far as the gRPC reply uses it. */
interface ClusterInfoResult {
  peer_id: number;
  shard_count: number;
  local_shards: { shard_id: number; points_count: number; state: string }[];
}

export function clusterInfoOut(raw: Record<string, unknown>): Omit<CollectionClusterInfoResponse, 'time'> {
  // doCollectionCluster is typed for REST as a plain record; this is its documented shape.
  const r = raw as unknown as ClusterInfoResult;
  return {
    peer_id: r.peer_id,
    shard_count: r.shard_count,
    local_shards: r.local_shards.map((s) => ({ shard_id: s.shard_id, points_count: s.points_count, state: 'Active' })),
    remote_shards: [],
    shard_transfers: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Point writes

const UPDATE_MODES = { Upsert: 'upsert', InsertOnly: 'insert_only', UpdateOnly: 'update_only' } as const;

export function upsertIn(r: Pick<UpsertPoints__Output, 'points' | 'update_filter' | 'shard_key_selector' | 'update_mode'>): UpsertPoints {
  return {
    points: r.points.map((p) => ({ id: pointIdIn(p.id), vector: vectorsIn(p.vectors), payload: structIn(p.payload) })),
    ...opt('update_filter', filterIn(r.update_filter)),
    ...opt('update_mode', r.update_mode === undefined ? undefined : UPDATE_MODES[r.update_mode]),
    ...shardKeyIn(r.shard_key_selector),
  };
}

export function deleteVectorsIn(r: Pick<DeletePointVectors__Output, 'points_selector' | 'vectors' | 'shard_key_selector'>): DeleteVectors {
  return { ...selectionIn(r.points_selector), vector: r.vectors?.names ?? [], ...shardKeyIn(r.shard_key_selector) };
}

export function updateVectorsIn(r: Pick<UpdatePointVectors__Output, 'points' | 'update_filter' | 'shard_key_selector'>): UpdateVectors {
  return {
    points: r.points.map((p) => ({ id: pointIdIn(p.id), vector: vectorsIn(p.vectors) })),
    ...opt('update_filter', filterIn(r.update_filter)),
    ...shardKeyIn(r.shard_key_selector),
  };
}

/** A facet value as FacetValue: strings, integers (int64 as a decimal string) and booleans. */
export function facetValueOut(v: FacetValue): FacetValue__Output {
  if (typeof v === 'string') return { string_value: v, variant: 'string_value' };
  if (typeof v === 'boolean') return { bool_value: v, variant: 'bool_value' };
  return { integer_value: String(v), variant: 'integer_value' };
}
