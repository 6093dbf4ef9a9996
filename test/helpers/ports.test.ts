// The test helpers' port picker (ports.ts): vitest workers running at once pick from disjoint
// slices below the kernel's ephemeral range, and one process never hands out a port twice.

import { afterEach, describe, expect, it, vi } from 'vitest';

/** ports.ts loaded afresh as vitest's worker `poolId` would load it. */
async function pickerFor(poolId: string): Promise<typeof import('./ports.js')> {
  vi.resetModules();
  vi.stubEnv('VITEST_POOL_ID', poolId);
  return import('./ports.js');
}

describe('freePort', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('workers 1 to 4 pick from disjoint slices, each below the ephemeral range', async () => {
    const ranges: [number, number][] = [];
    for (const id of ['1', '2', '3', '4']) {
      const ports = await (await pickerFor(id)).freePorts(40);
      ranges.push([Math.min(...ports), Math.max(...ports)]);
      for (const p of ports) expect(p).toBeLessThan(32768);
    }
    for (let i = 0; i < ranges.length; i++) {
      for (let j = i + 1; j < ranges.length; j++) {
        const [a, b] = [ranges[i]!, ranges[j]!];
        expect(a[1] < b[0] || b[1] < a[0], `slices ${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(true);
      }
    }
  });

  it('hands out a port once per process, even when the one before was never bound', async () => {
    const { freePort } = await pickerFor('1');
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) seen.add(await freePort());
    expect(seen.size).toBe(300);
  });
});
