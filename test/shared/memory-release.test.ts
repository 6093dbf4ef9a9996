// MemoryRelease: a quiet thread whose heap grew by at least the slack since the last collection
// is collected once; a thread that did not grow that much is not; a busy one is never collected
// but trimmed now and then; collectGarbage reaches V8's gc() without --expose-gc on the command
// line.

import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRelease, collectGarbage } from '../../src/shared/memory-release.js';

let release: MemoryRelease | null = null;
afterEach(() => {
  release?.stop();
  release = null;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('MemoryRelease', () => {
  it('collectGarbage reaches gc() (the flag is set at run time), in one pass or two', () => {
    expect(collectGarbage()).toBe(true);
    expect(collectGarbage(1)).toBe(true);
  });

  it('collects once in a quiet period after the heap grew by the slack, then not again without growth', async () => {
    release = new MemoryRelease({ intervalMs: 50, slackBytes: 4 * 1024 * 1024 });
    // 16 MiB kept alive (array buffers count): growth above the slack.
    const kept = Array.from({ length: 16 }, () => new Uint8Array(1024 * 1024).fill(1));
    for (let i = 0; i < 40 && release.collections === 0; i++) await sleep(50);
    expect(release.collections).toBe(1);
    await sleep(300);
    expect(release.collections).toBe(1);
    expect(kept).toHaveLength(16);
  });

  it('does not collect while the growth stays below the slack', async () => {
    release = new MemoryRelease({ intervalMs: 50, slackBytes: 1024 * 1024 * 1024 });
    await sleep(400);
    expect(release.collections).toBe(0);
  });

  it('while busy: no collection, but malloc_trim at most every busyTrimMs', async () => {
    let trims = 0;
    release = new MemoryRelease({ intervalMs: 40, slackBytes: 1, busyTrimMs: 150, trim: () => ++trims > 0 });
    // Busy: the event loop is blocked for most of each check interval, for about 600 ms.
    const end = performance.now() + 600;
    while (performance.now() < end) {
      const until = performance.now() + 35;
      while (performance.now() < until) Math.sqrt(Math.random());
      await sleep(1);
    }
    expect(release.collections).toBe(0);
    expect(release.busyTrims).toBe(trims);
    expect(trims).toBeGreaterThanOrEqual(1);
    expect(trims).toBeLessThanOrEqual(5);
  });

  it('collectSoon collects once whatever the growth', async () => {
    release = new MemoryRelease({ intervalMs: 60_000, slackBytes: 1024 * 1024 * 1024 });
    release.collectSoon(10);
    for (let i = 0; i < 40 && release.collections === 0; i++) await sleep(25);
    expect(release.collections).toBe(1);
  });
});
