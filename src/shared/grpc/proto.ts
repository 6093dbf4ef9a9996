// Where the protos are and how their messages are decoded, shared by the gRPC server (main
// thread) and the coordinating workers that decode handed-off messages, so both convert a
// message the same way. No grpc-js here: workers import this file.

import { join } from 'node:path';
import type { Options } from '@grpc/proto-loader';
import { PROJECT_ROOT } from '../paths.js';

/**
 * How messages are decoded. These must match the flags of `npm run proto:types`, which generates
 * the handler types in ./generated from the same protos: field names as in the .proto, 64-bit
 * integers as strings (no precision lost before the service checks them), enums by name, the
 * name of the set member on each oneof, and empty lists and maps rather than absent ones.
 */
export const LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  arrays: true,
  objects: true,
  oneofs: true,
};

export const PROTO_DIR = join(PROJECT_ROOT, 'proto');
