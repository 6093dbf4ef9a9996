// within / settleWithin: the one bound every wait on an engine or peer goes through; retryFor: the one start-up and creation retry loop.

import { describe, expect, it } from 'vitest';
import { retryFor, settleWithin, within } from '../../src/shared/deadline.js';

const after = <T>(ms: number, v: T): Promise<T> => new Promise((r) => setTimeout(() => r(v), ms));

describe('within', () => {
  it('answers the work when it ends first', async () => {
    await expect(within(after(5, 'done'), 500, () => 'late')).resolves.toBe('done');
  });

  it('answers what late() returns once the time passed first', async () => {
    const t0 = Date.now();
    await expect(within(after(2000, 'done'), 50, () => 'late')).resolves.toBe('late');
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it("rejects with what late() throws, and with the work's own error when it fails first", async () => {
    await expect(
      within(after(2000, 1), 20, () => {
        throw new Error('no answer within 20 ms');
      }),
    ).rejects.toThrow('no answer within 20 ms');
    await expect(within(Promise.reject(new Error('refused')), 500, () => 0)).rejects.toThrow('refused');
  });

  it('does not report a failure of the work after the time passed', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failsLate = new Promise<number>((_, rej) => setTimeout(() => rej(new Error('too late')), 30));
      await expect(within(failsLate, 5, () => 7)).resolves.toBe(7);
      await after(60, null);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('settleWithin', () => {
  it('waits for the work, failed or not, but never longer than the bound', async () => {
    await expect(settleWithin(Promise.reject(new Error('closing failed')), 500)).resolves.toBeUndefined();
    const t0 = Date.now();
    await settleWithin(new Promise(() => undefined), 40);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(35);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe('retryFor', () => {
  it('tries again after each failure and answers the first success', async () => {
    let tries = 0;
    const v = await retryFor(5000, 10, async () => {
      if (++tries < 3) throw new Error(`try ${tries}`);
      return 'ok';
    });
    expect([v, tries]).toEqual(['ok', 3]);
  });

  it('throws the last error once the time is up, having kept trying until then', async () => {
    let tries = 0;
    const t0 = Date.now();
    const err = await retryFor(200, 20, async () => {
      throw new Error(`try ${++tries}`);
    }).catch((e: unknown) => e as Error);
    expect(err.message).toBe(`try ${tries}`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(tries).toBeGreaterThan(3);
  });

  it('throws at once an error the predicate refuses', async () => {
    let tries = 0;
    const err = await retryFor(5000, 10, async () => {
      throw new Error(`fatal ${++tries}`);
    }, (e) => !(e as Error).message.startsWith('fatal')).catch((e: unknown) => e as Error);
    expect([err.message, tries]).toEqual(['fatal 1', 1]);
  });
});
