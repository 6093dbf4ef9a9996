// The modules of messages/ convert between Qdrant's protobuf messages (as @grpc/proto-loader
// decodes them: keepCase, 64-bit integers as strings, enums as names, oneofs named) and the request
// and result shapes of the service layer, which are the REST shapes. No rule of the service lives
// there: a request is rewritten into the REST form, checked by the same TypeBox schema a REST
// route uses (so errors read the same), and handed to the same do* function.
//
// This one holds the small tools they share: optional fields without `undefined`, decoded messages
// as plain data, 64-bit integers as numbers, and REST schemas compiled into gRPC checks.

import type { Static, TSchema } from 'typebox';
import { compileCheck } from '../../validation.js';

/** A JSON object in REST form, as the service's schemas and parsers read it. */
export type Json = Record<string, unknown>;

/** `{key: value}` when value is defined, `{}` otherwise: optional fields without `undefined`. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * A decoded message as plain data: without the markers the decoder adds for proto3 `optional`
 * fields (`_gte: 'gte'`), and with 64-bit integers (decoded as strings) as numbers. For messages
 * passed on whole, such as a range or index params.
 */
export function plain<T extends object>(msg: T, int64: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(msg)) {
    if (k.startsWith('_') && v === k.slice(1)) continue;
    out[k] = int64.includes(k) && typeof v === 'string' ? Number(v) : v;
  }
  return out;
}

/** A uint64/int64 decoded as a string (so no precision is lost on the way), as a JS number. */
export function num(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

export function lower<T extends string>(v: T | undefined): Lowercase<T> | undefined {
  return v === undefined ? undefined : (v.toLowerCase() as Lowercase<T>);
}

/**
 * A REST schema compiled once; the check throws what Qdrant's gRPC answers (INVALID_ARGUMENT):
 * a format error, or `Validation error in body: [...]` for broken value rules.
 */
export function schemaCheck<S extends TSchema>(schema: S): (value: Static<S>) => Static<S> {
  const compiled = compileCheck(schema, 'grpc');
  return (value) => {
    const r = compiled.check(value);
    if (r.error !== undefined) throw r.error;
    return value;
  };
}
