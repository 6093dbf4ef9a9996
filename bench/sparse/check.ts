// Checking bench/sparse.ts's answers: the scored points of a query answer, compared with the
// expected ranking (ids in order, and scores where they are known), mismatches kept as examples.

import { progress } from '../common.js';
import type { Ranked } from './data.js';

interface QueryResponse {
  result?: { points?: unknown };
}
export function rankedOf(json: unknown, where: string): Ranked {
  const points = (json as QueryResponse).result?.points;
  if (!Array.isArray(points)) throw new Error(`${where}: expected result.points, got ${JSON.stringify(json).slice(0, 300)}`);
  const ids: number[] = [];
  const scores: number[] = [];
  for (const p of points as unknown[]) {
    const { id, score } = p as { id?: unknown; score?: unknown };
    if (typeof id !== 'number' || typeof score !== 'number') throw new Error(`${where}: bad scored point ${JSON.stringify(p).slice(0, 200)}`);
    ids.push(id);
    scores.push(score);
  }
  return { ids, scores };
}

interface Mismatch {
  query: number;
  expected: { id: number; score: number }[];
  got: { id: number; score: number }[];
}

/** Result of checking one case's answers against the expected lists. */
export interface Check {
  checked: number;
  /** False when only ids are compared (the hybrid's fused list: the expected one has no scores). */
  scoresCompared: boolean;
  /** Queries whose ids (in order) differ from the expected ones. */
  idMismatches: number;
  /** Queries with the right ids whose scores differ. */
  scoreMismatches: number;
  maxScoreRelDiff: number;
  /** Queries where the expected k-th and (k+1)-th scores tie (the cut could legitimately differ). */
  tiesAtCut: number;
  examples: Mismatch[];
}

export function newCheck(scoresCompared = true): Check {
  return { checked: 0, scoresCompared, idMismatches: 0, scoreMismatches: 0, maxScoreRelDiff: 0, tiesAtCut: 0, examples: [] };
}

/** Compares an answer with the first `k` of `truth` (which is ranked one deeper, for ties). */
export function checkAnswer(c: Check, q: number, got: Ranked, truth: Ranked, k: number): void {
  const compareScores = c.scoresCompared;
  c.checked++;
  const want: Ranked = { ids: truth.ids.slice(0, k), scores: truth.scores.slice(0, k) };
  if (truth.scores.length > k && truth.scores[k] === truth.scores[k - 1]) c.tiesAtCut++;
  const sameIds = got.ids.length === want.ids.length && got.ids.every((id, i) => id === want.ids[i]);
  let rel = 0;
  if (sameIds && compareScores) {
    for (let i = 0; i < want.scores.length; i++) {
      const d = Math.abs(got.scores[i]! - want.scores[i]!) / Math.max(Math.abs(want.scores[i]!), 1e-30);
      if (d > rel) rel = d;
    }
    if (rel > c.maxScoreRelDiff) c.maxScoreRelDiff = rel;
    if (rel > 0) c.scoreMismatches++;
  }
  if (!sameIds || rel > 0) {
    if (!sameIds) c.idMismatches++;
    if (c.examples.length < 5) {
      const pairs = (r: Ranked): { id: number; score: number }[] => r.ids.map((id, i) => ({ id, score: r.scores[i]! }));
      c.examples.push({ query: q, expected: pairs(want), got: pairs(got) });
    }
  }
}

export function reportCheck(name: string, c: Check): void {
  progress(
    `${name}: ${c.checked} checked, ${c.idMismatches} id mismatches` +
      (c.scoresCompared
        ? `, ${c.scoreMismatches} score mismatches (max rel diff ${c.maxScoreRelDiff.toExponential(2)}), ${c.tiesAtCut} ties at the cut`
        : ' (ids only)'),
  );
  for (const e of c.examples) {
    progress(`  query ${e.query}: expected ${e.expected.map((p) => `${p.id}:${p.score}`).join(' ')}`);
    progress(`  query ${e.query}:      got ${e.got.map((p) => `${p.id}:${p.score}`).join(' ')}`);
  }
}
