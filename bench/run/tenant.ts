// What a tenant-bound API key costs a search (issue 31), as a phase of `npm run bench` and alone
// as `npm run bench:tenant`. A fresh server; n x dim clustered points (bench/lib/dataset.ts),
// Cosine, each with payload `tenant` over `tenants` tenants of Zipf sizes (bench/lib/tenants.ts),
// a keyword index on it with is_tenant. Then auth on (admin, login, PATCH /auth/enabled), an
// unscoped read key and a read key bound to tenant t<bound> by filter. Three load rows, each at
// the same connections and seconds, alternating over `rounds`:
//   a: the unscoped key, the tenant filter sent by the client;
//   b: the bound key, no filter (the server ANDs the key's filter in);
//   c: the unscoped key, no filter (the baseline: the whole collection).
// QPS, p50/p99, the server's CPU per search by thread group, and b/a. Recall@10 of every query
// for a and b against exact cosine top-10 among the tenant's points (c: among all), and any point
// of another tenant that a or b returned, which is a failure.

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { callOk, envInt, progress } from '../common.js';
import { Batches, ingest, searchAll, untilIndexed } from '../lib/client.js';
import { makeDataset, rowOf } from '../lib/dataset.js';
import { httpLoad } from '../lib/load.js';
import type { CpuPerRequest } from '../lib/proc.js';
import { fmt, table } from '../lib/report-format.js';
import { bruteForce } from '../lib/seeded-data.js';
import { startQuiver, stopQuiver } from '../lib/server.js';
import { assignTenants, checkAnswers, idsOfTenant, unitRows, type TenantCheck } from '../lib/tenants.js';

export interface TenantConfig {
  n: number;
  dim: number;
  queries: number;
  tenants: number;
  /** the tenant the bound key (and row a's filter) is for */
  bound: number;
  ef: number;
  rounds: number;
  workers: number;
  connections: number;
  seconds: number;
  warmupS: number;
}

export function tenantConfig(workers: number, load: { connections: number; seconds: number; warmupS: number }): TenantConfig {
  return {
    n: envInt('BENCH_TENANT_N', 20_000),
    dim: envInt('BENCH_TENANT_DIM', 128),
    queries: envInt('BENCH_TENANT_QUERIES', 200),
    tenants: envInt('BENCH_TENANT_COUNT', 20),
    bound: envInt('BENCH_TENANT_BOUND', 3, 0),
    ef: envInt('BENCH_TENANT_EF', 64),
    rounds: envInt('BENCH_TENANT_ROUNDS', 3),
    workers,
    ...load,
  };
}

export type RowKey = 'a' | 'b' | 'c';
export const ROWS: Record<RowKey, string> = {
  a: 'unscoped key + client filter',
  b: 'bound key, no filter',
  c: 'unscoped key, no filter',
};

export interface TenantRun {
  round: number;
  row: RowKey;
  generator: string;
  ok: number;
  durationS: number;
  qps: number;
  p50: number;
  p99: number;
  failed: number;
  firstError: string | null;
  cpu: CpuPerRequest;
}

export interface TenantFigures {
  config: TenantConfig;
  tenantSizes: number[];
  ingestRate: number;
  runs: TenantRun[];
  recall: Record<RowKey, TenantCheck>;
  /** QPS over all rounds (ok / seconds) per row, and b over a */
  qps: Record<RowKey, number>;
  ratioBA: number;
}

const NAME = 'tenant';
const PASSWORD = 'Bench-Tenant-31';

export async function tenantPhase(scratch: string, c: TenantConfig): Promise<TenantFigures> {
  if (c.bound >= c.tenants) throw new Error(`BENCH_TENANT_BOUND ${c.bound} is not below BENCH_TENANT_COUNT ${c.tenants}`);
  const ds = makeDataset({ n: c.n, queries: c.queries, dim: c.dim, clusters: 50, sigma: 0.3, seed: 31 });
  const tenantOf = assignTenants(c.n, c.tenants, 3101);
  const tenantSizes = Array.from({ length: c.tenants }, () => 0);
  for (const t of tenantOf) tenantSizes[t]!++;
  const boundIds = idsOfTenant(tenantOf, c.bound);
  const t0 = performance.now();
  const data = unitRows(ds.points, c.n, c.dim);
  const qs = unitRows(ds.queries, c.queries, c.dim);
  const truthTenant = bruteForce(data, qs, c.queries, c.dim, 10, boundIds);
  const truthAll = bruteForce(data, qs, c.queries, c.dim, 10, c.n);
  progress(`tenant: ${c.n} x ${c.dim} Cosine, ${c.tenants} tenants (t${c.bound}: ${boundIds.length} points), exact truth in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const q = await startQuiver({ dataDir: mkdtempSync(join(scratch, 'tenant-')), workers: c.workers, scratch });
  try {
    await callOk(q.url, 'PUT', `/collections/${NAME}`, JSON.stringify({ vectors: { size: c.dim, distance: 'Cosine' } }));
    await callOk(q.url, 'PUT', `/collections/${NAME}/index?wait=true`, JSON.stringify({ field_name: 'tenant', field_schema: { type: 'keyword', is_tenant: true } }));
    const ing = await ingest(q.url, NAME, new Batches(ds, 1000, (i) => `{"tenant":"t${tenantOf[i]}"}`), 4);
    // a graph still building would share the cores with the first rows measured
    const builtMs = await untilIndexed(q.url, NAME, c.n, 'tenant');
    progress(`  ingest ${ing.points} points in ${ing.seconds.toFixed(1)} s, graph built ${(builtMs / 1000).toFixed(1)} s later`);

    await callOk(q.url, 'POST', '/auth/admin', JSON.stringify({ password: PASSWORD }));
    const { token } = (await callOk(q.url, 'POST', '/auth/login', JSON.stringify({ username: 'admin', password: PASSWORD }))) as { token: string };
    const admin = { authorization: `Bearer ${token}` };
    await callOk(q.url, 'PATCH', '/auth/enabled', JSON.stringify({ enabled: true }), admin);
    const filter = { must: [{ key: 'tenant', match: { value: `t${c.bound}` } }] };
    const key = async (body: Record<string, unknown>): Promise<Record<string, string>> => ({
      'api-key': ((await callOk(q.url, 'POST', '/auth/api_key', JSON.stringify(body), admin)) as { api_key: string }).api_key,
    });
    const unscoped = await key({ name: 'bench-read', permission: 'read' });
    const bound = await key({ name: `bench-t${c.bound}`, scope: [{ collection: NAME, permission: 'read', filter }] });
    // auth is on: a search without a key must be refused, or the rows measure nothing
    const anon = await fetch(`${q.url}/collections/${NAME}/points/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"vector":[1],"limit":1}' });
    if (anon.status !== 401 && anon.status !== 403) throw new Error(`a search without a key answered ${anon.status}: auth is not on`);

    const rows = Array.from({ length: c.queries }, (_, i) => rowOf(ds.queries, i, c.dim));
    const body = (v: number[], f: unknown): string => JSON.stringify({ vector: v, limit: 10, params: { hnsw_ef: c.ef }, ...(f === null ? {} : { filter: f }) });
    const plan: Record<RowKey, { bodies: string[]; headers: Record<string, string> }> = {
      a: { bodies: rows.map((v) => body(v, filter)), headers: unscoped },
      b: { bodies: rows.map((v) => body(v, null)), headers: bound },
      c: { bodies: rows.map((v) => body(v, null)), headers: unscoped },
    };
    const check = async (r: RowKey): Promise<TenantCheck> => {
      const found = await searchAll(q.url, NAME, plan[r].bodies, 8, plan[r].headers);
      return checkAnswers(found, r === 'c' ? truthAll : truthTenant, tenantOf, r === 'c' ? null : c.bound);
    };
    const recall = { a: await check('a'), b: await check('b'), c: await check('c') };
    for (const r of ['a', 'b', 'c'] as const) {
      const k = recall[r];
      progress(`  ${r} (${ROWS[r]}): recall@10 ${k.recall.toFixed(4)}, other tenants' points ${k.foreign}${k.short > 0 ? `, ${k.short} short answers` : ''}`);
    }

    const runs: TenantRun[] = [];
    for (let round = 1; round <= c.rounds; round++) {
      // alternate the order so drift over the run does not favour one row
      for (const r of round % 2 === 1 ? (['a', 'b', 'c'] as const) : (['c', 'b', 'a'] as const)) {
        const m = await httpLoad(
          { url: q.url, path: `/collections/${NAME}/points/search`, bodies: plan[r].bodies, headers: plan[r].headers, connections: c.connections, seconds: c.seconds, warmupSeconds: c.warmupS, overallRate: null },
          scratch,
          { pid: q.pid, tidFile: q.tidFile },
        );
        const l = m.load;
        runs.push({ round, row: r, generator: l.generator, ok: l.ok, durationS: l.durationS, qps: l.qps, p50: l.latencyMs.p50, p99: l.latencyMs.p99, failed: l.failed, firstError: l.firstError, cpu: m.serverCpu });
        progress(`  round ${round} ${r}: ${l.qps.toFixed(0)} QPS, p50 ${l.latencyMs.p50.toFixed(2)} ms, p99 ${l.latencyMs.p99.toFixed(2)} ms${l.failed > 0 ? `, ${l.failed} failed: ${l.firstError}` : ''}`);
      }
    }
    const qps = {} as Record<RowKey, number>;
    for (const r of ['a', 'b', 'c'] as const) {
      const mine = runs.filter((x) => x.row === r);
      qps[r] = mine.reduce((s, x) => s + x.ok, 0) / Math.max(1e-9, mine.reduce((s, x) => s + x.durationS, 0));
    }
    return { config: c, tenantSizes, ingestRate: ing.rate, runs, recall, qps, ratioBA: qps.b / qps.a };
  } finally {
    await stopQuiver(q);
  }
}

/** The phase's tables. */
export function tenantReport(f: TenantFigures): string[] {
  const c = f.config;
  const out = [
    `Tenant-bound API key beside the client's own filter (issue 31): ${fmt(c.n)} x ${c.dim} Cosine, clustered, ${c.tenants} tenants of Zipf sizes (${f.tenantSizes.join(' ')}), keyword index is_tenant; bound to t${c.bound} (${f.tenantSizes[c.bound]} points); ${c.workers} workers, ef ${c.ef}, ${c.connections} connections, ${c.seconds} s (+${c.warmupS} s warm-up) a run, ${c.rounds} rounds; ${f.runs[0]?.generator ?? '?'}`,
    'CPU: server ms per search from /proc (main thread, JS workers, other threads, whole process)',
  ];
  const rows = f.runs.map((r) => [String(r.round), `${r.row}: ${ROWS[r.row]}`, fmt(r.qps), fmt(r.p50, 2), fmt(r.p99, 2), fmt(r.cpu.mainMs, 3), fmt(r.cpu.workersMs, 3), fmt(r.cpu.otherMs, 3), fmt(r.cpu.totalMs, 3), r.failed > 0 ? `${r.failed}: ${r.firstError}` : '0']);
  out.push(...table(['round', 'row', 'QPS', 'p50 ms', 'p99 ms', 'main', 'workers', 'other', 'total', 'failed'], rows));
  out.push(
    '',
    `QPS over all rounds: a ${fmt(f.qps.a)}, b ${fmt(f.qps.b)}, c ${fmt(f.qps.c)}; b / a ${f.ratioBA.toFixed(3)}; a / c ${(f.qps.a / f.qps.c).toFixed(3)}`,
    '',
  );
  const rec = (['a', 'b', 'c'] as const).map((r) => {
    const k = f.recall[r];
    const against = r === 'c' ? 'all points' : `t${c.bound}'s points`;
    const foreign = r === 'c' ? '-' : k.foreign === 0 ? '0' : `${k.foreign} FAIL (e.g. ${k.foreignIds.join(', ')})`;
    return [`${r}: ${ROWS[r]}`, against, fmt(k.recall, 4), foreign, String(k.short)];
  });
  out.push(...table([`row (${c.queries} queries)`, 'exact top-10 among', 'recall@10', "other tenants' points", 'short answers'], rec));
  return out;
}
