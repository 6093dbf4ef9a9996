// The text tables bench/sparse.ts prints on stdout from its report.

import type { Report } from './figures.js';

function table(head: string[], rows: string[][], leftCols = 1): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, i) => (i < leftCols ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}

export function printTables(r: Report): void {
  const f = (v: number, digits = 0): string =>
    Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
  const ms = (v: number): string => f(v, v < 10 ? 2 : 1);
  const mib = (b: number): string => f(b / 1048576);
  const p = r.params;
  const d = r.data;
  const out: string[] = [];
  out.push(
    `Quiver sparse bench: N=${p.N} documents x ${p.nnz} terms over a ${p.vocab}-term vocabulary (Zipf s=${p.zipf}), ${p.queries} queries of ` +
      `${p.qnnz.min}..${p.qnnz.max} terms (mean ${f(p.qnnz.mean, 1)}), k=${p.k}, ${p.seconds} s per load run, ${p.connections} connections`,
  );
  out.push(
    `node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}; ${p.shards} shards; ` +
      `load average at start ${r.env.loadavgStart.map((x) => x.toFixed(2)).join(' ')}, at end ${r.env.loadavgEnd.map((x) => x.toFixed(2)).join(' ')}`,
  );
  out.push('autocannon runs in the bench process on the same machine; other work on the machine makes absolute figures noisy');
  out.push(
    `data: ${f(d.termsUsed)} terms used; commonest term in ${f(d.maxDf)} docs (${f(100 * d.maxDfFraction, 1)}%); ${d.termsInHalfTheDocs} terms in >= 50% of docs; ` +
      `postings walked per query mean ${f(d.postingsPerQuery.mean)} (min ${f(d.postingsPerQuery.min)}, max ${f(d.postingsPerQuery.max)}); ` +
      `docs scored per query mean ${f(d.candidatesPerQuery.mean)} (max ${f(d.candidatesPerQuery.max)}) of ${f(p.N)}`,
  );
  out.push('');

  out.push(`ingest: PUT /collections/{c}/points?wait=true, ${p.batch} points per request, ${p.ingestConcurrency} in flight; RSS = server process VmRSS (main + shard worker threads)`);
  out.push(
    ...table(
      ['collection', 'docs', 'seconds', 'docs/s', 'JSON MiB', 'batch p50 (ms)', 'batch p99 (ms)', 'RSS before (MiB)', 'RSS after (MiB)', 'RSS B/doc'],
      r.ingest.map((g) => [
        g.collection,
        f(g.docs),
        f(g.seconds, 1),
        f(g.rate),
        mib(g.bodyBytes),
        f(g.batchMs.p50),
        f(g.batchMs.p99),
        mib(g.rssBefore),
        mib(g.rssAfter),
        f(g.bytesPerDoc),
      ]),
    ),
  );
  out.push(
    `server RSS empty ${mib(r.memory.rssEmpty)} MiB, after all load runs ${mib(r.memory.rssAfterLoad)} MiB (peak ${mib(r.memory.hwmAfterLoad)} MiB); ` +
      `PATCH to idf took ${f(r.patch.ms)} ms, collection then reports modifier ${String(r.patch.modifierAfter)}`,
  );
  out.push('');

  out.push(
    `search: POST /collections/{c}/points/query; checked = first ${p.checkedQueries} queries vs brute force over all documents (sparse) or vs RRF recomputed ` +
      `from the two legs the server returns alone (hybrid); 1-client = ${p.queries} sequential requests; load = autocannon ${p.connections} connections`,
  );
  out.push(
    ...table(
      ['case', 'checked', 'id mismatch', 'score mismatch', 'ties at cut', '1-client p50 (ms)', '1-client p99 (ms)', 'QPS', 'p50 (ms)', 'p99 (ms)', 'non2xx/err/timeout', 'drain (ms)'],
      r.cases.map((c) => [
        c.name,
        f(c.check.checked),
        f(c.check.idMismatches),
        c.check.scoresCompared ? f(c.check.scoreMismatches) : 'n/a',
        c.check.scoresCompared ? f(c.check.tiesAtCut) : 'n/a',
        ms(c.sequentialLatencyMs.p50),
        ms(c.sequentialLatencyMs.p99),
        c.load === null ? 'n/a' : f(c.load.qps, 1),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p99),
        c.load === null ? 'n/a' : `${c.load.non2xx}/${c.load.errors}/${c.load.timeouts}`,
        c.drainMs === null ? 'n/a' : f(c.drainMs),
      ]),
    ),
  );
  for (const c of r.cases) out.push(`  ${c.name}: ${c.description}`);
  const h = r.cases.find((c) => c.sparseLeg !== null);
  if (h?.sparseLeg) {
    out.push(
      `  hybrid legs: sparse leg (limit ${p.prefetchLimit}) vs brute force: ${h.sparseLeg.checked} checked, ${h.sparseLeg.idMismatches} id mismatches, ` +
        `${h.sparseLeg.scoreMismatches} score mismatches, ${h.sparseLeg.tiesAtCut} ties at the cut; dense leg (HNSW) recall@${p.prefetchLimit} ${f(h.denseLegRecall ?? Number.NaN, 4)}`,
    );
    if (h.legLatencyMs !== null) {
      const l = h.legLatencyMs;
      out.push(
        `  hybrid legs sent alone, 1-client over ${h.sparseLeg.checked} queries: dense p50 ${ms(l.dense.p50)} / p99 ${ms(l.dense.p99)} ms, ` +
          `sparse p50 ${ms(l.sparse.p50)} / p99 ${ms(l.sparse.p99)} ms`,
      );
    }
  }
  out.push(
    `server warnings/errors logged: ${r.serverProblems.length}; stop ${r.serverStop.killed ? 'needed SIGKILL' : `on SIGTERM in ${f(r.serverStop.ms)} ms (code ${String(r.serverStop.code)})`}`,
  );
  process.stdout.write(out.join('\n') + '\n');
}
