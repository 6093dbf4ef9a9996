import { describe, expect, it } from 'vitest';
import { LoginLimiter } from '../../../src/main/auth/rate-limit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LoginLimiter', () => {
  it('allows up to the limit of attempts, then refuses with the seconds left until the window ends', async () => {
    const l = new LoginLimiter({ maxFailures: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect(await l.attempt('a')).toBe(0);
    expect(await l.attempt('a')).toBe(60);
    expect(await l.attempt('a')).toBe(60);
  });

  it('keeps addresses apart, and a success clears an address', async () => {
    const l = new LoginLimiter({ maxFailures: 2, windowMs: 10_000 });
    await l.attempt('a');
    await l.attempt('a');
    expect(await l.attempt('a')).toBe(10);
    expect(await l.attempt('b')).toBe(0);
    await l.succeed('a');
    expect(await l.attempt('a')).toBe(0);
  });

  it('starts a new window after the old one ends', async () => {
    const l = new LoginLimiter({ maxFailures: 1, windowMs: 300 });
    expect(await l.attempt('a')).toBe(0);
    expect(await l.attempt('a')).toBe(1);
    await sleep(350);
    expect(await l.attempt('a')).toBe(0);
    expect(await l.attempt('a')).toBe(1);
  });
});
