import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real servers, etcd and nats-server, and spend about a third of their
    // time waiting on them (leases, restarts, kills); two files more than there are cores keep the
    // cores busy. On 2 cores, the suite: 526-600 s with two files at a time, 431-448 s with three
    // (the cores 13% idle), 390 s with four (about 3% idle).
    fileParallelism: true,
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
