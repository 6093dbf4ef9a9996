// A request's own timeout alone (fake timers): a read past it is a 408 in Qdrant's wording, and
// its late failure is nobody's; a write with wait=true past it answers wait_timeout and still
// completes; a batch answers the operations done in time and wait_timeout for the rest, which go
// on in order; timeouts that are not whole seconds are refused.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateResult } from '../../../src/shared/types.js';
import { batchWithin, readOperation, readWithin, timeoutSeconds, WAIT_TIMEOUT, writeWithin } from '../../../src/workers/service/request-timeout.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const after = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms));
const done = (id: number): UpdateResult => ({ operation_id: id, status: 'completed' });

describe('request timeouts', () => {
  it('a read answered in time is its result; one past its timeout is a 408, its late failure swallowed', async () => {
    const quick = readWithin(1, 'Search', () => after(500, 'ok'));
    await vi.advanceTimersByTimeAsync(500);
    await expect(quick).resolves.toBe('ok');
    const late = readWithin(2, 'Search', () => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 3000)));
    const seen = expect(late).rejects.toMatchObject({ code: 'Timeout', message: "Timeout: Timeout error: Operation 'Search' timed out after 2s" });
    await vi.advanceTimersByTimeAsync(3500);
    await seen;
    // No timeout: whatever the read takes.
    const slow = readWithin(null, 'Search', () => after(10_000, 1));
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(slow).resolves.toBe(1);
  });

  it('a write with wait=true answers wait_timeout once its timeout passes, and runs to its end', async () => {
    let finished = false;
    const write = () => after(2500, done(7)).then((r) => ((finished = true), r));
    const res = writeWithin(true, 1, write);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(res).resolves.toEqual(WAIT_TIMEOUT);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1500);
    expect(finished).toBe(true);
    // Without wait, the timeout does not apply.
    const noWait = writeWithin(false, 1, () => after(2000, done(8)));
    await vi.advanceTimersByTimeAsync(2000);
    await expect(noWait).resolves.toEqual(done(8));
  });

  it('a batch answers the operations done in time, wait_timeout for the rest, which go on in order', async () => {
    const order: number[] = [];
    const run = async (results: UpdateResult[]): Promise<UpdateResult[]> => {
      for (const [i, ms] of [300, 1500, 200].entries()) {
        results.push(await after(ms, done(i)));
        order.push(i);
      }
      return results;
    };
    const res = batchWithin(true, 1, 3, run);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(res).resolves.toEqual([done(0), WAIT_TIMEOUT, WAIT_TIMEOUT]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(order).toEqual([0, 1, 2]);
  });

  it('takes whole seconds, 1 or more, as numbers or digit strings (gRPC uint64); refuses the rest', () => {
    expect(timeoutSeconds(undefined)).toBeNull();
    expect(timeoutSeconds(3)).toBe(3);
    expect(timeoutSeconds('12')).toBe(12);
    for (const bad of [0, -1, 1.5, '1.5', 'soon', '0']) {
      expect(() => timeoutSeconds(bad)).toThrow(`Bad request: timeout must be a whole number of seconds, 1 or more; got ${JSON.stringify(bad)}`);
    }
  });

  it('names the operation as Qdrant does', () => {
    expect(readOperation('POST /collections/:collection_name/points/query')).toBe('Search');
    expect(readOperation('Facet')).toBe('facet');
    expect(readOperation('Count')).toBe('count');
    expect(readOperation('POST /collections/:collection_name/points/scroll')).toBe('Query scroll');
    expect(readOperation('Get')).toBe('retrieve');
  });
});
