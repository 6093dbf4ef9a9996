// bench/run.ts's query-kinds phase (issue 28): each Query API kind on the bench's data (BENCH_N x
// BENCH_DIM Euclid points around clustered centroids), recall@10 against exact answers computed
// here (ties counted: a point scoring at least the exact 10th is a hit) and peak QPS through /points/query, beside the nearest query at the same ef
// (BENCH_LATENCY_EF) in the same server. Examples are points of the data, picked per query from
// its exact neighbours (what a user who liked them would send): recommend by two positives and a
// negative (each strategy), discover (a target and a pair), context (two pairs), relevance feedback
// (a target and three scored examples); the distance matrix (sample 100, limit 10): QPS only;
// and the ColBERT recipe on multivectors (multivector.ts).

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { progress } from '../common.js';
import { createCollection } from '../lib/client.js';
import { rowOf, toFloat32 } from '../lib/dataset.js';
import { httpLoad } from '../lib/load.js';
import { startQuiver, stopQuiver, type Quiver } from '../lib/server.js';
import { CFG, COLLECTION } from './config.js';
import { multivectorPhase, multivectorReport, type MultivectorFigures } from './multivector.js';
import { ingestMeasured, type Ctx } from './context.js';

export interface KindResult {
  kind: string;
  /** recall@10 against the exact answer (null: not measured, e.g. the matrix) */
  recall: number | null;
  qps: number;
  /** requests of the QPS run that failed, and the first failure */
  failed: number;
  firstError: string | null;
}

export interface KindsFigures {
  n: number;
  dim: number;
  ef: number;
  queries: number;
  results: KindResult[];
  multivector: MultivectorFigures;
}

type Pick = (i: number) => { body: Record<string, unknown>; score: ((row: Float32Array, off: number) => number) | null; exclude: number[] };

/** Qdrant's similarity for Euclid inside custom scores: the negated squared distance. */
function negSq(data: Float32Array, a: number, b: Float32Array, bOff: number, dim: number): number {
  let s = 0;
  for (let d = 0; d < dim; d++) {
    const x = data[a * dim + d]! - b[bOff + d]!;
    s += x * x;
  }
  return -s;
}

const sig = (x: number): number => 0.5 * (x / (1 + Math.abs(x)) + 1);

/**
 * The exact top 10 ids by `score` (higher first), `exclude` left out, and the 10th score: a
 * point scoring at least that is as right as any (context ties many points at 0).
 */
function exactTop(data: Float32Array, n: number, dim: number, score: (row: Float32Array, off: number) => number, exclude: number[]): { ids: number[]; kth: number } {
  const top: { id: number; s: number }[] = [];
  for (let id = 0; id < n; id++) {
    if (exclude.includes(id)) continue;
    const s = score(data, id * dim);
    if (top.length < CFG.k || s > top[top.length - 1]!.s) {
      top.push({ id, s });
      top.sort((a, b) => b.s - a.s);
      if (top.length > CFG.k) top.pop();
    }
  }
  return { ids: top.map((t) => t.id), kth: top[top.length - 1]?.s ?? -Infinity };
}

export async function kindsPhase(ctx: Ctx): Promise<KindsFigures> {
  const { dim, n } = { dim: CFG.dim, n: CFG.n };
  const nq = Math.min(CFG.queries, 50);
  const data = toFloat32(ctx.ds.points);
  const ef = CFG.latencyEf;
  const t = ctx.truth;
  const sim = (a: number) => (row: Float32Array, off: number) => negSq(data, a, row, off, dim);
  const other = (i: number, j: number) => t[(i + 17 * j) % t.length]![5]!;
  const kinds: Record<string, Pick> = {
    nearest: (i) => ({ body: { query: rowOf(ctx.ds.queries, i, dim) }, score: null, exclude: [] }),
    'recommend average_vector': (i) => ({ body: { query: { recommend: { positive: [t[i]![0], t[i]![1]], negative: [other(i, 1)] } } }, score: null, exclude: [t[i]![0]!, t[i]![1]!, other(i, 1)] }),
    'recommend best_score': (i) => {
      const [p1, p2, ng] = [t[i]![0]!, t[i]![1]!, other(i, 1)];
      return {
        body: { query: { recommend: { positive: [p1, p2], negative: [ng], strategy: 'best_score' } } },
        score: (row, off) => {
          const p = Math.max(sim(p1)(row, off), sim(p2)(row, off));
          const q = sim(ng)(row, off);
          return p > q ? sig(p) : -sig(q);
        },
        exclude: [p1, p2, ng],
      };
    },
    'recommend sum_scores': (i) => {
      const [p1, p2, ng] = [t[i]![0]!, t[i]![1]!, other(i, 1)];
      return { body: { query: { recommend: { positive: [p1, p2], negative: [ng], strategy: 'sum_scores' } } }, score: (row, off) => sim(p1)(row, off) + sim(p2)(row, off) - sim(ng)(row, off), exclude: [p1, p2, ng] };
    },
    discover: (i) => {
      const [tg, pos, ng] = [t[i]![0]!, t[i]![1]!, other(i, 1)];
      return {
        body: { query: { discover: { target: tg, context: [{ positive: pos, negative: ng }] } } },
        score: (row, off) => Math.sign(sim(pos)(row, off) - sim(ng)(row, off)) + sig(sim(tg)(row, off)),
        exclude: [tg, pos, ng],
      };
    },
    context: (i) => {
      const [p1, n1, p2, n2] = [t[i]![0]!, other(i, 1), t[i]![1]!, other(i, 2)];
      const loss = (p: number, q: number, row: Float32Array, off: number) => {
        const d = Math.min(sim(p)(row, off) - sim(q)(row, off) - 2 ** -23, 0);
        return d / (1 + Math.abs(d));
      };
      return {
        body: { query: { context: [{ positive: p1, negative: n1 }, { positive: p2, negative: n2 }] } },
        score: (row, off) => loss(p1, n1, row, off) + loss(p2, n2, row, off),
        exclude: [p1, n1, p2, n2],
      };
    },
    'relevance_feedback naive': (i) => {
      const [tg, e1, e2] = [t[i]![0]!, t[i]![1]!, other(i, 1)];
      return {
        body: { query: { relevance_feedback: { target: tg, feedback: [{ example: e1, score: 0.9 }, { example: e2, score: 0.1 }], strategy: { naive: { a: 1, b: 1, c: 1 } } } } },
        score: (row, off) => sim(tg)(row, off) + 0.8 * (sim(e1)(row, off) - sim(e2)(row, off)),
        exclude: [tg, e1, e2],
      };
    },
  };

  const dir = mkdtempSync(join(ctx.scratch, 'kinds-'));
  let q: Quiver = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  const results: KindResult[] = [];
  try {
    await createCollection(q.url, COLLECTION, dim, CFG.m, CFG.efConstruct, {});
    await ingestMeasured(q, COLLECTION, ctx);
    await stopQuiver(q);
    // measured on a server that loaded its data dir at start, as the sweeps are
    q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
    const path = `/collections/${COLLECTION}/points/query`;
    for (const [kind, pick] of Object.entries(kinds)) {
      const picks = Array.from({ length: nq }, (_, i) => pick(i));
      const bodies = picks.map((p) => JSON.stringify({ ...p.body, limit: CFG.k, params: { hnsw_ef: ef } }));
      // recall@10, ties counted: a point found scores at least the exact 10th best
      let hit = 0;
      for (let i = 0; i < nq; i++) {
        const res = (await (await fetch(q.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[i]! })).json()) as { result: { points: { id: number }[] } };
        const got = res.result.points.map((p) => p.id);
        const pk = picks[i]!;
        if (kind === 'nearest') {
          hit += got.filter((id) => t[i]!.slice(0, CFG.k).includes(id)).length;
          continue;
        }
        const score = pk.score ?? averageScore(data, dim, pk.exclude);
        const { kth } = exactTop(data, n, dim, score, pk.exclude);
        hit += got.filter((id) => score(data, id * dim) >= kth - 1e-6 * Math.abs(kth)).length;
      }
      const recall = hit / (nq * CFG.k);
      const m = await httpLoad({ url: q.url, path, bodies, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null }, ctx.scratch, { pid: q.pid, tidFile: q.tidFile });
      progress(`  ${kind}: recall@10 ${recall.toFixed(3)}, ${m.load.qps.toFixed(0)} QPS${m.load.failed > 0 ? `, ${m.load.failed} failed: ${m.load.firstError}` : ''}`);
      results.push({ kind, recall, qps: m.load.qps, failed: m.load.failed, firstError: m.load.firstError });
    }
    const matrixBody = JSON.stringify({ sample: 100, limit: 10 });
    const m = await httpLoad(
      { url: q.url, path: `/collections/${COLLECTION}/points/search/matrix/pairs`, bodies: [matrixBody], connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null },
      ctx.scratch,
      { pid: q.pid, tidFile: q.tidFile },
    );
    progress(`  matrix pairs (sample 100, limit 10): ${m.load.qps.toFixed(0)} QPS${m.load.failed > 0 ? `, ${m.load.failed} failed: ${m.load.firstError}` : ''}`);
    results.push({ kind: 'matrix pairs sample 100 limit 10', recall: null, qps: m.load.qps, failed: m.load.failed, firstError: m.load.firstError });
    const multivector = await multivectorPhase(q.url, { pid: q.pid, tidFile: q.tidFile }, ctx.scratch);
    return { n, dim, ef, queries: nq, results, multivector };
  } finally {
    await stopQuiver(q);
  }
}

/** average_vector's score: closeness (Euclid) to 2 mean(positives) - mean(negatives); exclude = [p1, p2, negative]. */
function averageScore(data: Float32Array, dim: number, exclude: number[]): (row: Float32Array, off: number) => number {
  const [p1, p2, ng] = exclude as [number, number, number];
  const v = new Float32Array(dim);
  for (let d = 0; d < dim; d++) {
    const p = (data[p1 * dim + d]! + data[p2 * dim + d]!) / 2;
    v[d] = p + (p - data[ng * dim + d]!);
  }
  return (row, off) => negSq(row, off / dim, v, 0, dim);
}

/** The phase's table. */
export function kindsReport(f: KindsFigures): string[] {
  const base = f.results.find((r) => r.kind === 'nearest')?.qps ?? 0;
  const out = [`Query kinds (${f.n} x ${f.dim} Euclid, clustered; ef ${f.ef}; recall@10 over ${f.queries} queries against exact answers; QPS through /points/query)`];
  out.push('| kind | recall@10 | QPS | QPS / nearest | failed |', '| --- | --- | --- | --- | --- |');
  for (const r of f.results) out.push(`| ${r.kind} | ${r.recall === null ? '-' : r.recall.toFixed(3)} | ${r.qps.toFixed(0)} | ${base > 0 ? (r.qps / base).toFixed(2) : '-'} | ${r.failed > 0 ? `${r.failed}: ${r.firstError}` : 0} |`);
  out.push('', ...multivectorReport(f.multivector));
  return out;
}
