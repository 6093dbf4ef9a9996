// The gRPC service definitions the server registers, built from proto/ with protobufjs: per
// method only what grpc-js uses (path, streaming flags, the encoders and decoders of its two
// messages). Not @grpc/proto-loader's package definition, which also makes a descriptor and a
// definition of every message of every file (about 200, for reflection, which Quiver does not
// serve): the main thread's CPU from REST listening to gRPC listening went from 80-121 ms
// (median 101) to 51-66 ms (median 61) in 5 alternating starts of each on a busy machine; the
// parse of the .proto files is most of what remains.
//
// The .proto files are parsed at the first message converted (or when warmServices() is called,
// once the server is ready), not at start: the parse cost the main thread ~40 ms of CPU on the
// way to /readyz. What registering needs (each service's methods and their streaming flags) is
// read from the files' text, which the test compares with proto-loader's parse.
//
// Invariant: messages convert exactly as proto-loader converts them (the same protobufjs calls,
// with LOADER_OPTIONS), so handlers and the coordinating workers (which decode handed-off messages
// with proto-loader, coordinator/grpc-requests.ts) see the same objects.

import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { LOADER_OPTIONS, PROTO_DIR } from '../../shared/grpc/proto.js';

/** How decoded messages become objects: LOADER_OPTIONS without its parse-time keepCase. */
const CONVERSION: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  defaults: LOADER_OPTIONS.defaults ?? false,
  arrays: LOADER_OPTIONS.arrays ?? false,
  objects: LOADER_OPTIONS.objects ?? false,
  oneofs: LOADER_OPTIONS.oneofs ?? false,
};

function serializer(type: () => protobuf.Type): (value: object) => Buffer {
  return (value) => {
    const t = type();
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${t.name} structure, got array instead`);
    return t.encode(t.fromObject(value)).finish() as Buffer;
  };
}

function deserializer(type: () => protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => {
    const t = type();
    return t.toObject(t.decode(bytes), CONVERSION);
  };
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

/** The parsed protos by directory: parsed once, when a message is first converted (or warmServices). */
const roots = new Map<string, protobuf.Root>();

function rootOf(dir: string): protobuf.Root {
  let root = roots.get(dir);
  if (root === undefined) {
    root = loadRoot('qdrant.proto', dir);
    roots.set(dir, root);
  }
  return root;
}

/** Parses the protos now (after start-up), so that no call waits for it. */
export function warmServices(dir = PROTO_DIR): void {
  rootOf(dir);
}

interface MethodShape {
  name: string;
  requestStream: boolean;
  responseStream: boolean;
}

const SERVICE_START = /^\s*service\s+(\w+)\s*\{/;
const RPC = /\brpc\s+(\w+)\s*\(\s*(stream\s+)?[\w.]+\s*\)\s*returns\s*\(\s*(stream\s+)?[\w.]+\s*\)/;

/**
 * The services the .proto files of `dir` declare (fully qualified names) and their methods, read
 * from the text without parsing it: a service block runs from `service Name {` to the first line
 * holding only `}`, one `rpc` a line, as these files are written.
 */
function scanServices(dir: string): Map<string, MethodShape[]> {
  const out = new Map<string, MethodShape[]>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.proto')) continue;
    const text = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const lines = text.split('\n').map((l) => l.replace(/\/\/.*$/, ''));
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(lines.join('\n'))?.[1];
    let methods: MethodShape[] | null = null;
    for (const line of lines) {
      const start = SERVICE_START.exec(line);
      if (start !== null) {
        methods = [];
        out.set(pkg === undefined ? start[1]! : `${pkg}.${start[1]!}`, methods);
        continue;
      }
      if (methods === null) continue;
      if (/^\s*\}\s*$/.test(line)) {
        methods = null;
        continue;
      }
      const rpc = RPC.exec(line);
      if (rpc !== null) methods.push({ name: rpc[1]!, requestStream: rpc[2] !== undefined, responseStream: rpc[3] !== undefined });
    }
  }
  return out;
}

/** The definitions of the services named (fully qualified, e.g. `qdrant.Points`), from proto/qdrant.proto. */
export function loadServices(names: readonly string[], dir = PROTO_DIR): Record<string, ServiceDefinition> {
  const shapes = scanServices(dir);
  const out: Record<string, ServiceDefinition> = {};
  for (const name of names) {
    const service = shapes.get(name);
    if (service === undefined) throw new Error(`no service ${name} in ${dir}`);
    const methods: Record<string, MethodDefinition<object, object>> = {};
    for (const m of service) {
      let types: { req: protobuf.Type; res: protobuf.Type } | null = null;
      const resolve = (): { req: protobuf.Type; res: protobuf.Type } => {
        if (types === null) {
          const method = rootOf(dir).lookupService(name).methods[m.name];
          if (method === undefined) throw new Error(`no method ${m.name} in service ${name}`);
          types = { req: method.resolvedRequestType!, res: method.resolvedResponseType! };
        }
        return types;
      };
      const req = (): protobuf.Type => resolve().req;
      const res = (): protobuf.Type => resolve().res;
      methods[m.name] = {
        path: `/${name}/${m.name}`,
        requestStream: m.requestStream,
        responseStream: m.responseStream,
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
