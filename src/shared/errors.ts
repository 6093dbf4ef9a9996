// The one error taxonomy. Every layer throws QuiverError; REST and gRPC map the code to a status
// here and nowhere else. Errors cross the worker boundary as plain {code, message} (structured
// clone drops subclasses) and are rebuilt with fromWire.

export const ERROR_CODES = [
  'BadInput',
  'Unprocessable',
  'NotFound',
  'AlreadyExists',
  'Unauthorized',
  'Forbidden',
  'PayloadTooLarge',
  'UnsupportedMediaType',
  'Timeout',
  'RateLimited',
  'ShardUnavailable',
  'PreconditionFailed',
  'NotImplemented',
  'Internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BadInput: 400,
  Unprocessable: 422,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  AlreadyExists: 409,
  Timeout: 408,
  PreconditionFailed: 412,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  RateLimited: 429,
  Internal: 500,
  NotImplemented: 501,
  ShardUnavailable: 503,
};

/**
 * gRPC status codes (the numbers every gRPC implementation shares), kept here so that workers,
 * which import this file, never load a gRPC library. A test checks them against @grpc/grpc-js.
 */
export const GrpcCode = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

export const GRPC_STATUS: Record<ErrorCode, GrpcCode> = {
  BadInput: GrpcCode.INVALID_ARGUMENT,
  Unprocessable: GrpcCode.INVALID_ARGUMENT,
  Unauthorized: GrpcCode.UNAUTHENTICATED,
  Forbidden: GrpcCode.PERMISSION_DENIED,
  NotFound: GrpcCode.NOT_FOUND,
  AlreadyExists: GrpcCode.ALREADY_EXISTS,
  Timeout: GrpcCode.DEADLINE_EXCEEDED,
  PreconditionFailed: GrpcCode.FAILED_PRECONDITION,
  PayloadTooLarge: GrpcCode.RESOURCE_EXHAUSTED,
  UnsupportedMediaType: GrpcCode.INVALID_ARGUMENT,
  RateLimited: GrpcCode.RESOURCE_EXHAUSTED,
  Internal: GrpcCode.INTERNAL,
  NotImplemented: GrpcCode.UNIMPLEMENTED,
  ShardUnavailable: GrpcCode.UNAVAILABLE,
};

export interface WireError {
  code: ErrorCode;
  message: string;
  /** Seconds the caller is asked to wait before retrying (REST Retry-After, gRPC retry-after metadata). */
  retryAfter?: number;
}

export class QuiverError extends Error {
  readonly code: ErrorCode;
  /** Seconds to wait before retrying, where waiting helps (a rate limit's refill). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'QuiverError';
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** 4xx are the caller's doing and log at info; 5xx are ours and log at error, but for 501, an expected answer. */
  get logLevel(): 'info' | 'error' {
    return HTTP_STATUS[this.code] >= 500 && this.code !== 'NotImplemented' ? 'error' : 'info';
  }

  toWire(): WireError {
    return this.retryAfterSeconds === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, retryAfter: this.retryAfterSeconds };
  }

  /** Any thrown value as it crosses the worker boundary: a QuiverError as it is, anything else as Internal. */
  static toWire(err: unknown): WireError {
    const e = err instanceof QuiverError ? err : QuiverError.internal(err instanceof Error ? err.message : String(err));
    return e.toWire();
  }

  static fromWire(w: WireError): QuiverError {
    return new QuiverError(ERROR_CODES.includes(w.code) ? w.code : 'Internal', w.message, w.retryAfter);
  }

  /** A refusal of a credential or of a tenant binding (403): worded "Forbidden: <why>" everywhere. */
  static forbidden(why: string): QuiverError {
    return new QuiverError('Forbidden', `Forbidden: ${why}`);
  }
  static badInput(message: string): QuiverError {
    return new QuiverError('BadInput', message);
  }
  /** A well-formed request that breaks a rule on a value (Qdrant's "Validation error ..."). */
  static unprocessable(message: string): QuiverError {
    return new QuiverError('Unprocessable', message);
  }
  static notFound(message: string): QuiverError {
    return new QuiverError('NotFound', message);
  }
  static collectionNotFound(name: string): QuiverError {
    return new QuiverError('NotFound', `Collection not found: ${name}`);
  }
  /** A collection whose DELETE is in progress (docs/interface.md section 3.3). */
  static beingDeleted(name: string): QuiverError {
    return new QuiverError('PreconditionFailed', `Collection ${name} is being deleted`);
  }
  static alreadyExists(message: string): QuiverError {
    return new QuiverError('AlreadyExists', message);
  }
  static precondition(message: string): QuiverError {
    return new QuiverError('PreconditionFailed', message);
  }
  static notImplemented(message: string): QuiverError {
    return new QuiverError('NotImplemented', message);
  }
  /** A Qdrant feature Quiver does not offer: REST's 501 and gRPC's UNIMPLEMENTED say the same. */
  static featureNotImplemented(feature: string): QuiverError {
    const verb = feature.endsWith('s') && !feature.endsWith('ss') ? 'are' : 'is';
    return new QuiverError('NotImplemented', `${feature} ${verb} not implemented in Quiver`);
  }
  /** A vector name the collection does not have, worded as Qdrant words it. */
  static unknownVector(name: string): QuiverError {
    return new QuiverError('BadInput', `Wrong input: Not existing vector name error: ${name}`);
  }
  static internal(message: string): QuiverError {
    return new QuiverError('Internal', message);
  }
}

export const ENGINE_NOT_INITIALIZED = 'Engine not initialized';
