// The one place that builds Qdrant's response envelopes (spec 2.6 and 7.1) and maps errors to
// HTTP statuses. Routes return results; failures of any origin (service, validation, fastify
// itself) come through toFailure.

import type { FastifyError } from 'fastify';
import { HTTP_STATUS, QuiverError } from '../../shared/errors.js';

export interface OkEnvelope<T> {
  usage: null;
  time: number;
  status: 'ok';
  result: T;
}

export interface ErrorEnvelope {
  time: number;
  status: { error: string };
}

export function elapsed(t0: number): number {
  return (performance.now() - t0) / 1000;
}

export function ok<T>(result: T, t0: number): OkEnvelope<T> {
  return { usage: null, time: elapsed(t0), status: 'ok', result };
}

export function failure(message: string, t0: number): ErrorEnvelope {
  return { time: elapsed(t0), status: { error: message } };
}

interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: { allowedValue?: unknown };
}

const URL_PARTS: Record<string, string> = { querystring: 'query parameters', params: 'path parameters' };

const PREFERENCE: Record<string, number> = { const: 3, enum: 3, required: 2, additionalProperties: 2 };

/**
 * A schema failure as one readable line. Unions report every branch's complaint; the deepest
 * path is the one the caller got wrong, and a set of `const` complaints is an enum.
 */
export function describeValidation(issues: readonly SchemaIssue[], part: string): string {
  const real = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf');
  const pool = real.length > 0 ? real : issues;
  const depth = (i: SchemaIssue): number => (i.instancePath ?? '').split('/').length;
  const maxDepth = Math.max(...pool.map(depth));
  const deepest = pool.filter((i) => depth(i) === maxDepth);
  const best = deepest.reduce((a, b) => ((PREFERENCE[b.keyword ?? ''] ?? 0) > (PREFERENCE[a.keyword ?? ''] ?? 0) ? b : a));
  const path = (best.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  // Qdrant: "Format error in JSON body: ..." for a body, "Deserialize error in query parameters:
  // ..." (and path parameters) for the URL's parts.
  const url = URL_PARTS[part];
  const head = url === undefined ? `Format error in JSON ${part}: ${path === '' ? part : `${part}.${path}`}` : `Deserialize error in ${url}: ${path === '' ? 'value' : path}`;
  if (best.keyword === 'const') {
    const allowed = deepest.filter((i) => i.keyword === 'const' && i.instancePath === best.instancePath).map((i) => JSON.stringify(i.params?.allowedValue));
    return `${head}: unknown variant, expected one of ${allowed.join(', ')}`;
  }
  return `${head}: ${best.message ?? 'is invalid'}`;
}

/** Status and message for any error that reaches the HTTP layer. */
export function toFailure(err: unknown): { status: number; message: string; internal: boolean } {
  if (err instanceof QuiverError) {
    const status = HTTP_STATUS[err.code];
    return { status, message: err.message, internal: err.logLevel === 'error' };
  }
  if (err === null || typeof err !== 'object') {
    return { status: 500, message: `Service internal error: ${String(err)}`, internal: true };
  }
  const fe = err as Partial<FastifyError> & { validation?: SchemaIssue[]; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    return { status: 400, message: describeValidation(fe.validation, fe.validationContext ?? 'body'), internal: false };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'Payload too large: the request body exceeds the configured limit', internal: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: `Unsupported media type: send Content-Type: application/json`, internal: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'Format error in JSON body: the body is empty', internal: false };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: `Format error in JSON body: ${fe.message ?? 'invalid JSON'}`, internal: false };
    default:
      break;
  }
  if (err instanceof SyntaxError || fe.statusCode === 400) {
    return { status: 400, message: `Format error in JSON body: ${fe.message ?? 'invalid request'}`, internal: false };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, message: fe.message ?? 'Bad request', internal: false };
  }
  return { status: 500, message: `Service internal error: ${fe.message ?? String(err)}`, internal: true };
}
