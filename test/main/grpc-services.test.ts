// The service definitions the gRPC server registers (src/main/grpc/services.ts, built with
// protobufjs) against @grpc/proto-loader's for the same protos: every method with the same path,
// streaming flags and name, and messages encoded and decoded to the same bytes and objects
// (64-bit integers as strings, enums by name, oneof members named, empty lists and maps).

import * as protoLoader from '@grpc/proto-loader';
import type { MethodDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { LOADER_OPTIONS, PROTO_DIR } from '../../src/shared/grpc/proto.js';
import { loadServices } from '../../src/main/grpc/services.js';

const NAMES = ['qdrant.Qdrant', 'qdrant.Collections', 'qdrant.Points'];
const lean = loadServices(NAMES);
const reference = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });

type Method = MethodDefinition<object, object>;
const refMethod = (service: string, method: string): Method => (reference[service] as unknown as Record<string, Method>)[method]!;
const leanMethod = (service: string, method: string): Method => lean[service]![method] as Method;

describe('gRPC service definitions', () => {
  it('hold every method of the three services, as proto-loader names and routes them', () => {
    for (const service of NAMES) {
      const ref = reference[service] as unknown as Record<string, Method>;
      expect(Object.keys(lean[service]!).sort()).toEqual(Object.keys(ref).sort());
      for (const [name, m] of Object.entries(ref)) {
        const l = leanMethod(service, name);
        expect({ path: l.path, requestStream: l.requestStream, responseStream: l.responseStream, originalName: l.originalName }).toEqual({
          path: m.path,
          requestStream: m.requestStream,
          responseStream: m.responseStream,
          originalName: m.originalName,
        });
      }
    }
    expect(Object.keys(lean['qdrant.Points']!).length).toBeGreaterThan(20);
  });

  it('convert requests and replies as proto-loader does: int64 as strings, enums by name, oneofs, empty lists and maps', () => {
    const search = {
      collection_name: 'c',
      vector: [0.5, -1.25],
      limit: '10',
      offset: '3',
      filter: { must: [{ field: { key: 'city', match: { keyword: 'Paris' } } }, { has_id: { has_id: [{ num: '18446744073709551615' }, { uuid: 'a-b' }] } }] },
      with_payload: { enable: true },
      params: { hnsw_ef: '64', exact: false },
      read_consistency: { type: 'Majority' },
    };
    const pairs: [string, string, object][] = [
      ['qdrant.Points', 'Search', search],
      ['qdrant.Points', 'Upsert', { collection_name: 'c', wait: true, points: [{ id: { num: '1' }, payload: { a: { list_value: { values: [{ integer_value: '9007199254740993' }, { null_value: 'NULL_VALUE' }] } } }, vectors: { vector: { dense: { data: [1, 2] } } } }] }],
      ['qdrant.Collections', 'Create', { collection_name: 'c', vectors_config: { params: { size: '4', distance: 'Cosine' } }, hnsw_config: { m: '8' } }],
      ['qdrant.Qdrant', 'HealthCheck', {}],
    ];
    for (const [service, method, request] of pairs) {
      const ref = refMethod(service, method);
      const l = leanMethod(service, method);
      const bytes = ref.requestSerialize(request);
      expect(Buffer.compare(l.requestSerialize(request), bytes)).toBe(0);
      expect(l.requestDeserialize(bytes)).toEqual(ref.requestDeserialize(bytes));
    }
    const decoded = leanMethod('qdrant.Points', 'Search').requestDeserialize(refMethod('qdrant.Points', 'Search').requestSerialize(search)) as Record<string, unknown>;
    expect(decoded).toMatchObject({
      limit: '10',
      offset: '3',
      _offset: 'offset',
      read_consistency: { type: 'Majority', value: 'type' },
      filter: { should: [], must_not: [], must: [{ condition_one_of: 'field' }, { has_id: { has_id: [{ num: '18446744073709551615', point_id_options: 'num' }, { uuid: 'a-b' }] } }] },
    });

    const reply = { result: [{ id: { num: '5' }, payload: { k: { string_value: 'v' } }, score: 0.75, version: '2', vectors: { vector: { dense: { data: [1] } } } }], time: 0.001 };
    const ref = refMethod('qdrant.Points', 'Search');
    const l = leanMethod('qdrant.Points', 'Search');
    expect(Buffer.compare(l.responseSerialize(reply), ref.responseSerialize(reply))).toBe(0);
    expect(l.responseDeserialize(ref.responseSerialize(reply))).toEqual(ref.responseDeserialize(ref.responseSerialize(reply)));
  });

  it('refuse an array where a message is expected, as proto-loader does', () => {
    expect(() => leanMethod('qdrant.Points', 'Search').responseSerialize([] as unknown as object)).toThrow(/expected object with SearchResponse structure, got array instead/);
    expect(() => refMethod('qdrant.Points', 'Search').responseSerialize([] as unknown as object)).toThrow(/expected object with SearchResponse structure, got array instead/);
  });
});
