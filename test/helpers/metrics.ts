// Reads Prometheus text exposition (GET /metrics) in tests.

/** The sample `name{labels}` of a scrape, or undefined when absent. Label order does not matter. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(got).length && wanted.every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetch(`${baseUrl}/metrics`, { headers });
  if (r.status !== 200) throw new Error(`GET /metrics answered ${r.status}: ${await r.text()}`);
  return r.text();
}

/** Worker restarts over all workers, from a scrape (the counter has one series per worker). */
export function workerRestarts(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^quiver_worker_restarts_total\{worker="\d+"\} (\S+)$/.exec(line);
    if (m !== null) total += Number(m[1]);
  }
  return total;
}
