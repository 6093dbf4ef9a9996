// The fault suite of docs/cluster.md section 10 on nine real processes (3 nats-servers, 3 etcd members,
// 3 Quiver nodes): each scenario's checks are in test/helpers/faults.ts, and its figures go to JSON.
// `npm test` runs the CI subset (1: a node killed, 3: a stream leader killed, 8: everything killed
// and restarted); `npm run test:cluster` runs all of them (QUIVER_FAULTS=all, or a list like 2,5): docs/cluster.md section 10's eight
// and a 9th, the etcd leader frozen.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { etcdMissing } from '../../helpers/etcd.js';
import { runScenario, SCENARIOS } from '../../helpers/faults.js';
import { NATS_SERVER_BIN } from '../../helpers/nats.js';

const CI_SUBSET = [1, 3, 8];

function selected(): number[] {
  const raw = process.env.QUIVER_FAULTS;
  if (raw === undefined || raw === '') return CI_SUBSET;
  if (raw === 'all') return SCENARIOS.map((s) => s.n);
  return raw.split(',').map((x) => Number(x.trim()));
}

const missing = etcdMissing() ?? (spawnSync(NATS_SERVER_BIN, ['--version']).status === 0 ? null : `${NATS_SERVER_BIN} not runnable`);

describe.skipIf(missing !== null)('cluster faults (docs/cluster.md section 10)', () => {
  for (const n of selected()) {
    const sc = SCENARIOS.find((s) => s.n === n);
    if (sc === undefined) throw new Error(`QUIVER_FAULTS names no scenario ${n} (1-${SCENARIOS.length})`);
    // Nine processes start, 20 s of load, recovery and the checks, on a busy 2-core machine.
    it(`scenario ${sc.n}: ${sc.name}`, { timeout: 360_000 }, async () => {
      const figures = await runScenario(sc);
      console.log(`cluster fault scenario ${sc.n}: ${JSON.stringify({ ...figures, replicas: undefined, failures: figures.failures })}`);
      expect(figures.failures).toEqual([]);
    });
  }
});
