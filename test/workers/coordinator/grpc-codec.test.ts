// The coordinator's codec (grpc-codec.ts) against @grpc/proto-loader's, which grpc-js uses on the
// main thread: replies carrying every kind of vector encode to the same bytes whether the dense
// vectors' data are Float32Arrays (written raw) or number arrays (written by protobufjs float by
// float), and requests decode to the same objects.

import * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { loadCodecs } from '../../../src/workers/coordinator/grpc-codec.js';
import { LOADER_OPTIONS, PROTO_DIR } from '../../../src/shared/grpc/proto.js';
import { retrievedPointOut, scoredPointOut } from '../../../src/shared/grpc/messages/points.js';
import type { PointRecord, ScoredPoint } from '../../../src/shared/types.js';
import { rng } from '../../helpers/server.js';

const definition = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
const service = definition['qdrant.Points'] as Record<string, protoLoader.MethodDefinition<object, object>>;
const codecs = loadCodecs();

/** A reply's objects with every Float32Array turned into a number array (what protobufjs alone takes). */
function plain<T>(v: T): T {
  if (v instanceof Float32Array) return Array.from(v) as T;
  if (Array.isArray(v)) return v.map(plain) as T;
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) as T;
  return v;
}

describe('grpc-codec', () => {
  const r = rng(3);
  const f32 = (n: number): Float32Array => Float32Array.from({ length: n }, () => r() * 2 - 1);
  const records: PointRecord[] = [
    { id: 1, payload: { a: 'x', n: [1, 2.5] }, vector: f32(128) },
    { id: '2b0c8f3a-1d2e-4f50-9a6b-7c8d9e0f1a2b', payload: {}, vector: { text: f32(3), image: [f32(4), f32(4)], sparse: { indices: Uint32Array.of(1, 9), values: f32(2) } } },
    { id: 3, payload: { b: null }, vector: new Float32Array(0) },
    { id: 4, payload: {}, vector: Float32Array.of(Number.NaN, -0, Infinity, 1e-45) },
    { id: 5, payload: {} },
    // As the shard sends them: views into one shared chunk (select.ts VectorCopies), not at offset 0.
    ...((): PointRecord[] => {
      const chunk = f32(3 * 16);
      return [6, 7, 8].map((id, i) => ({ id, payload: {}, vector: chunk.subarray(i * 16, (i + 1) * 16) }));
    })(),
  ];

  it('encodes a Scroll reply with vectors to the bytes proto-loader gives', () => {
    const reply = { result: records.map(retrievedPointOut), next_page_offset: { num: '6' }, time: 0.25 };
    const ours = Buffer.from(codecs.Scroll.encode(reply));
    const theirs = service.Scroll!.responseSerialize(plain(reply));
    expect(ours.equals(theirs)).toBe(true);
    // And it reads back as the same message.
    expect(service.Scroll!.responseDeserialize(ours)).toEqual(service.Scroll!.responseDeserialize(theirs));
  });

  it('encodes a Search reply (scored points, named and unnamed vectors) to the same bytes', () => {
    const scored: ScoredPoint[] = records.map((p, i) => ({ ...p, score: 1 - i / 10, version: i }));
    const reply = { result: scored.map(scoredPointOut), time: 0.5 };
    expect(Buffer.from(codecs.Search.encode(reply)).equals(service.Search!.responseSerialize(plain(reply)))).toBe(true);
  });

  it('decodes requests to the objects proto-loader gives', () => {
    const req = { collection_name: 'c', vector: [0.5, -1, 2], limit: '10', filter: { must: [{ field: { key: 'a', match: { keyword: 'x' } } }] }, with_vectors: { enable: true } };
    const bytes = service.Search!.requestSerialize(req);
    expect(codecs.Search.decode(bytes)).toEqual(service.Search!.requestDeserialize(bytes));
  });
});
