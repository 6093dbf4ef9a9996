// The order test files start in. Vitest orders files by their last durations when its cache holds
// them, else by size; a clean clone (CI) has no cache, and the longest files are short ones that
// drive real clusters, so they started last and ran alone at the end (the fault suite: 84 s alone
// of a 450 s run). The files known to take longest start first, longest first; the rest keep
// Vitest's order. A name missing here only costs time.

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest files, longest first (`npx vitest run --reporter=json`, on 2 cores: 30-110 s each). */
const LONGEST = [
  'test/main/cluster/faults.workers.test.ts',
  'test/main/auth-matrix.workers.test.ts',
  'test/main/cluster/startup.workers.test.ts',
  'test/main/cluster/watch-guard.test.ts',
  'test/main/cluster/paused-leader.test.ts',
  'test/main/cluster/peer-changes.workers.test.ts',
  'test/workers/cluster/other-log.test.ts',
  'test/main/cluster/frozen-etcd-leader.test.ts',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? LONGEST.length : i;
    };
    // Array#sort is stable: the unlisted files keep Vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
