// autocannon (the in-process HTTP load generator of bench:filters, bench:sparse and the
// http-load child) through a small typed interface: a POST run over a set of bodies, and the
// figures the bench reports from its result.

import { createRequire } from 'node:module';

// ---------------------------------------------------------------------------------------------
// autocannon 9 has no bundled types: the minimal surface used here.

export interface AcRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
interface AcClient {
  setRequests(requests: AcRequest[]): void;
}
interface AcHistogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
}
export interface AcResult {
  requests: AcHistogram;
  latency: AcHistogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AcOptions {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  timeout: number;
  requests: AcRequest[];
  setupClient?: (client: AcClient) => void;
}
/** The instance autocannon returns: its 'response' event carries the exact latency in ms. */
interface AcInstance {
  on(event: 'response', fn: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): void;
}
type Autocannon = (opts: AcOptions, cb: (err: Error | null, result: AcResult) => void) => AcInstance;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

/**
 * POSTs the bodies round-robin from `connections` connections (pipelining 1) for `seconds`;
 * `opts.onResponse` sees each response's status and exact latency in ms; `opts.headers` go on
 * every request (an api-key).
 */
export function autocannonRun(
  url: string,
  path: string,
  bodies: string[],
  seconds: number,
  connections: number,
  opts: { onResponse?: (status: number, ms: number) => void; headers?: Record<string, string> } = {},
): Promise<AcResult> {
  const base: AcRequest[] = bodies.map((body) => ({ method: 'POST', path, headers: { 'content-type': 'application/json', ...opts.headers }, body }));
  let nextClient = 0;
  return new Promise<AcResult>((res, rej) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: base,
        // each connection walks the query bodies from its own starting point
        setupClient: (client) => {
          const start = (nextClient++ * 7) % base.length;
          client.setRequests([...base.slice(start), ...base.slice(0, start)].map((r) => ({ ...r })));
        },
      },
      (err, result) => (err ? rej(err) : res(result)),
    );
    const onResponse = opts.onResponse;
    if (onResponse !== undefined) instance.on('response', (_c, status, _b, ms) => onResponse(status, ms));
  });
}

export interface LoadFigures {
  qps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  latencyMs: { p50: number; p90: number; p97_5: number; p99: number; mean: number; max: number };
  durationS: number;
}

export function loadFigures(r: AcResult): LoadFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats)) statusCodes[code] = v.count;
  return {
    qps: r['2xx'] / r.duration,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p97_5: r.latency.p97_5, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    durationS: r.duration,
  };
}
