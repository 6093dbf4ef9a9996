// A request's logger, made on its first use. fastify gives every request a pino child bound to
// its request id; most requests log nothing (with the access log off, only failures log), and
// making the child costs the main thread more per request than routing it. The child is made
// with the same bindings and options the moment anything logs or reads through it.

import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogFn = FastifyBaseLogger['info'];

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

// pino's standard levels (Quiver defines no custom ones).
const RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

function enabled(threshold: string, level: string): boolean {
  return (RANK[level] ?? 0) >= (RANK[threshold] ?? 0);
}

export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #opts: ChildLoggerOptions | undefined;
  #child: FastifyBaseLogger | null = null;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, opts?: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#opts = opts;
  }

  #get(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#opts);
    return this.#child;
  }

  #method(level: Level): LogFn {
    return ((...args: unknown[]) => {
      // A level the parent drops is dropped without making the child.
      if (level !== 'silent' && this.#child === null && !enabled(this.#parent.level, level)) return;
      (this.#get()[level] as (...a: unknown[]) => void)(...args);
    }) as LogFn;
  }

  readonly fatal: LogFn = this.#method('fatal');
  readonly error: LogFn = this.#method('error');
  readonly warn: LogFn = this.#method('warn');
  readonly info: LogFn = this.#method('info');
  readonly debug: LogFn = this.#method('debug');
  readonly trace: LogFn = this.#method('trace');
  readonly silent: LogFn = this.#method('silent');

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: string) {
    this.#get().level = level;
  }

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#get().child(bindings, opts);
  }
}
