// Load-generator child for REST, in a process of its own so its CPU is not the bench's.
// Peak runs: autocannon at `connections` (pipelining 1); latency is taken exactly from its
// 'response' events (its own histogram rounds to whole milliseconds).
// Fixed-rate runs: not autocannon, whose per-connection rate limit releases each second's quota
// at the start of the second (bursts at the peak rate, then idle), but a paced open loop over
// node:http with `connections` keep-alive sockets: request i is due at start + i / rate, and its
// latency counts from when it was due, so time spent queued for a socket is counted too
// (no coordinated omission).

import { Agent, request } from 'node:http';
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
  /** sent on every request besides content-type (an api-key) */
  headers?: Record<string, string>;
}

/** Sends at `rate` per second for `seconds`; resolves with the latencies (ms from when each was due). */
function paced(c: HttpLoadConfig, agent: Agent, rate: number, seconds: number, lat: number[] | null): Promise<{ ok: number; failed: number; firstError: string | null; statusCodes: Record<string, number> }> {
  const url = new URL(c.url);
  const bodies = c.bodies.map((b) => Buffer.from(b));
  const total = Math.max(1, Math.round(rate * seconds));
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  let done = 0;
  let sent = 0;
  let firstError: string | null = null;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const finish = (): void => {
      if (++done === total) resolve({ ok, failed, firstError, statusCodes });
    };
    const send = (i: number): void => {
      const due = t0 + (i * 1000) / rate;
      const body = bodies[i % bodies.length]!;
      const req = request(
        { host: url.hostname, port: url.port, path: c.path, method: 'POST', agent, headers: { ...c.headers, 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          res.resume();
          res.once('end', () => {
            const code = String(res.statusCode ?? 0);
            statusCodes[code] = (statusCodes[code] ?? 0) + 1;
            if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) {
              ok++;
              lat?.push(performance.now() - due);
            } else {
              failed++;
              firstError ??= `status ${code}`;
            }
            finish();
          });
        },
      );
      req.once('error', (e) => {
        failed++;
        firstError ??= e.message;
        finish();
      });
      req.end(body);
    };
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

async function pacedRun(c: HttpLoadConfig, rate: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: c.connections });
  if (c.warmupSeconds > 0) await paced(c, agent, rate, c.warmupSeconds, null);
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  announceMeasuring();
  const r = await paced(c, agent, rate, c.seconds, lat);
  const durationS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  return {
    generator: 'paced node:http',
    ok: r.ok,
    failed: r.failed,
    durationS,
    qps: r.ok / durationS,
    latencyMs: summarize(lat),
    targetRate: rate,
    clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, r.ok),
    firstError: r.firstError,
    statusCodes: r.statusCodes,
  };
}

async function main(): Promise<void> {
  const c = readConfig<HttpLoadConfig>();
  if (c.overallRate !== null) {
    reportResult(await pacedRun(c, Math.max(1, c.overallRate)));
    return;
  }
  if (c.warmupSeconds > 0) await autocannonRun(c.url, c.path, c.bodies, c.warmupSeconds, c.connections, { headers: c.headers ?? {} });
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  announceMeasuring();
  const r = await autocannonRun(c.url, c.path, c.bodies, c.seconds, c.connections, {
    headers: c.headers ?? {},
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
    targetRate: null,
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
