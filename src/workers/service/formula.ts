// The Query API's `formula` (score boosting; docs/query.md section 4): an expression over each
// prefetched point's scores ($score, $score[i]), its payload values, conditions (1 or 0), dates,
// geo distances and decays, evaluated in the coordinator over the union of the prefetches, the
// best first. Parsed once per request (its errors before any search); conditions are answered by
// the shards, one filtered id listing per condition; payload values read in one round.

import { parseDatetime } from '../../shared/datetime.js';
import { QuiverError } from '../../shared/errors.js';
import { comparePointIds } from '../../shared/ids.js';
import type { Filter } from '../../shared/filter.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { CollectionMeta, JsonValue, Payload, PointId, ScoredPoint } from '../../shared/types.js';
import { fieldValues, parsePath } from '../shard/filter-eval.js';
import { parseFilter } from './filter-parse.js';
import { retrieveByIds } from './retrieve.js';

type Decay = { kind: 'lin' | 'exp' | 'gauss'; x: Expr; target: Expr | null; scale: number; midpoint: number };
export type Expr =
  | { op: 'const'; v: number }
  | { op: 'score'; prefetch: number }
  | { op: 'var'; path: string }
  | { op: 'cond'; index: number }
  | { op: 'geo'; lat: number; lon: number; to: string }
  | { op: 'datetime'; seconds: number }
  | { op: 'datetime_key'; path: string }
  | { op: 'mult' | 'sum'; args: Expr[] }
  | { op: 'neg' | 'abs' | 'sqrt' | 'exp' | 'log10' | 'ln'; arg: Expr }
  | { op: 'div'; left: Expr; right: Expr; byZero: number | null }
  | { op: 'pow'; base: Expr; exponent: Expr }
  | ({ op: 'decay' } & Decay);

export interface Formula {
  expr: Expr;
  /** The conditions, in the order `cond` indexes them. */
  conditions: Filter[];
  /** Payload paths the expression reads (variables, datetime keys, geo targets). */
  paths: string[];
  /** defaults by variable: `$score[i]` keys normalised (`$score` is `$score[0]`). */
  defaults: Map<string, JsonValue>;
}

const UNARY = ['neg', 'abs', 'sqrt', 'exp', 'log10', 'ln'] as const;
const bad = (msg: string): never => {
  throw QuiverError.badInput(`Wrong input: ${msg}`);
};
const invalid = (msg: string): never => {
  throw QuiverError.badInput(`Wrong input: Validation failed: ${msg}`);
};

/** `$score` and `$score[N]` as a prefetch index; another `$` word is refused as Qdrant words it. */
function reserved(s: string): number {
  if (s === '$score') return 0;
  const m = /^\$score\[(\d+)\]$/.exec(s);
  if (m !== null) return Number(m[1]);
  if (s.startsWith('$score')) return invalid(`failed to parse variable ID ${s}: Invalid reserved variable: ${s}`);
  return invalid(`failed to parse variable ID ${s}: Invalid reserved word: ${s}`);
}

const scoreKey = (i: number): string => `$score[${i}]`;

const f32 = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return bad(`formula: ${what} must be a number`);
  return Math.fround(v);
};

/** Parses a REST formula query ({formula, defaults}) into its tree, conditions and paths. */
export function parseFormula(raw: Record<string, unknown>): Formula {
  const conditions: Filter[] = [];
  const paths = new Set<string>();
  const walk = (e: unknown): Expr => {
    if (typeof e === 'number') return { op: 'const', v: f32(e, 'a constant') };
    if (typeof e === 'string') {
      if (e.startsWith('$')) return { op: 'score', prefetch: reserved(e) };
      paths.add(e);
      return { op: 'var', path: e };
    }
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return bad('formula: an expression must be a number, a variable or an object');
    const o = e as Record<string, unknown>;
    if ('mult' in o || 'sum' in o) {
      const op = 'mult' in o ? 'mult' : 'sum';
      const args = o[op];
      if (!Array.isArray(args)) return bad(`formula: ${op} takes a list of expressions`);
      return { op, args: args.map(walk) };
    }
    for (const op of UNARY) if (op in o) return { op, arg: walk(o[op]) };
    if ('div' in o) {
      const d = (o.div ?? {}) as Record<string, unknown>;
      const byZero = d.by_zero_default === undefined || d.by_zero_default === null ? null : f32(d.by_zero_default, 'div.by_zero_default');
      return { op: 'div', left: walk(d.left), right: walk(d.right), byZero };
    }
    if ('pow' in o) {
      const p = (o.pow ?? {}) as Record<string, unknown>;
      return { op: 'pow', base: walk(p.base), exponent: walk(p.exponent) };
    }
    if ('geo_distance' in o) {
      const g = (o.geo_distance ?? {}) as { origin?: { lat?: unknown; lon?: unknown }; to?: unknown };
      if (typeof g.to !== 'string') return bad('formula: geo_distance.to must be a payload key');
      paths.add(g.to);
      const lat = coordinate(g.origin?.lat);
      const lon = coordinate(g.origin?.lon);
      if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return bad(`formula: geo_distance.origin: lat must be within [-90, 90] and lon within [-180, 180], got (${lat}, ${lon})`);
      return { op: 'geo', lat, lon, to: g.to };
    }
    if ('datetime' in o) {
      const s = o.datetime;
      const ms = typeof s === 'string' ? parseDatetime(s) : Number.NaN;
      if (Number.isNaN(ms)) return invalid(`failed to parse date-time ${String(s)}: not an RFC 3339 date-time`);
      return { op: 'datetime', seconds: ms / 1000 };
    }
    if ('datetime_key' in o) {
      if (typeof o.datetime_key !== 'string') return bad('formula: datetime_key must be a payload key');
      paths.add(o.datetime_key);
      return { op: 'datetime_key', path: o.datetime_key };
    }
    for (const kind of ['lin', 'exp', 'gauss'] as const) if (`${kind}_decay` in o) return decay(kind, o[`${kind}_decay`]);
    // Anything else is a filter condition: 1 where it matches, 0 elsewhere.
    const filter = parseFilter({ must: [o] });
    conditions.push(filter!);
    return { op: 'cond', index: conditions.length - 1 };
  };
  const decay = (kind: Decay['kind'], raw: unknown): Expr => {
    const d = (raw ?? {}) as Record<string, unknown>;
    const midpoint = d.midpoint === undefined || d.midpoint === null ? 0.5 : f32(d.midpoint, `${kind}_decay.midpoint`);
    const scale = d.scale === undefined || d.scale === null ? 1 : f32(d.scale, `${kind}_decay.scale`);
    if (kind === 'lin' ? midpoint < 0 || midpoint > 1 : midpoint <= 0 || midpoint >= 1) {
      invalid(kind === 'lin' ? `Linear decay midpoint should be in the range [0.0, 1.0], got ${midpoint}.` : `Decay midpoint should be in the range (0.0, 1.0), got ${midpoint}.`);
    }
    if (!(scale > 0)) invalid(`Decay scale should be non-zero positive, got ${scale}.`);
    return { op: 'decay', kind, x: walk(d.x), target: d.target === undefined || d.target === null ? null : walk(d.target), scale, midpoint };
  };
  const expr = walk(raw.formula);
  const defaults = new Map<string, JsonValue>();
  const given = raw.defaults;
  if (given !== undefined && given !== null) {
    if (typeof given !== 'object' || Array.isArray(given)) bad('formula: defaults must be an object');
    for (const [k, v] of Object.entries(given as Record<string, JsonValue>)) defaults.set(k.startsWith('$') ? scoreKey(reserved(k)) : k, v);
  }
  return { expr, conditions, paths: [...paths], defaults };
}

function coordinate(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return bad('formula: geo_distance.origin needs numbers lat and lon');
  return v;
}

/** What one point's evaluation reads: its prefetch scores, payload, and which conditions it meets. */
interface PointInputs {
  scores: (number | undefined)[];
  payload: Payload;
  meets: boolean[];
}

const nonFinite = (what: string, v: number): never => bad(`The expression ${what} = ${v} produced a non-finite number`);

/** The number at a payload path (or its default); a value that is not one number is refused. */
function numberAt(f: Formula, p: PointInputs, path: string): number {
  const v = valueAt(f, p, path, 'number');
  if (typeof v === 'number') return v;
  return bad(`Expected number value for ${path} in the payload and/or in the formula defaults. Error: Value is not a number`);
}

function valueAt(f: Formula, p: PointInputs, path: string, kind: string): JsonValue {
  const found = fieldValues(p.payload, parsePath(path));
  if (found.length === 1) return found[0]!;
  if (found.length > 1) return found;
  const d = f.defaults.get(path);
  if (d !== undefined) return Array.isArray(d) && d.length === 1 ? d[0]! : d;
  return bad(`Expected ${kind} value for ${path} in the payload and/or in the formula defaults. Error: No value found in a payload nor defaults`);
}

const EARTH_RADIUS_M = 6371008.8;
const rad = (d: number): number => (d * Math.PI) / 180;

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The expression's value for one point, in double precision, with Qdrant's errors. */
export function evaluate(f: Formula, e: Expr, p: PointInputs): number {
  const ev = (x: Expr): number => evaluate(f, x, p);
  switch (e.op) {
    case 'const':
      return e.v;
    case 'score': {
      const s = p.scores[e.prefetch];
      if (s !== undefined) return s;
      const d = f.defaults.get(scoreKey(e.prefetch));
      return typeof d === 'number' ? d : 0;
    }
    case 'var':
      return numberAt(f, p, e.path);
    case 'cond':
      return p.meets[e.index] === true ? 1 : 0;
    case 'geo': {
      const to = valueAt(f, p, e.to, 'geo point');
      const g = to as { lat?: unknown; lon?: unknown } | null;
      if (g === null || typeof g !== 'object' || typeof g.lat !== 'number' || typeof g.lon !== 'number') {
        return bad(`Expected geo point value for ${e.to} in the payload and/or in the formula defaults. Error: Value is not a geo point`);
      }
      return haversine(e.lat, e.lon, g.lat, g.lon);
    }
    case 'datetime':
      return e.seconds;
    case 'datetime_key': {
      const v = valueAt(f, p, e.path, 'datetime');
      if (typeof v !== 'string') return bad(`Expected datetime value for ${e.path} in the payload and/or in the formula defaults. Error: Value is not a string`);
      const ms = parseDatetime(v);
      if (Number.isNaN(ms)) return bad(`Expected datetime value for ${e.path} in the payload and/or in the formula defaults. Error: not an RFC 3339 date-time: ${v}`);
      return ms / 1000;
    }
    case 'mult': {
      let out = 1;
      // A zero factor ends it: later factors are not read (nor can they fail).
      for (const a of e.args) {
        const v = ev(a);
        if (v === 0) return 0;
        out *= v;
      }
      return out;
    }
    case 'sum':
      return e.args.reduce((s, a) => s + ev(a), 0);
    case 'neg':
      return -ev(e.arg);
    case 'abs':
      return Math.abs(ev(e.arg));
    case 'sqrt': {
      const v = ev(e.arg);
      const r = Math.sqrt(v);
      return Number.isFinite(r) ? r : nonFinite(`√${v}`, r);
    }
    case 'exp': {
      const v = ev(e.arg);
      const r = Math.exp(v);
      return Number.isFinite(r) ? r : nonFinite(`exp(${v})`, r);
    }
    case 'log10':
    case 'ln': {
      const v = ev(e.arg);
      const r = e.op === 'ln' ? Math.log(v) : Math.log10(v);
      return Number.isFinite(r) ? r : nonFinite(`${e.op}(${v})`, r);
    }
    case 'div': {
      const l = ev(e.left);
      if (l === 0) return 0;
      const r = ev(e.right);
      if (r === 0 && e.byZero !== null) return e.byZero;
      const q = l / r;
      return Number.isFinite(q) ? q : nonFinite(`${l}/${r}`, q);
    }
    case 'pow': {
      const b = ev(e.base);
      const x = ev(e.exponent);
      const r = b ** x;
      return Number.isFinite(r) ? r : nonFinite(`${b}^${x}`, r);
    }
    case 'decay': {
      const d = ev(e.x) - (e.target === null ? 0 : ev(e.target));
      if (e.kind === 'lin') return Math.max(0, 1 - ((1 - e.midpoint) / e.scale) * Math.abs(d));
      if (e.kind === 'exp') return Math.exp((Math.log(e.midpoint) / e.scale) * Math.abs(d));
      return Math.exp((Math.log(e.midpoint) / e.scale ** 2) * d * d);
    }
  }
}

/**
 * The formula over the union of the prefetches' results (lists, in request order): each point's
 * score, as float32, best first; score_threshold keeps scores at or above it.
 */
export async function rescoreByFormula(engine: PointEngine, meta: CollectionMeta, f: Formula, lists: ScoredPoint[][], threshold: number | null): Promise<ScoredPoint[]> {
  const scores = new Map<PointId, (number | undefined)[]>();
  lists.forEach((list, i) =>
    list.forEach((p) => {
      let s = scores.get(p.id);
      if (s === undefined) scores.set(p.id, (s = []));
      s[i] = p.score;
    }),
  );
  const ids = [...scores.keys()];
  if (ids.length === 0) return [];
  const payloads = new Map<PointId, Payload>();
  if (f.paths.length > 0) {
    const records = await retrieveByIds(engine, meta, ids, { kind: 'all' }, { kind: 'none' });
    for (const r of records) payloads.set(r.id, r.payload ?? {});
  }
  const meets = await Promise.all(
    f.conditions.map(async (c) => {
      const parts = await engine.fanOut(meta, { op: 'scroll', offset: null, limit: ids.length, filter: { must: [c, { has_id: ids }] }, withPayload: { kind: 'none' }, withVector: { kind: 'none' } });
      return new Set(parts.flat().map((r) => r.id));
    }),
  );
  const out: ScoredPoint[] = [];
  for (const id of ids) {
    const v = evaluate(f, f.expr, { scores: scores.get(id)!, payload: payloads.get(id) ?? {}, meets: meets.map((m) => m.has(id)) });
    const score = Math.fround(v);
    if (!Number.isFinite(score)) nonFinite(`${v} as f32`, score);
    if (threshold === null || score >= threshold) out.push({ id, version: 0, score });
  }
  // Ties in id order, so that pages and shard counts do not reorder them.
  return out.sort((a, b) => b.score - a.score || comparePointIds(a.id, b.id));
}
