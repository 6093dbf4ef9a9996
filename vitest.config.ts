import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real servers, etcd and nats-server, and spend about a third of their
    // time waiting on them (leases, restarts, kills); one file more than there are cores keeps the
    // cores busy (on 2 cores: 435 s for the suite against 526-600 s with two files at a time).
    fileParallelism: true,
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
