// Strict mode's token buckets alone: full at first, refilled evenly over a minute, a new limit or
// another collection in the slot starting full again, and the refusals' waits.

import { describe, expect, it } from 'vitest';
import { QuiverError } from '../../src/shared/errors.js';
import { takeTokens } from '../../src/workers/service/rate-limits.js';

function refusal(fn: () => void): QuiverError {
  try {
    fn();
  } catch (e) {
    if (e instanceof QuiverError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('rate-limit buckets', () => {
  it('start full, refill limit/60 tokens a second, and say how long to wait', () => {
    const t = 1_000_000;
    takeTokens(7, 'write', 60, 60, t);
    const e = refusal(() => takeTokens(7, 'write', 60, 5, t));
    expect(e.code).toBe('RateLimited');
    expect(e.retryAfterSeconds).toBe(5);
    // The wait crosses threads with the error (the gRPC status's retry-after metadata reads it).
    expect(QuiverError.fromWire(e.toWire()).retryAfterSeconds).toBe(5);
    expect(e.message).toBe('Rate limiting exceeded: Write rate limit exceeded: Operation requires 5 tokens but only 0.0 were available. Retry after 5s');
    // 5 s later, 5 tokens.
    takeTokens(7, 'write', 60, 5, t + 5000);
    expect(refusal(() => takeTokens(7, 'write', 60, 1, t + 5000)).retryAfterSeconds).toBe(1);
    // Reads have their own bucket.
    takeTokens(7, 'read', 60, 60, t + 5000);
  });

  it('a request above the limit is refused with no wait; a new limit starts full', () => {
    const e = refusal(() => takeTokens(8, 'read', 10, 11));
    expect(e.retryAfterSeconds).toBeUndefined();
    expect(e.toWire()).toEqual({ code: 'RateLimited', message: e.message });
    expect(e.message).toContain('request larger than rate limiter capacity');
    const t = 2_000_000;
    takeTokens(8, 'read', 10, 10, t);
    takeTokens(8, 'read', 20, 20, t);
  });
});
