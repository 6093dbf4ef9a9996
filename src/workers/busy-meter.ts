// Each worker publishes how busy its event loop is, so the main thread can hand a request to the
// coordinator with the most room (dispatcher.ts #pickCoordinator): a shard owner saturated by
// searches should not also parse and serialize the requests an idle sibling could take.
//
// Layout (BUSY_SLOTS Int32 per worker in WorkerInit.busy): the event loop's utilization over the
// last window in per-mille, and the time of that reading (Date.now() mod 2^31). A reading older
// than BUSY_STALE_MS means the loop has not come back to its timers: the main thread counts the
// worker as fully busy.

import { performance } from 'node:perf_hooks';
import { BUSY, BUSY_SLOTS, BUSY_WINDOW_MS } from '../shared/protocol.js';

export function startBusyMeter(buffer: SharedArrayBuffer, worker: number): void {
  const slots = new Int32Array(buffer, worker * BUSY_SLOTS * 4, BUSY_SLOTS);
  let last = performance.eventLoopUtilization();
  const read = (): void => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    Atomics.store(slots, BUSY.perMille, Math.round(delta.utilization * 1000));
    Atomics.store(slots, BUSY.at, Date.now() % 2 ** 31);
  };
  read();
  // The meter never keeps the thread alive.
  setInterval(read, BUSY_WINDOW_MS).unref();
}
