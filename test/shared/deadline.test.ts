// within / settleWithin: the one bound every wait on an engine or peer goes through.

import { describe, expect, it } from 'vitest';
import { settleWithin, within } from '../../src/shared/deadline.js';

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
