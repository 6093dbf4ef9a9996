// Small builders for @qdrant/js-client-grpc messages (protobuf-es init objects: camelCase
// fields, oneofs as {case, value}, 64-bit integers as bigint) and readers of its replies, so
// the gRPC tests read like their REST twins.

import { ConnectError, NullValue, QdrantClient, type Value } from '@qdrant/js-client-grpc';
import type { TestServer } from './server.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function grpcClient(server: TestServer, opts: { apiKey?: string; compression?: boolean; headers?: Record<string, string> } = {}): QdrantClient {
  // With an apiKey the client defaults to TLS; the test server is plaintext.
  return new QdrantClient({ url: server.grpcUrl, checkCompatibility: false, https: false, ...opts });
}

export function id(v: number | string) {
  return typeof v === 'number'
    ? { pointIdOptions: { case: 'num' as const, value: BigInt(v) } }
    : { pointIdOptions: { case: 'uuid' as const, value: v } };
}

export function idOf(p: { id?: { pointIdOptions: { case: string | undefined; value?: bigint | string | undefined } } | undefined }): number | string {
  const o = p.id?.pointIdOptions;
  if (o?.case === 'num') return Number(o.value);
  if (o?.case === 'uuid') return o.value as string;
  throw new Error('point without id');
}

export function dense(data: number[]) {
  return { vector: { case: 'dense' as const, value: { data } } };
}

/** A point's vectors: an array for the unnamed vector, a map for named ones. */
export function vectors(v: number[] | Record<string, number[]>) {
  if (Array.isArray(v)) return { vectorsOptions: { case: 'vector' as const, value: dense(v) } };
  return {
    vectorsOptions: {
      case: 'vectors' as const,
      value: { vectors: Object.fromEntries(Object.entries(v).map(([k, d]) => [k, dense(d)])) },
    },
  };
}

export function value(v: Json): Value {
  if (v === null) return { kind: { case: 'nullValue', value: NullValue.NULL_VALUE } } as Value;
  if (typeof v === 'boolean') return { kind: { case: 'boolValue', value: v } } as Value;
  if (typeof v === 'string') return { kind: { case: 'stringValue', value: v } } as Value;
  if (typeof v === 'number') {
    return (Number.isInteger(v) ? { kind: { case: 'integerValue', value: BigInt(v) } } : { kind: { case: 'doubleValue', value: v } }) as Value;
  }
  if (Array.isArray(v)) return { kind: { case: 'listValue', value: { values: v.map(value) } } } as Value;
  return { kind: { case: 'structValue', value: { fields: payload(v) } } } as Value;
}

export function payload(p: Record<string, Json>): Record<string, Value> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, value(v)]));
}

export function json(v: Value): Json {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
      return k.value;
    case 'integerValue':
      return Number(k.value);
    case 'listValue':
      return k.value.values.map(json);
    case 'structValue':
      return jsonPayload(k.value.fields);
    default:
      return null;
  }
}

export function jsonPayload(p: Record<string, Value>): Record<string, Json> {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, json(v)]));
}

interface VectorOutputLike {
  vector: { case: string | undefined; value?: unknown };
  data: number[];
}
interface VectorsOutputLike {
  vectorsOptions: { case: 'vector'; value: VectorOutputLike } | { case: 'vectors'; value: { vectors: Record<string, VectorOutputLike> } } | { case: undefined };
}

function denseOf(v: VectorOutputLike): number[] {
  return v.vector.case === 'dense' ? (v.vector.value as { data: number[] }).data : v.data;
}

/** A reply's vectors in REST form: an array for the unnamed vector, a map for named ones. */
export function vectorsOf(p: { vectors?: VectorsOutputLike | undefined }): number[] | Record<string, number[]> | undefined {
  const o = p.vectors?.vectorsOptions;
  if (o === undefined || o.case === undefined) return undefined;
  if (o.case === 'vector') return denseOf(o.value);
  return Object.fromEntries(Object.entries(o.value.vectors).map(([k, v]) => [k, denseOf(v)]));
}

/** Field conditions in the client's shape. */
export const cond = {
  keyword: (key: string, v: string) => ({ conditionOneOf: { case: 'field' as const, value: { key, match: { matchValue: { case: 'keyword' as const, value: v } } } } }),
  integer: (key: string, v: number) => ({ conditionOneOf: { case: 'field' as const, value: { key, match: { matchValue: { case: 'integer' as const, value: BigInt(v) } } } } }),
  range: (key: string, r: { gt?: number; gte?: number; lt?: number; lte?: number }) => ({ conditionOneOf: { case: 'field' as const, value: { key, range: r } } }),
  isNull: (key: string) => ({ conditionOneOf: { case: 'isNull' as const, value: { key } } }),
  hasId: (ids: (number | string)[]) => ({ conditionOneOf: { case: 'hasId' as const, value: { hasId: ids.map(id) } } }),
};

export const enable = (on: boolean) => ({ selectorOptions: { case: 'enable' as const, value: on } });

/** The status code and message of a failed call. */
export async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ConnectError) return { code: err.code, message: err.rawMessage };
    throw err;
  }
  throw new Error('expected the call to fail');
}
