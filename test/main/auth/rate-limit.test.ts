import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../../src/main/auth/rate-limit.js';

function clock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('FailureLimiter', () => {
  it('allows up to the limit of failures, then refuses until the window ends', () => {
    const c = clock();
    const l = new FailureLimiter({ maxFailures: 3, windowMs: 60_000, now: c.now });
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfter('a')).toBe(0);
      l.fail('a');
    }
    expect(l.retryAfter('a')).toBe(60);
    c.advance(59_001);
    expect(l.retryAfter('a')).toBe(1);
    c.advance(999);
    expect(l.retryAfter('a')).toBe(0);
  });

  it('keeps addresses apart, and a success clears an address', () => {
    const c = clock();
    const l = new FailureLimiter({ maxFailures: 2, windowMs: 10_000, now: c.now });
    l.fail('a');
    l.fail('a');
    expect(l.retryAfter('a')).toBe(10);
    expect(l.retryAfter('b')).toBe(0);
    l.succeed('a');
    expect(l.retryAfter('a')).toBe(0);
  });

  it('starts a new window after the old one ends', () => {
    const c = clock();
    const l = new FailureLimiter({ maxFailures: 2, windowMs: 1_000, now: c.now });
    l.fail('a');
    c.advance(1_000);
    l.fail('a');
    expect(l.retryAfter('a')).toBe(0);
    l.fail('a');
    expect(l.retryAfter('a')).toBe(1);
  });

  it('stays bounded in memory', () => {
    const c = clock();
    const l = new FailureLimiter({ maxFailures: 1, windowMs: 1_000, now: c.now, maxEntries: 100 });
    for (let i = 0; i < 1_000; i++) l.fail(`10.0.${i >> 8}.${i & 255}`);
    expect(l.size).toBeLessThanOrEqual(100);
    c.advance(1_000);
    l.fail('x');
    expect(l.size).toBeLessThanOrEqual(100);
  });
});
