// collectionNameOf: the one field the main thread reads from a handed-off gRPC message, by
// walking its top-level tags, without decoding it.

import { describe, expect, it } from 'vitest';
import * as protoLoader from '@grpc/proto-loader';
import { collectionNameOf } from '../../src/main/grpc/handoff.js';
import { LOADER_OPTIONS, PROTO_DIR } from '../../src/shared/grpc/proto.js';
import { GRPC_HANDOFF_METHODS } from '../../src/shared/point-ops.js';

const points = protoLoader.loadSync('qdrant.proto', { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] })['qdrant.Points'] as protoLoader.ServiceDefinition;

describe('collectionNameOf', () => {
  it('reads field 1 of every hand-off method’s request, which is its collection_name', () => {
    for (const m of GRPC_HANDOFF_METHODS) {
      const bytes = points[m]!.requestSerialize({ collection_name: 'ünï-côdé', limit: '3', wait: true, exact: true });
      expect(collectionNameOf(bytes), m).toBe('ünï-côdé');
    }
  });

  it('finds it after other fields, skips every wire type, and takes the last one as decoding does', () => {
    const search = points.Search!.requestSerialize({ collection_name: 'first', vector: [1, 2, 3], limit: '9', score_threshold: 0.5, offset: '2' });
    // Fields in reverse order: the vector (packed floats), a varint, a fixed32, then field 1 again.
    const tail = Buffer.concat([Buffer.from([0x12, 0x04, 0, 0, 0x80, 0x3f]), Buffer.from([0x20, 0x05]), Buffer.from([0x2d, 0, 0, 0, 0x3f]), Buffer.from([0x0a, 0x04]), Buffer.from('last')]);
    expect(collectionNameOf(search)).toBe('first');
    expect(collectionNameOf(Buffer.concat([search, tail]))).toBe('last');
    // A fixed64 field.
    expect(collectionNameOf(Buffer.from([0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x0a, 0x01, 0x78]))).toBe('x');
  });

  it('answers undefined for no name and for bytes that are not a message', () => {
    expect(collectionNameOf(Buffer.alloc(0))).toBeUndefined();
    expect(collectionNameOf(Buffer.from([0x20, 0x05]))).toBeUndefined();
    expect(collectionNameOf(Buffer.from([0x0a, 0x0a, 0x67]))).toBeUndefined();
    expect(collectionNameOf(Buffer.from([0x0a, 0x01, 0x67, 0x7f]))).toBeUndefined();
    expect(collectionNameOf(Buffer.from([0x0a, 0x01, 0x67, 0x80]))).toBeUndefined();
    expect(collectionNameOf(Buffer.from([0x19, 1, 2]))).toBeUndefined();
  });
});
