// `npm run bench:responses`: bench/run/responses.ts alone (the responses phase of `npm run bench`),
// BENCH_WORKERS workers (default: the core count). BENCH_RESP_N, BENCH_RESP_DIM, BENCH_RESP_RUNS
// and BENCH_RESP_SHARDS size it.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanups, envInt, runBench, stopAll } from './common.js';
import { responsesConfig, responsesPhase, responsesReport } from './run/responses.js';

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-responses-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const figures = await responsesPhase(scratch, responsesConfig(envInt('BENCH_WORKERS', availableParallelism())));
  await stopAll();
  process.stdout.write(`\n${responsesReport(figures).join('\n')}\n`);
}

runBench(main, envInt('BENCH_TIMEOUT_S', 600));
