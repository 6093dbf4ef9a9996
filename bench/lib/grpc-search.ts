// qdrant.Points/Search messages as raw bytes, shared by the two gRPC load generators (the grpc-js
// child and h2load): SearchPoints encoded once with protobufjs from the project's proto/, the
// gRPC length-prefixed frame h2load must send as its body, and the check of one answer.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';

export const SEARCH_PATH = '/qdrant.Points/Search';

/** proto/points.proto above this file: run from dist/bench/lib (the bench) or bench/lib (tests). */
function protoFile(): string {
  for (let d = import.meta.dirname; ; d = dirname(d)) {
    const f = join(d, 'proto', 'points.proto');
    if (existsSync(f)) return f;
    if (dirname(d) === d) throw new Error(`no proto/points.proto above ${import.meta.dirname}`);
  }
}

let root: protobuf.Root | null = null;
function type(name: string): protobuf.Type {
  root ??= protobuf.loadSync(protoFile());
  return root.lookupType(name);
}

/** One encoded SearchPoints per query vector. */
export function encodeSearches(collection: string, vectors: readonly number[][], limit: number, hnswEf: number): Buffer[] {
  const SearchPoints = type('qdrant.SearchPoints');
  return vectors.map((vector) => Buffer.from(SearchPoints.encode(SearchPoints.fromObject({ collectionName: collection, vector, limit, params: { hnswEf } })).finish()));
}

/** A gRPC message frame: flag byte 0 (uncompressed), 4-byte big-endian length, the message. */
export function grpcFrame(message: Uint8Array): Buffer {
  const f = Buffer.alloc(5 + message.length);
  f.writeUInt32BE(message.length, 1);
  f.set(message, 5);
  return f;
}

/** The one message of a unary gRPC answer body; throws on a compressed, short or trailing frame. */
export function unframe(body: Buffer): Buffer {
  if (body.length < 5) throw new Error(`gRPC body of ${body.length} bytes has no frame`);
  if (body[0] !== 0) throw new Error(`gRPC frame flag ${body[0]}: compressed answers are not expected`);
  const len = body.readUInt32BE(1);
  if (body.length !== 5 + len) throw new Error(`gRPC frame says ${len} bytes, body has ${body.length - 5}`);
  return body.subarray(5);
}

/** Throws unless a SearchResponse message holds exactly `limit` points. */
export function checkSearchAnswer(message: Buffer, limit: number): void {
  const SearchResponse = type('qdrant.SearchResponse');
  const answer = SearchResponse.toObject(SearchResponse.decode(message)) as { result?: unknown[] };
  if (!Array.isArray(answer.result) || answer.result.length !== limit) {
    throw new Error(`gRPC Search answered ${JSON.stringify(answer).slice(0, 300)}, expected ${limit} points`);
  }
}
