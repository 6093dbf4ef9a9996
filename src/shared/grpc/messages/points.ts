// Points both ways: write requests (upsert, vectors, payload, the operations of a batch) and read
// requests (get, scroll, count, facet) in REST form, and the points, update results and facet
// hits of the replies. The REST route's schema checks each request after this rewrite.

import { QuiverError } from '../../errors.js';
import type { UpdateOperation } from '../../schemas/batch.js';
import type { ClearPayload, DeletePayload, SetPayload } from '../../schemas/payload.js';
import type { CountPoints, DeleteVectors, FacetRequest, PointsSelector, RetrievePoints, ScrollPoints, SearchMatrixRequest, UpdateVectors, UpsertPoints } from '../../schemas/points.js';
import type { FacetValue } from '../../protocol.js';
import type { PointId, PointRecord, ScoredPoint, UpdateResult } from '../../types.js';
import type { ClearPayloadPoints__Output } from '../generated/qdrant/ClearPayloadPoints.js';
import type { CountPoints__Output } from '../generated/qdrant/CountPoints.js';
import type { DeletePayloadPoints__Output } from '../generated/qdrant/DeletePayloadPoints.js';
import type { DeletePointVectors__Output } from '../generated/qdrant/DeletePointVectors.js';
import type { DeletePoints__Output } from '../generated/qdrant/DeletePoints.js';
import type { FacetCounts__Output } from '../generated/qdrant/FacetCounts.js';
import type { FacetHit } from '../generated/qdrant/FacetHit.js';
import type { FacetValue__Output } from '../generated/qdrant/FacetValue.js';
import type { GetPoints__Output } from '../generated/qdrant/GetPoints.js';
import type { PointsUpdateOperation__Output } from '../generated/qdrant/PointsUpdateOperation.js';
import type { RetrievedPoint } from '../generated/qdrant/RetrievedPoint.js';
import type { ScoredPoint as ScoredPointOut } from '../generated/qdrant/ScoredPoint.js';
import type { ScrollPoints__Output } from '../generated/qdrant/ScrollPoints.js';
import type { ScrollResponse } from '../generated/qdrant/ScrollResponse.js';
import type { SearchMatrixPoints__Output } from '../generated/qdrant/SearchMatrixPoints.js';
import type { SearchMatrixOffsets } from '../generated/qdrant/SearchMatrixOffsets.js';
import type { SearchMatrixPairs } from '../generated/qdrant/SearchMatrixPairs.js';
import type { SetPayloadPoints__Output } from '../generated/qdrant/SetPayloadPoints.js';
import type { UpdatePointVectors__Output } from '../generated/qdrant/UpdatePointVectors.js';
import type { UpdateResult as UpdateResultOut } from '../generated/qdrant/UpdateResult.js';
import type { UpsertPoints__Output } from '../generated/qdrant/UpsertPoints.js';
import { num, opt } from './common.js';
import { filterIn, pointsSelectorIn, selectionIn, shardKeyIn, withPayloadIn, withVectorIn } from './filters.js';
import { orderByRequestIn } from './query.js';
import { pointIdIn, pointIdOut, structIn, structOut, vectorsIn, vectorsOut } from './values.js';

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

export function deletePointsIn(r: Pick<DeletePoints__Output, 'points' | 'shard_key_selector'>): PointsSelector {
  return { ...pointsSelectorIn(r.points), ...shardKeyIn(r.shard_key_selector) };
}

export const setPayloadIn = (r: Pick<SetPayloadPoints__Output, 'payload' | 'points_selector' | 'key' | 'shard_key_selector'>): SetPayload => ({
  payload: structIn(r.payload),
  ...selectionIn(r.points_selector),
  ...opt('key', r.key),
  ...shardKeyIn(r.shard_key_selector),
});

export function deletePayloadIn(r: Pick<DeletePayloadPoints__Output, 'keys' | 'points_selector' | 'shard_key_selector'>): DeletePayload {
  return { keys: r.keys, ...selectionIn(r.points_selector), ...shardKeyIn(r.shard_key_selector) };
}

export function clearPayloadIn(r: Pick<ClearPayloadPoints__Output, 'points' | 'shard_key_selector'>): ClearPayload {
  return { ...selectionIn(r.points), ...shardKeyIn(r.shard_key_selector) };
}

/** One operation of UpdateBatch as the REST batch names it (the deprecated selector-only forms too). */
export function batchOperationIn(o: PointsUpdateOperation__Output, i: number): UpdateOperation {
  const missing = (): never => {
    throw QuiverError.badInput(`operations[${i}]: no operation is set`);
  };
  switch (o.operation) {
    case 'upsert':
      return { upsert: upsertIn(o.upsert ?? missing()) };
    case 'delete_points':
      return { delete: deletePointsIn(o.delete_points ?? {}) };
    case 'delete_deprecated':
      return { delete: pointsSelectorIn(o.delete_deprecated) };
    case 'set_payload':
      return { set_payload: setPayloadIn(o.set_payload ?? missing()) };
    case 'overwrite_payload':
      return { overwrite_payload: setPayloadIn(o.overwrite_payload ?? missing()) };
    case 'delete_payload':
      return { delete_payload: deletePayloadIn(o.delete_payload ?? missing()) };
    case 'clear_payload':
      return { clear_payload: clearPayloadIn(o.clear_payload ?? {}) };
    case 'clear_payload_deprecated':
      return { clear_payload: selectionIn(o.clear_payload_deprecated) };
    case 'update_vectors':
      return { update_vectors: updateVectorsIn(o.update_vectors ?? missing()) };
    case 'delete_vectors':
      return { delete_vectors: deleteVectorsIn(o.delete_vectors ?? missing()) };
    default:
      return missing();
  }
}

// ---------------------------------------------------------------------------------------------
// Point reads

export function retrieveIn(r: Pick<GetPoints__Output, 'ids' | 'with_payload' | 'with_vectors' | 'shard_key_selector'>): RetrievePoints {
  return {
    ids: r.ids.map(pointIdIn),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...shardKeyIn(r.shard_key_selector),
  };
}

export function scrollIn(r: ScrollPoints__Output): ScrollPoints {
  return {
    ...opt('offset', r.offset && pointIdIn(r.offset)),
    ...opt('limit', r.limit),
    ...opt('filter', filterIn(r.filter)),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...opt('order_by', orderByRequestIn(r.order_by)),
    ...shardKeyIn(r.shard_key_selector),
  };
}

export function countIn(r: Pick<CountPoints__Output, 'filter' | 'exact' | 'shard_key_selector'>): CountPoints {
  return { ...opt('filter', filterIn(r.filter)), ...opt('exact', r.exact), ...shardKeyIn(r.shard_key_selector) };
}

export function facetIn(r: Pick<FacetCounts__Output, 'key' | 'limit' | 'filter' | 'exact' | 'shard_key_selector'>): FacetRequest {
  return { key: r.key ?? '', ...opt('limit', num(r.limit)), ...opt('filter', filterIn(r.filter)), ...opt('exact', r.exact), ...shardKeyIn(r.shard_key_selector) };
}

export function matrixIn(r: SearchMatrixPoints__Output): SearchMatrixRequest {
  return {
    ...opt('sample', num(r.sample)),
    ...opt('limit', num(r.limit)),
    ...opt('filter', filterIn(r.filter)),
    ...opt('using', r.using),
    ...shardKeyIn(r.shard_key_selector),
  };
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
  const status = r.status === 'completed' ? 'Completed' : r.status === 'wait_timeout' ? 'WaitTimeout' : 'Acknowledged';
  return r.operation_id === null ? { status } : { operation_id: r.operation_id, status };
}

/** A facet value as FacetValue: strings, integers (int64 as a decimal string) and booleans. */
export function facetValueOut(v: FacetValue): FacetValue__Output {
  if (typeof v === 'string') return { string_value: v, variant: 'string_value' };
  if (typeof v === 'boolean') return { bool_value: v, variant: 'bool_value' };
  return { integer_value: String(v), variant: 'integer_value' };
}

export function scrollOut(res: { points: PointRecord[]; next_page_offset: PointId | null }): Omit<ScrollResponse, 'time'> {
  return { result: res.points.map(retrievedPointOut), ...opt('next_page_offset', res.next_page_offset === null ? undefined : pointIdOut(res.next_page_offset)) };
}

export function facetHitOut(h: { value: FacetValue; count: number }): FacetHit {
  return { value: facetValueOut(h.value), count: h.count };
}

/** The distance matrix's answers in gRPC form (ids as PointId messages). */
export function matrixPairsOut(m: { pairs: { a: PointId; b: PointId; score: number }[] }): SearchMatrixPairs {
  return { pairs: m.pairs.map((p) => ({ a: pointIdOut(p.a), b: pointIdOut(p.b), score: p.score })) };
}

export function matrixOffsetsOut(m: { offsets_row: number[]; offsets_col: number[]; scores: number[]; ids: PointId[] }): SearchMatrixOffsets {
  return { offsets_row: m.offsets_row, offsets_col: m.offsets_col, scores: m.scores, ids: m.ids.map(pointIdOut) };
}
