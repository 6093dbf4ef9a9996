// bench/sparse.ts's first step, before the server starts: the seeded documents and queries (sparse
// and dense), the figures that describe them, and the exact answers every check compares with.

import { bruteForce, normalised, progress, randomMicros } from '../common.js';
import {
  CHECK,
  DENSE_DIM,
  DENSE_QUERY_SEED,
  DENSE_SEED,
  DEPTH,
  DOC_SEED,
  N,
  NNZ,
  PERM_SEED,
  PREFETCH_LIMIT,
  QMAX,
  QMIN,
  QUERIES,
  QUERY_SEED,
  VOCAB,
  ZIPF,
} from './config.js';
import { documentFrequencies, generate, idf, sparseBruteForce, TermSampler, type Ranked, type SparseSet } from './data.js';

/** The data and its exact answers, with the figures the report gives about them. */
export interface Prepared {
  docs: SparseSet;
  queries: SparseSet;
  denseDocs: Int32Array;
  denseQueries: Int32Array;
  generateS: number;
  termsUsed: number;
  maxDf: number;
  termsInHalf: number;
  /** Postings each query walks (sum of its terms' df). */
  postings: number[];
  /** Exact answers for the first CHECK queries: plain weights, idf weights, the dense leg. */
  truthPlain: Ranked[];
  truthIdf: Ranked[];
  denseTruth: number[][];
  /** Documents sharing a term with each checked query. */
  candidates: number[];
  bruteForceS: number;
}

export function prepare(): Prepared {
  // data
  let t = performance.now();
  const sampler = new TermSampler(VOCAB, ZIPF, PERM_SEED);
  const docs = generate(sampler, N, DOC_SEED, () => NNZ);
  const queries = generate(sampler, QUERIES, QUERY_SEED, (rand) => QMIN + Math.floor(rand() * (QMAX - QMIN + 1)));
  const denseDocs = randomMicros(N, DENSE_DIM, DENSE_SEED);
  const denseQueries = randomMicros(QUERIES, DENSE_DIM, DENSE_QUERY_SEED);
  const df = documentFrequencies(docs);
  const generateS = (performance.now() - t) / 1000;
  let maxDf = 0;
  let termsUsed = 0;
  let termsInHalf = 0;
  for (let term = 0; term < VOCAB; term++) {
    if (df[term]! > 0) termsUsed++;
    if (df[term]! > maxDf) maxDf = df[term]!;
    if (df[term]! * 2 >= N) termsInHalf++;
  }
  const qTermsOf = (q: number): Uint32Array => queries.terms.subarray(queries.offsets[q]!, queries.offsets[q + 1]!);
  const qWeightsOf = (q: number): Float32Array => queries.weights.subarray(queries.offsets[q]!, queries.offsets[q + 1]!);
  const postings: number[] = [];
  for (let q = 0; q < QUERIES; q++) postings.push(qTermsOf(q).reduce((a, term) => a + df[term]!, 0));
  progress(
    `generated in ${generateS.toFixed(1)} s: ${termsUsed} terms used, commonest in ${maxDf} docs (${((100 * maxDf) / N).toFixed(1)}%), ` +
      `${termsInHalf} terms in half the docs or more; postings per query mean ${(postings.reduce((a, b) => a + b, 0) / QUERIES).toFixed(0)}`,
  );

  // exact answers: plain weights, idf weights (collection-wide df over all N documents)
  t = performance.now();
  const scratchDense = new Float64Array(VOCAB);
  const truthPlain: Ranked[] = [];
  const truthIdf: Ranked[] = [];
  const candidates: number[] = [];
  for (let q = 0; q < CHECK; q++) {
    const terms = qTermsOf(q);
    const w = qWeightsOf(q);
    truthPlain.push(sparseBruteForce(docs, terms, w, DEPTH, scratchDense));
    // the server multiplies the float32 query weight by idf and keeps the product as float32
    const wIdf = Float32Array.from(w, (v, j) => v * idf(N, df[terms[j]!]!));
    truthIdf.push(sparseBruteForce(docs, terms, wIdf, DEPTH, scratchDense));
    // documents sharing a term: what the server's accumulator holds for this query
    const mark = new Uint8Array(VOCAB);
    for (const term of terms) mark[term] = 1;
    let c = 0;
    for (let i = 0; i < N; i++) {
      for (let j = docs.offsets[i]!, end = docs.offsets[i + 1]!; j < end; j++) {
        if (mark[docs.terms[j]!] === 1) {
          c++;
          break;
        }
      }
    }
    candidates.push(c);
  }
  const denseTruth = bruteForce(normalised(denseDocs, N, DENSE_DIM), normalised(denseQueries, CHECK, DENSE_DIM), CHECK, DENSE_DIM, PREFETCH_LIMIT, N);
  const bruteForceS = (performance.now() - t) / 1000;
  progress(`brute force for ${CHECK} queries in ${bruteForceS.toFixed(1)} s`);
  return { docs, queries, denseDocs, denseQueries, generateS, termsUsed, maxDf, termsInHalf, postings, truthPlain, truthIdf, denseTruth, candidates, bruteForceS };
}
