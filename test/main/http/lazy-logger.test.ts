import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger } from '../../../src/main/http/lazy-logger.js';

function pinoInto(lines: string[], level = 'info'): FastifyBaseLogger {
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
      cb();
    },
  });
  return Fastify({ logger: { level, stream } }).log;
}

/** A parent whose child() calls are counted. */
function counting(parent: FastifyBaseLogger): { logger: FastifyBaseLogger; children: () => number } {
  let n = 0;
  const real = parent.child.bind(parent);
  const logger = Object.create(parent) as FastifyBaseLogger;
  logger.child = (b, o) => {
    n++;
    return real(b, o);
  };
  return { logger, children: () => n };
}

describe('LazyChildLogger', () => {
  it('makes no child while nothing logs, nor for a level the parent drops', () => {
    const lines: string[] = [];
    const { logger, children } = counting(pinoInto(lines, 'info'));
    const lazy = new LazyChildLogger(logger, { reqId: 'r1' });
    expect(lazy.level).toBe('info');
    lazy.debug('dropped');
    lazy.trace({ a: 1 }, 'dropped too');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('logs through a child bound as the eager one would be, made once', () => {
    const lines: string[] = [];
    const { logger, children } = counting(pinoInto(lines, 'info'));
    const lazy = new LazyChildLogger(logger, { reqId: 'r2' });
    lazy.info({ status: 404 }, 'first');
    lazy.error('second');
    expect(children()).toBe(1);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => [p.reqId, p.msg, p.level])).toEqual([
      ['r2', 'first', 30],
      ['r2', 'second', 50],
    ]);
    expect(parsed[0]!.status).toBe(404);
  });

  it('follows a level set on it, and hands out grandchildren with both bindings', () => {
    const lines: string[] = [];
    const lazy = new LazyChildLogger(pinoInto(lines, 'info'), { reqId: 'r3' });
    lazy.level = 'debug';
    lazy.debug('now kept');
    lazy.child({ part: 'x' }).info('grandchild');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => [p.reqId, p.part, p.msg])).toEqual([
      ['r3', undefined, 'now kept'],
      ['r3', 'x', 'grandchild'],
    ]);
  });
});
