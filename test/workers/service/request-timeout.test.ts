// A request's own timeout alone (fake timers): a read past it is a 408 in Qdrant's wording, and
// its late failure is nobody's; a write with wait=true past it answers wait_timeout, only once it
// has been sent, and still completes; a refusal before it is sent is the answer; timeouts that
// are not whole seconds are refused, and ones too long for a timer mean none.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateResult } from '../../../src/shared/types.js';
import type { PointEngine } from '../../../src/shared/point-engine.js';
import { readOperation, readWithin, timeoutSeconds, WAIT_TIMEOUT, waitDeadline, writeWithin } from '../../../src/workers/service/request-timeout.js';

/** An engine whose operation ids are all a write needs here (mocked: the unit under test only watches nextOpId). */
const engine = (): PointEngine => ({ nextOpId: () => 1 }) as unknown as PointEngine;

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

  it('a write with wait=true answers wait_timeout once its timeout passes and it has been sent, and runs to its end', async () => {
    let finished = false;
    // Sent at once (its operation id taken), done after 2.5 s.
    const write = (e: PointEngine) => {
      e.nextOpId(1);
      return after(2500, done(7)).then((r) => ((finished = true), r));
    };
    const res = writeWithin(engine(), waitDeadline(true, 1), write);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(res).resolves.toEqual(WAIT_TIMEOUT);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(1500);
    expect(finished).toBe(true);
    // Without wait, no deadline: the timeout does not apply.
    expect(waitDeadline(false, 1)).toBeNull();
    const noWait = writeWithin(engine(), null, () => after(2000, done(8)));
    await vi.advanceTimersByTimeAsync(2000);
    await expect(noWait).resolves.toEqual(done(8));
  });

  it('a write not yet sent when its timeout passes is waited for: a refusal then is the answer, and wait_timeout comes only once it is sent', async () => {
    // Checks take 1.5 s (a strict mode fan-out behind a slow read), then refuse.
    const refused = writeWithin(engine(), waitDeadline(true, 1), () => after(1500, null).then(() => Promise.reject(new Error('Max vector storage size limit of 1MB reached!'))));
    const seen = expect(refused).rejects.toThrow('Max vector storage size limit');
    await vi.advanceTimersByTimeAsync(1500);
    await seen;
    // Sent at 1.5 s, past its deadline: wait_timeout then, not before.
    let answered = false;
    const late = writeWithin(engine(), waitDeadline(true, 1), (e) => after(1500, null).then(() => (e.nextOpId(1), after(5000, done(9)))));
    void late.then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(1200);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    await expect(late).resolves.toEqual(WAIT_TIMEOUT);
  });

  it('takes whole seconds, 1 or more, as numbers or digit strings (gRPC uint64); refuses the rest', () => {
    expect(timeoutSeconds(undefined)).toBeNull();
    expect(timeoutSeconds(3)).toBe(3);
    expect(timeoutSeconds('12')).toBe(12);
    for (const bad of [0, -1, 1.5, '1.5', 'soon', '0']) {
      expect(() => timeoutSeconds(bad)).toThrow(`Validation error: [timeout: value ${String(bad)} invalid, must be a whole number, 1 or larger]`);
    }
    // Longer than a timer keeps (about 24.8 days): no timeout, rather than one that fires at once.
    expect(timeoutSeconds(2_147_484)).toBeNull();
    expect(timeoutSeconds(2_147_483)).toBe(2_147_483);
  });

  it('names the operation as Qdrant does', () => {
    expect(readOperation('POST /collections/:collection_name/points/query')).toBe('Search');
    expect(readOperation('Facet')).toBe('facet');
    expect(readOperation('Count')).toBe('count');
    expect(readOperation('POST /collections/:collection_name/points/scroll')).toBe('Query scroll');
    expect(readOperation('Get')).toBe('retrieve');
  });
});
