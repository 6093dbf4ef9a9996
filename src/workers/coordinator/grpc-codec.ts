// The Points service's messages, decoded and encoded in the coordinating worker with the same
// protos and protobufjs calls that @grpc/proto-loader makes for grpc-js on the main thread
// (decode: toObject with LOADER_OPTIONS; encode: fromObject, then encode), so a reply's bytes are
// those grpc-js would send. One difference, in speed only: a DenseVector whose `data` is a
// Float32Array (messages/values.ts vectorOut) is written as its raw bytes. A packed repeated float
// is the values' little-endian IEEE bytes after a length, which protobufjs otherwise writes one
// float at a time, an operation object each: a 5,000 x 128 scroll spent most of its time
// collecting those 640,000 objects.

import { existsSync } from 'node:fs';
import { endianness } from 'node:os';
import { isAbsolute, join } from 'node:path';
import protobuf from 'protobufjs';
import { LOADER_OPTIONS, PROTO_DIR } from '../../shared/grpc/proto.js';
import { GRPC_HANDOFF_METHODS, type GrpcHandoffMethod } from '../../shared/point-ops.js';

export interface Codec {
  decode(bytes: Buffer): unknown;
  encode(reply: object): Uint8Array;
}

/** DenseVector.data: field 1, length-delimited (wire type 2). */
const DENSE_DATA_TAG = (1 << 3) | 2;

/** DenseVector with a Float32Array `data` passed through fromObject and written as bytes; other values as protobufjs writes them. */
function rawDenseVectors(root: protobuf.Root): void {
  const dense = root.lookupType('qdrant.DenseVector');
  // setup() generates the type's own functions; those are replaced, and parents call them by reference.
  dense.setup();
  const fromObject = dense.fromObject.bind(dense);
  const encode = dense.encode.bind(dense);
  // The bytes are the host's: only where they are the wire's order; elsewhere the array is made plain.
  if (endianness() !== 'LE') {
    dense.fromObject = (o: Record<string, unknown>) => fromObject(o.data instanceof Float32Array ? { ...o, data: Array.from(o.data) } : o);
    return;
  }
  dense.fromObject = (o: Record<string, unknown>) => (o.data instanceof Float32Array ? (o as unknown as protobuf.Message) : fromObject(o));
  dense.encode = (m: protobuf.Message | Record<string, unknown>, w?: protobuf.Writer) => {
    const data = (m as { data?: unknown }).data;
    if (!(data instanceof Float32Array)) return encode(m, w);
    const out = w ?? protobuf.Writer.create();
    if (data.length > 0) out.uint32(DENSE_DATA_TAG).bytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    return out;
  };
}

/** The Points service's codecs, from the protos (proto-loader's include-path rule: PROTO_DIR first, protobufjs's bundled google/* otherwise). */
export function loadCodecs(): Record<GrpcHandoffMethod, Codec> {
  const root = new protobuf.Root();
  const bundled = root.resolvePath.bind(root);
  root.resolvePath = (origin, target) => {
    if (isAbsolute(target)) return target;
    const local = join(PROTO_DIR, target);
    return existsSync(local) ? local : bundled(origin, target);
  };
  root.loadSync('qdrant.proto', { keepCase: LOADER_OPTIONS.keepCase ?? false });
  root.resolveAll();
  rawDenseVectors(root);
  const service = root.lookupService('qdrant.Points');
  const codecOf = (m: GrpcHandoffMethod): Codec => {
    const method = service.methods[m];
    const req = method?.resolvedRequestType;
    const res = method?.resolvedResponseType;
    if (!req || !res) throw new Error(`qdrant.Points has no method ${m}`);
    return {
      decode: (bytes) => req.toObject(req.decode(bytes), LOADER_OPTIONS),
      encode: (reply) => res.encode(res.fromObject(reply)).finish(),
    };
  };
  return Object.fromEntries(GRPC_HANDOFF_METHODS.map((m) => [m, codecOf(m)])) as Record<GrpcHandoffMethod, Codec>;
}
