// BehindCheck (src/workers/cluster/applier.ts): a log is taken to have gone backwards only on
// answers below applied_seq that agree in a row over a while, never on one stale answer (a stream
// leader resumed after a pause answers with its old state until it learns of the new leader).

import { describe, expect, it } from 'vitest';
import { BEHIND_CHECKS, BEHIND_CONFIRM_MS, BehindCheck } from '../../../src/workers/cluster/applier.js';

describe('BehindCheck', () => {
  it('one stale answer then a current one: never Dead, and the suspicion is cleared', () => {
    const c = new BehindCheck(3, 10_000);
    expect(c.observe(157, 95, 0)).toEqual({ verdict: 'suspect', first: true });
    expect(c.observe(157, 161, 1_000)).toEqual({ verdict: 'ok', first: false });
    // A later stale answer starts a new window from its own time.
    expect(c.observe(157, 95, 20_000)).toEqual({ verdict: 'suspect', first: true });
    expect(c.observe(157, 95, 25_000).verdict).toBe('suspect');
    expect(c.observe(157, 95, 29_999).verdict).toBe('suspect');
    expect(c.observe(157, 95, 30_000).verdict).toBe('behind');
  });

  it('needs both the number of answers and the time window', () => {
    const many = new BehindCheck(3, 10_000);
    for (let t = 0; t < 10_000; t += 100) expect(many.observe(10, 5, t).verdict).toBe('suspect');
    expect(many.observe(10, 5, 10_000).verdict).toBe('behind');
    const slow = new BehindCheck(3, 10_000);
    expect(slow.observe(10, 5, 0).verdict).toBe('suspect');
    expect(slow.observe(10, 5, 60_000).verdict).toBe('suspect');
    expect(slow.observe(10, 5, 60_001).verdict).toBe('behind');
  });

  it('a log at or past applied_seq is fine; the defaults span longer than a NATS election', () => {
    const c = new BehindCheck();
    expect(c.observe(10, 10, 0).verdict).toBe('ok');
    expect(c.observe(0, 0, 0).verdict).toBe('ok');
    expect(BEHIND_CHECKS).toBeGreaterThanOrEqual(3);
    expect(BEHIND_CONFIRM_MS).toBeGreaterThanOrEqual(10_000);
  });
});
