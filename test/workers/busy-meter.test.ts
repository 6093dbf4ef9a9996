import { describe, expect, it } from 'vitest';
import { BUSY, BUSY_SLOTS, BUSY_WINDOW_MS } from '../../src/shared/protocol.js';
import { startBusyMeter } from '../../src/workers/busy-meter.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('busy meter', () => {
  it("publishes its worker's event-loop utilization in its own slots, with the time of the reading", async () => {
    const buffer = new SharedArrayBuffer(3 * BUSY_SLOTS * 4);
    const view = new Int32Array(buffer);
    startBusyMeter(buffer, 1);
    await sleep(BUSY_WINDOW_MS * 3);
    const at = 1 * BUSY_SLOTS;
    const age = (Date.now() % 2 ** 31) - Atomics.load(view, at + BUSY.at);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(1000);
    const idle = Atomics.load(view, at + BUSY.perMille);
    // worker 0 and 2's slots are untouched
    expect(view[0]).toBe(0);
    expect(view[2 * BUSY_SLOTS + BUSY.at]).toBe(0);

    // A loop held busy for several windows reads as busy on the next reading.
    const until = performance.now() + BUSY_WINDOW_MS * 5;
    while (performance.now() < until) {
      /* spin */
    }
    await sleep(1);
    const busy = Atomics.load(view, at + BUSY.perMille);
    expect(busy).toBeGreaterThan(500);
    expect(busy).toBeGreaterThan(idle);
  });
});
