// The point and collection message conversions of src/main/grpc/messages/, without a server:
// requests rewritten into the REST shapes the route schemas check, and the typed service results
// encoded as Qdrant's replies.

import { describe, expect, it } from 'vitest';
import { clusterInfoOut, collectionInfoOut, createIndexIn } from '../../src/main/grpc/messages/collections.js';
import {
  batchOperationIn,
  clearPayloadIn,
  countIn,
  deletePayloadIn,
  deletePointsIn,
  facetHitOut,
  facetIn,
  retrieveIn,
  scrollIn,
  scrollOut,
  setPayloadIn,
  updateResultOut,
} from '../../src/shared/grpc/messages/points.js';
import type { PointsUpdateOperation__Output } from '../../src/shared/grpc/generated/qdrant/PointsUpdateOperation.js';
import type { CollectionClusterInfo, CollectionInfo } from '../../src/main/service/collections.js';

const ids = (...n: number[]) => ({ points_selector_one_of: 'points' as const, points: { ids: n.map((i) => ({ num: String(i) })) } });
const shardKeys = { shard_keys: [{ keyword: 'a' }, { number: '7' }] };

describe('point writes', () => {
  it('name every batch operation as REST does, the deprecated selector-only forms too', () => {
    const ops: PointsUpdateOperation__Output[] = [
      { operation: 'upsert', upsert: { points: [{ id: { num: '1' }, payload: {}, vectors: { vector: { data: [], vector: 'dense', dense: { data: [1, 2] } } } }] } },
      { operation: 'delete_points', delete_points: { points: ids(2), shard_key_selector: shardKeys } },
      { operation: 'delete_deprecated', delete_deprecated: ids(3) },
      { operation: 'set_payload', set_payload: { payload: { k: { kind: 'bool_value', bool_value: true } }, points_selector: ids(4), key: 'a.b' } },
      { operation: 'overwrite_payload', overwrite_payload: { payload: {}, points_selector: ids(5) } },
      { operation: 'delete_payload', delete_payload: { keys: ['k'], points_selector: ids(6) } },
      { operation: 'clear_payload', clear_payload: { points: ids(7) } },
      { operation: 'clear_payload_deprecated', clear_payload_deprecated: ids(8) },
      { operation: 'update_vectors', update_vectors: { points: [{ id: { uuid: 'u' }, vectors: { vector: { data: [0.5] } } }] } },
      { operation: 'delete_vectors', delete_vectors: { points_selector: ids(9), vectors: { names: ['v'] } } },
    ];
    expect(ops.map(batchOperationIn)).toEqual([
      { upsert: { points: [{ id: 1, vector: [1, 2], payload: {} }] } },
      { delete: { points: [2], shard_key: ['a', 7] } },
      { delete: { points: [3] } },
      { set_payload: { payload: { k: true }, points: [4], key: 'a.b' } },
      { overwrite_payload: { payload: {}, points: [5] } },
      { delete_payload: { keys: ['k'], points: [6] } },
      { clear_payload: { points: [7] } },
      { clear_payload: { points: [8] } },
      { update_vectors: { points: [{ id: 'u', vector: [0.5] }] } },
      { delete_vectors: { points: [9], vector: ['v'] } },
    ]);
  });

  it('refuse a batch operation with nothing set, and a delete without a selector', () => {
    expect(() => batchOperationIn({}, 3)).toThrow('operations[3]: no operation is set');
    expect(() => batchOperationIn({ operation: 'set_payload' }, 0)).toThrow('operations[0]: no operation is set');
    expect(() => batchOperationIn({ operation: 'delete_points' }, 0)).toThrow(/PointsSelector is missing/);
    expect(() => deletePointsIn({})).toThrow(/PointsSelector is missing/);
  });

  it('leave a missing payload selector to the service, which says what is missing', () => {
    expect(clearPayloadIn({})).toEqual({});
    expect(deletePayloadIn({ keys: ['a'] })).toEqual({ keys: ['a'] });
    expect(setPayloadIn({ payload: {}, shard_key_selector: shardKeys })).toEqual({ payload: {}, shard_key: ['a', 7] });
    expect(deletePointsIn({ points: { points_selector_one_of: 'filter', filter: { must: [], should: [], must_not: [] } } })).toEqual({ filter: {} });
  });
});

describe('point reads', () => {
  it('rewrite get, scroll, count and facet requests', () => {
    expect(
      retrieveIn({ ids: [{ num: '1' }, { uuid: 'x' }], with_payload: { selector_options: 'include', include: { fields: ['a'] } }, with_vectors: { selector_options: 'enable', enable: true } }),
    ).toEqual({ ids: [1, 'x'], with_payload: { include: ['a'] }, with_vector: true });
    expect(
      scrollIn({
        offset: { num: '10' },
        limit: 5,
        order_by: { key: 't', direction: 'Desc', start_from: { value: 'timestamp', timestamp: { seconds: '0', nanos: 0 } } },
        shard_key_selector: shardKeys,
      }),
    ).toEqual({ offset: 10, limit: 5, order_by: { key: 't', direction: 'desc', start_from: '1970-01-01T00:00:00.000Z' }, shard_key: ['a', 7] });
    expect(scrollIn({})).toEqual({});
    expect(countIn({ exact: false, filter: { must: [], should: [], must_not: [] } })).toEqual({ exact: false, filter: {} });
    // limit is a uint64, decoded as a string.
    expect(facetIn({ key: 'color', limit: '3' })).toEqual({ key: 'color', limit: 3 });
    expect(facetIn({})).toEqual({ key: '' });
  });

  it('encode scroll pages, facet hits and update results', () => {
    expect(scrollOut({ points: [{ id: 1, payload: { a: 1 } }], next_page_offset: null })).toEqual({ result: [{ id: { num: 1 }, payload: { a: { integer_value: 1 } } }] });
    expect(scrollOut({ points: [], next_page_offset: 'u' })).toEqual({ result: [], next_page_offset: { uuid: 'u' } });
    expect([facetHitOut({ value: 5, count: 2 }), facetHitOut({ value: 'x', count: 1 }), facetHitOut({ value: true, count: 1 })]).toEqual([
      { value: { integer_value: '5', variant: 'integer_value' }, count: 2 },
      { value: { string_value: 'x', variant: 'string_value' }, count: 1 },
      { value: { bool_value: true, variant: 'bool_value' }, count: 1 },
    ]);
    expect(updateResultOut({ operation_id: 4, status: 'acknowledged' })).toEqual({ operation_id: 4, status: 'Acknowledged' });
    expect(updateResultOut({ operation_id: 5, status: 'completed' })).toEqual({ operation_id: 5, status: 'Completed' });
  });
});

const info = (vectors: CollectionInfo['config']['params']['vectors']): CollectionInfo => ({
  status: 'yellow',
  optimizer_status: 'ok',
  indexed_vectors_count: 3,
  points_count: 4,
  segments_count: 2,
  config: {
    params: { vectors, shard_number: 2, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true },
    hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
    optimizer_config: {
      deleted_threshold: 0.2,
      vacuum_min_vector_number: 1000,
      default_segment_number: 0,
      max_segment_size: null,
      memmap_threshold: null,
      indexing_threshold: 10000,
      flush_interval_sec: 5,
      max_optimization_threads: 'auto',
      prevent_unoptimized: null,
    },
    wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0, wal_retain_closed: 1 },
    quantization_config: null,
  },
  payload_schema: {
    body: { data_type: 'text', params: { type: 'text', tokenizer: 'word', min_token_len: null, lowercase: true }, points: 4 },
    tag: { data_type: 'keyword', points: 1 },
  },
});

describe('collections', () => {
  it('encode the collection info: statuses and enums capitalised, nulls dropped, index params under their field', () => {
    const out = collectionInfoOut(info({ size: 4, distance: 'Cosine', hnsw_config: { m: 0 } }));
    expect(out.status).toBe('Yellow');
    expect(out.config?.params?.vectors_config).toEqual({ params: { size: 4, distance: 'Cosine', hnsw_config: { m: 0 } } });
    expect(out.config?.hnsw_config).toEqual({ m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false });
    expect(out.config?.optimizer_config).toEqual({
      deleted_threshold: 0.2,
      vacuum_min_vector_number: 1000,
      default_segment_number: 0,
      indexing_threshold: 10000,
      flush_interval_sec: 5,
      max_optimization_threads: { setting: 'Auto' },
    });
    expect(out.payload_schema).toEqual({
      body: { data_type: 'Text', params: { text_index_params: { tokenizer: 'Word', lowercase: true } }, points: 4 },
      tag: { data_type: 'Keyword', points: 1 },
    });
  });

  it('encode named vectors as a map, even a vector named `size`', () => {
    const out = collectionInfoOut(info({ size: { size: 2, distance: 'Dot' }, b: { size: 3, distance: 'Euclid', on_disk: true } }));
    expect(out.config?.params?.vectors_config).toEqual({
      params_map: { map: { size: { size: 2, distance: 'Dot' }, b: { size: 3, distance: 'Euclid', on_disk: true } } },
    });
  });

  it('encode the cluster info without the owning worker, one entry per copy with its replica state', () => {
    const cluster: CollectionClusterInfo = {
      peer_id: 0,
      shard_count: 2,
      replicas_per_shard: 2,
      local_shards: [
        { shard_id: 0, points_count: 3, state: 'Active', worker: 1, copy: 0 },
        { shard_id: 0, points_count: 0, state: 'Partial', worker: 0, copy: 1 },
      ],
      remote_shards: [],
      shard_transfers: [],
    };
    expect(clusterInfoOut(cluster)).toEqual({
      peer_id: 0,
      shard_count: 2,
      local_shards: [
        { shard_id: 0, points_count: 3, state: 'Active' },
        { shard_id: 0, points_count: 0, state: 'Partial' },
      ],
      remote_shards: [],
      shard_transfers: [],
    });
  });

  it('read a field index request: a type alone, or params with the tokenizer in REST spelling', () => {
    expect(createIndexIn({ field_name: 'k', field_type: 'FieldTypeKeyword' })).toEqual({ field_name: 'k', field_schema: 'keyword' });
    expect(
      createIndexIn({
        field_name: 'body',
        field_index_params: { index_params: 'text_index_params', text_index_params: { tokenizer: 'Multilingual', min_token_len: '2', _min_token_len: 'min_token_len' } },
      }),
    ).toEqual({ field_name: 'body', field_schema: { type: 'text', tokenizer: 'multilingual', min_token_len: 2 } });
    expect(createIndexIn({ field_name: 'x' })).toEqual({ field_name: 'x' });
  });
});
