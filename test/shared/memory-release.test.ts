// MemoryRelease: a quiet thread whose heap grew by at least the slack since the last collection
// is collected once; a thread that did not grow that much is not; collectGarbage reaches V8's
// gc() without --expose-gc on the command line.

import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRelease, collectGarbage } from '../../src/shared/memory-release.js';

let release: MemoryRelease | null = null;
afterEach(() => {
  release?.stop();
  release = null;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('MemoryRelease', () => {
  it('collectGarbage reaches gc() (the flag is set at run time)', () => {
    expect(collectGarbage()).toBe(true);
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

  it('collectSoon collects once whatever the growth', async () => {
    release = new MemoryRelease({ intervalMs: 60_000, slackBytes: 1024 * 1024 * 1024 });
    release.collectSoon(10);
    for (let i = 0; i < 40 && release.collections === 0; i++) await sleep(25);
    expect(release.collections).toBe(1);
  });
});
