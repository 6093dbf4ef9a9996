// The one place that builds Qdrant's response envelopes (docs/interface.md section 2.6 and 7.1) and maps errors to
// HTTP statuses. Routes return results; failures of any origin (service, validation, fastify
// itself) come through toFailure.

import type { FastifyError, FastifyReply } from 'fastify';
import { HTTP_STATUS, QuiverError } from './errors.js';
import { describeValidation, type SchemaIssue } from './validation.js';

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

/**
 * Seconds a 503 asks the client to wait (Retry-After): a 503 means a shard or its write log is
 * unavailable for now (a worker being replaced, a NATS leader election of a few seconds).
 */
const RETRY_AFTER_SECONDS = '2';

/**
 * Retry-After: the error's own seconds when it has them (a rate limit), else for a 503 the
 * refusal's own when it set one (the lease gate), else the default.
 */
export function retryAfterFor(reply: FastifyReply, status: number, err?: unknown): void {
  if (err instanceof QuiverError && err.retryAfterSeconds !== undefined) void reply.header('retry-after', String(err.retryAfterSeconds));
  else if (status === 503 && !reply.hasHeader('retry-after')) void reply.header('retry-after', RETRY_AFTER_SECONDS);
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
