// The gRPC service definitions the server registers, built from proto/ with protobufjs: per
// method only what grpc-js uses (path, streaming flags, the encoders and decoders of its two
// messages). Not @grpc/proto-loader's package definition, which also makes a descriptor and a
// definition of every message of every file (about 200, for reflection, which Quiver does not
// serve): the main thread's CPU from REST listening to gRPC listening went from 80-121 ms
// (median 101) to 51-66 ms (median 61) in 5 alternating starts of each on a busy machine; the
// parse of the .proto files is most of what remains.
//
// Invariant: messages convert exactly as proto-loader converts them (the same protobufjs calls,
// with LOADER_OPTIONS), so handlers and the coordinating workers (which decode handed-off messages
// with proto-loader, coordinator/grpc-requests.ts) see the same objects.

import { accessSync, constants } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { LOADER_OPTIONS, PROTO_DIR } from './proto.js';

/** How decoded messages become objects: LOADER_OPTIONS without its parse-time keepCase. */
const CONVERSION: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  defaults: LOADER_OPTIONS.defaults ?? false,
  arrays: LOADER_OPTIONS.arrays ?? false,
  objects: LOADER_OPTIONS.objects ?? false,
  oneofs: LOADER_OPTIONS.oneofs ?? false,
};

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    return type.encode(type.fromObject(value)).finish() as Buffer;
  };
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION);
}

/** proto-loader's originalName: the method name with a lower-case first letter. */
function camelCase(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The protos under `dir` from `entry`, imports resolved in `dir` (as proto-loader's includeDirs). */
function loadRoot(entry: string, dir: string): protobuf.Root {
  const root = new protobuf.Root();
  const fallback = root.resolvePath.bind(root);
  root.resolvePath = (origin, target) => {
    if (isAbsolute(target)) return target;
    const local = join(dir, target);
    try {
      accessSync(local, constants.R_OK);
      return local;
    } catch {
      // Not in proto/: protobufjs's own (google/protobuf/timestamp.proto is built in).
      return fallback(origin, target);
    }
  };
  root.loadSync(entry, { keepCase: LOADER_OPTIONS.keepCase ?? false });
  root.resolveAll();
  return root;
}

/** The definitions of the services named (fully qualified, e.g. `qdrant.Points`), from proto/qdrant.proto. */
export function loadServices(names: readonly string[], dir = PROTO_DIR): Record<string, ServiceDefinition> {
  const root = loadRoot('qdrant.proto', dir);
  const out: Record<string, ServiceDefinition> = {};
  for (const name of names) {
    const service = root.lookupService(name);
    const methods: Record<string, MethodDefinition<object, object>> = {};
    for (const m of service.methodsArray) {
      const req = m.resolvedRequestType!;
      const res = m.resolvedResponseType!;
      methods[m.name] = {
        path: `/${name}/${m.name}`,
        requestStream: m.requestStream === true,
        responseStream: m.responseStream === true,
        requestSerialize: serializer(req),
        requestDeserialize: deserializer(req),
        responseSerialize: serializer(res),
        responseDeserialize: deserializer(res),
        originalName: camelCase(m.name),
      };
    }
    out[name] = methods;
  }
  return out;
}
