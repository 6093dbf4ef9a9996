// The distance matrix (`POST .../points/search/matrix/pairs` and `/offsets`, gRPC
// SearchMatrixPairs and SearchMatrixOffsets), as Qdrant answers it: a random sample of the points
// the filter lets through that have the vector; for each, its `limit` nearest among the sample
// (itself left out), by the vector's score, computed here from the sampled vectors. Sampled points are listed by id; pairs group by `a`
// in that order, each group best first; offsets index rows and columns into `ids`.

import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import { comparePointIds } from '../../shared/ids.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { SearchMatrixRequest } from '../../shared/schemas/points.js';
import { DEFAULT_VECTOR, vectorOf, type PointId, type QueryVector, type SparseVector } from '../../shared/types.js';
import { metricFor, sparseDot } from '../index/distance.js';
import { multiScore } from '../index/multi-space.js';
import { parseFilter } from './filter-parse.js';
import { refuseUnsupported } from './request-forms.js';
import { StrictMode } from './strict-mode.js';

const DEFAULT_SAMPLE = 10;
const DEFAULT_LIMIT = 3;

export interface MatrixOffsets {
  offsets_row: number[];
  offsets_col: number[];
  scores: number[];
  ids: PointId[];
}

/** The matrix as offsets: the form both answers are built from. */
export async function doMatrixOffsets(engine: PointEngine, name: string, req: SearchMatrixRequest): Promise<MatrixOffsets> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const using = req.using ?? DEFAULT_VECTOR;
  if (meta.config.vectors[using] === undefined && meta.config.sparse_vectors[using] === undefined) throw QuiverError.unknownVector(using);
  const sample = req.sample ?? DEFAULT_SAMPLE;
  const limit = req.limit ?? DEFAULT_LIMIT;
  const parsed = parseFilter(req.filter);
  // The matrix's size is limit x sample, held to max_query_limit when both are given (Qdrant's).
  const strict = StrictMode.of(meta);
  if (req.limit !== undefined && req.limit !== null && req.sample !== undefined && req.sample !== null) strict?.limit(req.limit * req.sample);
  strict?.filter(parsed, 'retrieve');
  strict?.readTokens(StrictMode.readCost(parsed));
  const withVector: Filter = { must: [{ has_vector: using }] };
  const filter: Filter = parsed === null ? withVector : { must: [parsed, withVector] };
  // Each shard draws up to `sample` at random; a random `sample` of their union is kept.
  const drawn = (await engine.fanOut(meta, { op: 'sample', limit: sample, filter, withPayload: { kind: 'none' }, withVector: { kind: 'names', names: [using] } })).flat();
  for (let i = drawn.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [drawn[i], drawn[j]] = [drawn[j]!, drawn[i]!];
  }
  const points = drawn.slice(0, sample).sort((a, b) => comparePointIds(a.id, b.id));
  if (points.length < 2) return { offsets_row: [], offsets_col: [], scores: [], ids: [] };
  const ids = points.map((p) => p.id);
  const vectors = points.map((p) => {
    const v = vectorOf(p.vector, using);
    if (v === undefined) throw QuiverError.internal(`sampled point ${p.id} came back without vector '${using}'`);
    return v as QueryVector;
  });
  // The sampled vectors are here already: each pair is scored once, here, exactly (sample^2
  // scores, 10,000 at the default-ish sample of 100, a millisecond), not by a search per point.
  const dense = meta.config.vectors[using];
  // Dense rows as float32 once each, not once per pair.
  // A multivector's rows packed, scored by MaxSim with the row's point as the query.
  const multi = dense?.multivector_config !== undefined;
  const rows = dense === undefined ? null : vectors.map((v) => Float32Array.from(multi ? (v as readonly (readonly number[])[]).flat() : (v as readonly number[])));
  const metric = dense === undefined ? null : metricFor(dense.distance);
  const score = (r: number, c: number): number => {
    if (metric === null) return sparseDot(vectors[r] as SparseVector, vectors[c] as SparseVector);
    if (multi) return multiScore(dense!.distance, dense!.datatype ?? 'float32', rows![r]!, rows![c]!, dense!.size);
    return metric.score(rows![r]!, rows![c]!, 0);
  };
  const higherIsBetter = dense === undefined || dense.distance === 'Cosine' || dense.distance === 'Dot';
  const out: MatrixOffsets = { offsets_row: [], offsets_col: [], scores: [], ids };
  for (let row = 0; row < vectors.length; row++) {
    const others: { col: number; score: number }[] = [];
    for (let col = 0; col < vectors.length; col++) if (col !== row) others.push({ col, score: score(row, col) });
    others.sort((a, b) => (higherIsBetter ? b.score - a.score : a.score - b.score) || comparePointIds(ids[a.col]!, ids[b.col]!));
    for (const o of others.slice(0, limit)) {
      out.offsets_row.push(row);
      out.offsets_col.push(o.col);
      out.scores.push(o.score);
    }
  }
  return out;
}

/** The matrix as pairs: {a, b, score}, grouped by a in id order, each group best first. */
export async function doMatrixPairs(engine: PointEngine, name: string, req: SearchMatrixRequest): Promise<{ pairs: { a: PointId; b: PointId; score: number }[] }> {
  const m = await doMatrixOffsets(engine, name, req);
  return { pairs: m.scores.map((score, k) => ({ a: m.ids[m.offsets_row[k]!]!, b: m.ids[m.offsets_col[k]!]!, score })) };
}
