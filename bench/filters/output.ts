// The text tables bench/filters.ts prints on stdout from its report.

import type { Case, Report } from './figures.js';

function table(head: string[], rows: string[][], leftCols = 1): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i < leftCols ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}

export function printTables(r: Report): void {
  const f = (v: number, digits = 0): string =>
    Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
  const ms = (v: number): string => f(v, v < 10 ? 2 : 1);
  const p = r.params;
  const out: string[] = [];
  out.push(
    `Quiver filter bench: N=${p.N} dim=${p.dim} Cosine, k=${p.k}, ${p.queries} queries, ${p.fieldType} fields, ${p.seconds} s per load run, ${p.connections} connections`,
  );
  out.push(
    `node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}; ${p.shards} shards, m=${String(p.hnsw.m)} ef_construct=${String(p.hnsw.efConstruct)}, ` +
      `full_scan_threshold=${p.fullScanThreshold}${p.fullScanThresholdSetByBench ? ' (set by BENCH_FULL_SCAN_THRESHOLD)' : ' (server default)'}`,
  );
  out.push('autocannon runs in the bench process on the same machine; other work on the machine makes absolute figures noisy');
  out.push(
    `ingest (points/s): ${Object.entries(r.ingest)
      .map(([n, v]) => `${n} ${f(v.rate)}`)
      .join(', ')}; index build (ms): ${Object.entries(r.indexBuildMs)
      .map(([k, v]) => `${k} ${f(v)}`)
      .join(', ')}`,
  );
  out.push('');

  out.push('plan per filter (candidates per shard vs max(full_scan_threshold, k): at or below -> exact scoring of the candidates, above -> HNSW with the filter)');
  out.push(
    ...table(
      ['filter', 'field', 'matching', 'per shard', 'plan'],
      Object.entries(r.plans).map(([label, pl]) => [label, pl.field, f(pl.matching), pl.perShard.join(' / '), `${pl.kind} (threshold ${pl.threshold})`]),
      2,
    ),
  );
  out.push('');

  const idx = (c: Case): string => (c.indexed ? 'yes' : 'no');
  out.push(`filtered search: POST /points/query limit ${p.k}; recall@10 vs exact filtered brute force; 1-client = sequential requests; load = autocannon ${p.connections} connections`);
  out.push(
    ...table(
      ['filter', 'index', 'recall@10', 'bad/short', '1-client p50 (ms)', 'QPS', 'p50 (ms)', 'p99 (ms)', 'non2xx/err/timeout', 'drain (ms)'],
      r.cases.map((c) => [
        c.filter,
        idx(c),
        f(c.recall, 4),
        `${c.filterViolations}/${c.shortAnswers}`,
        ms(c.sequentialLatencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.qps),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p99),
        c.load === null ? 'n/a' : `${c.load.non2xx}/${c.load.errors}/${c.load.timeouts}`,
        c.drainMs === null ? 'n/a' : f(c.drainMs),
      ]),
      2,
    ),
  );
  out.push('bad/short: results failing the filter / queries answered with fewer than min(k, matching) points');
  out.push('drain: after the load run, time until the server had worked off the requests autocannon left queued (they are not cancelled)');
  out.push('');

  out.push(`count (exact) and scroll (limit ${p.scrollLimit}): latency over ${p.sequentialRequests} sequential requests each`);
  out.push(
    ...table(
      ['filter', 'index', 'matching', 'count p50 (ms)', 'count p99 (ms)', 'scroll p50 (ms)', 'scroll p99 (ms)', 'wrong count/scroll'],
      r.cases.map((c) => [
        c.filter,
        idx(c),
        f(c.matching),
        c.countLatencyMs === null ? 'n/a' : ms(c.countLatencyMs.p50),
        c.countLatencyMs === null ? 'n/a' : ms(c.countLatencyMs.p99),
        c.scrollLatencyMs === null ? 'n/a' : ms(c.scrollLatencyMs.p50),
        c.scrollLatencyMs === null ? 'n/a' : ms(c.scrollLatencyMs.p99),
        `${c.countWrong}/${c.scrollWrong}`,
      ]),
      2,
    ),
  );
  out.push('');
  out.push(
    `server RSS: empty ${(r.memory.rssEmpty / 1048576).toFixed(0)} MiB, after ingest (both collections) ${(r.memory.rssAfterIngest / 1048576).toFixed(0)} MiB, after load ${(r.memory.rssAfterLoad / 1048576).toFixed(0)} MiB; ` +
      `server warnings/errors logged: ${r.serverProblems.length}; stop ${r.serverStop.killed ? 'needed SIGKILL' : `on SIGTERM in ${f(r.serverStop.ms)} ms`}`,
  );
  process.stdout.write(out.join('\n') + '\n');
}
