// Load-generator child for REST: autocannon, in a process of its own so its CPU is not the
// bench's. Warm-up, then the measured window at `connections` (pipelining 1), or at a fixed
// overall rate. Latency is taken exactly from autocannon's 'response' events (its own histogram
// rounds to whole milliseconds).

import { autocannonRun, loadFigures } from '../common.js';
import { announceMeasuring, readConfig, reportResult, summarize, type LoadResult } from './child-io.js';

export interface HttpLoadConfig {
  url: string;
  path: string;
  bodies: string[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
  overallRate: number | null;
}

async function main(): Promise<void> {
  const c = readConfig<HttpLoadConfig>();
  const rate = c.overallRate === null ? {} : { overallRate: Math.max(1, Math.round(c.overallRate)) };
  if (c.warmupSeconds > 0) await autocannonRun(c.url, c.path, c.bodies, c.warmupSeconds, c.connections, rate);
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  announceMeasuring();
  const r = await autocannonRun(c.url, c.path, c.bodies, c.seconds, c.connections, {
    ...rate,
    onResponse: (status, ms) => {
      if (status >= 200 && status < 300) lat.push(ms);
    },
  });
  const cpu = process.cpuUsage(cpu0);
  const f = loadFigures(r);
  const failed = f.non2xx + f.errors + f.timeouts;
  const result: LoadResult = {
    generator: 'autocannon',
    ok: f.ok,
    failed,
    durationS: f.durationS,
    qps: f.qps,
    latencyMs: summarize(lat),
    targetRate: c.overallRate,
    clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, f.ok),
    firstError: failed > 0 ? `non-2xx ${f.non2xx}, errors ${f.errors}, timeouts ${f.timeouts}` : null,
    statusCodes: f.statusCodes,
  };
  reportResult(result);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`http load child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
