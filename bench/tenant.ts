// `npm run bench:tenant`: bench/run/tenant.ts alone (the tenant phase of `npm run bench`): search
// QPS through a tenant-bound API key beside the same filter sent with an unscoped key. BENCH_WORKERS
// (default: the core count), BENCH_CONNECTIONS (64), BENCH_SECONDS (5), BENCH_WARMUP_S (1) and
// the BENCH_TENANT_* variables size it. Exits 1 when a key let another tenant's point through.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanups, envInt, runBench, stopAll } from './common.js';
import { tenantConfig, tenantPhase, tenantReport } from './run/tenant.js';

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-tenant-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const load = { connections: envInt('BENCH_CONNECTIONS', 64), seconds: envInt('BENCH_SECONDS', 5), warmupS: envInt('BENCH_WARMUP_S', 1, 0) };
  const f = await tenantPhase(scratch, tenantConfig(envInt('BENCH_WORKERS', availableParallelism()), load));
  await stopAll();
  process.stdout.write(`\n${tenantReport(f).join('\n')}\n`);
  const leaked = f.recall.a.foreign + f.recall.b.foreign;
  if (leaked > 0) throw new Error(`${leaked} points of other tenants returned through rows a and b`);
}

runBench(main, envInt('BENCH_TIMEOUT_S', 600));
