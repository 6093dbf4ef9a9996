// Strict mode (a collection's strict_mode_config while `enabled`), checked where each request is
// read, before anything is searched or written, with Qdrant's messages (400, `Bad request: ...`,
// most with a `Help:`). Query nodes are checked one by one (query.ts), so every prefetch is;
// batches check each of their requests. Which fields are kept and which refused: src/main/
// service/strict-mode-config.ts.

import { QuiverError } from '../../shared/errors.js';
import { conditionsOf, type Condition, type FieldCondition, type Filter } from '../../shared/filter.js';
import type { CollectionMeta, FieldIndexSchema, PayloadSchemaType, StrictModeSettings } from '../../shared/types.js';
import { isUuid } from '../../shared/ids.js';
import { rustF32 } from '../../shared/float.js';
import { freemem, totalmem } from 'node:os';
import { takeTokens } from './rate-limits.js';
import type { Expr, Formula } from './formula.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { StoredBytes } from '../../shared/shard-reports.js';

const bad = (message: string): QuiverError => QuiverError.badInput(`Bad request: ${message}`);

function limitExceeded(value: number, limit: number, name: string): QuiverError {
  return bad(`Limit exceeded ${value} > ${limit} for "${name}". Help: Reduce the "${name}" parameter to or below ${limit}.`);
}

/** How big one condition is: the values it lists (match any or except, has_id), else 1. */
function sizeOf(c: Condition): number {
  if ('has_id' in c) return c.has_id.length;
  if ('key' in c) {
    const m = (c as FieldCondition).match;
    if (m !== undefined && 'any' in m) return m.any.length;
    if (m !== undefined && 'except' in m) return m.except.length;
  }
  return 1;
}

/** Every field index type: any of them answers is_empty, is_null and values_count (Qdrant's rule). */
const ANY_INDEX: PayloadSchemaType[] = ['bool', 'datetime', 'float', 'geo', 'integer', 'keyword', 'text', 'uuid'];

/** What a condition needs of a key's index: the types that can answer it, and how it is asked. */
interface IndexNeed {
  types: PayloadSchemaType[];
  use: 'match' | 'range' | 'any';
}

/** The types a string match needs: keyword, and uuid when every value is a UUID (Qdrant's inference). */
const stringTypes = (values: unknown[]): PayloadSchemaType[] => (values.every((v) => typeof v === 'string' && isUuid(v)) ? ['keyword', 'uuid'] : ['keyword']);

/** The field index types that answer a condition on a key (null: it needs none). */
function indexNeedOf(c: FieldCondition): IndexNeed | null {
  const m = c.match;
  if (m !== undefined) {
    if ('text' in m || 'phrase' in m || 'text_any' in m) return { types: ['text'], use: 'match' };
    const values: unknown[] = 'value' in m ? [m.value] : 'any' in m ? m.any : 'except' in m ? m.except : [];
    const v = values[0];
    if (typeof v === 'boolean') return { types: ['bool'], use: 'match' };
    if (typeof v === 'number') return { types: ['integer'], use: 'match' };
    return { types: stringTypes(values), use: 'match' };
  }
  if (c.range !== undefined) {
    const r = c.range as Record<string, unknown>;
    return Object.values(r).some((x) => typeof x === 'string') ? { types: ['datetime'], use: 'range' } : { types: ['float', 'integer'], use: 'range' };
  }
  if (c.geo_bounding_box !== undefined || c.geo_radius !== undefined || c.geo_polygon !== undefined) return { types: ['geo'], use: 'any' };
  if (c.values_count !== undefined || c.is_empty !== undefined || c.is_null !== undefined) return { types: ANY_INDEX, use: 'any' };
  return null;
}

/** Whether the key's index answers the need: of one of its types, and an integer index with the lookup or range it asks for. */
function answers(have: FieldIndexSchema | undefined, need: IndexNeed): boolean {
  if (have === undefined || !need.types.includes(have.type)) return false;
  if (have.type !== 'integer' || need.use === 'any') return true;
  return have.params?.[need.use === 'match' ? 'lookup' : 'range'] !== false;
}

/**
 * The keys a filter compares without a field index of a type that answers the comparison, with
 * the types that would (strict mode refuses such filters; slow reads raise issues for them).
 */
export function unindexedKeys(meta: CollectionMeta, f: Filter): { key: string; types: PayloadSchemaType[] }[] {
  const out: { key: string; types: PayloadSchemaType[] }[] = [];
  for (const { c, prefix } of conditionsOf(f)) {
    let key: string;
    let need: IndexNeed | null;
    if ('is_empty' in c && typeof c.is_empty === 'object') [key, need] = [c.is_empty.key, { types: ANY_INDEX, use: 'any' }];
    else if ('is_null' in c && typeof c.is_null === 'object') [key, need] = [c.is_null.key, { types: ANY_INDEX, use: 'any' }];
    else if ('key' in c && !('nested' in c)) [key, need] = [(c as FieldCondition).key, indexNeedOf(c as FieldCondition)];
    else continue;
    if (need === null) continue;
    const full = `${prefix}${key}`;
    if (!answers(meta.config.payload_schema[full], need)) out.push({ key: full, types: need.types });
  }
  return out;
}

export class StrictMode {
  readonly #s: StrictModeSettings;
  readonly #meta: CollectionMeta;

  private constructor(meta: CollectionMeta, s: StrictModeSettings) {
    this.#meta = meta;
    this.#s = s;
  }

  /** The collection's strict mode when enabled, else null (nothing is checked). */
  static of(meta: CollectionMeta): StrictMode | null {
    const s = meta.config.strict_mode_config;
    return s?.enabled === true ? new StrictMode(meta, s) : null;
  }

  /** A read's result limit (`limit` of search, query and its prefetches, scroll, facet, the matrix's limit x sample). */
  limit(value: number | null | undefined): void {
    const max = this.#s.max_query_limit;
    if (max !== undefined && value !== null && value !== undefined && value > max) throw limitExceeded(value, max, 'limit');
  }

  /** Search params: hnsw_ef, exact and quantization oversampling. */
  params(p: { hnsw_ef?: number | null; exact?: boolean; quantization?: { oversampling?: number | null } | null } | null | undefined): void {
    const ef = p?.hnsw_ef;
    if (this.#s.search_max_hnsw_ef !== undefined && ef !== undefined && ef !== null && ef > this.#s.search_max_hnsw_ef) throw limitExceeded(ef, this.#s.search_max_hnsw_ef, 'hnsw_ef');
    this.exact(p?.exact === true);
    const over = p?.quantization?.oversampling;
    const maxOver = this.#s.search_max_oversampling;
    if (maxOver !== undefined && over !== undefined && over !== null && over > maxOver) throw limitExceeded(over, maxOver, 'oversampling');
  }

  /** An exact search or count, refused where search_allow_exact is false. */
  exact(exact: boolean): void {
    if (exact && this.#s.search_allow_exact === false) throw bad('Exact search disabled!. Help: Set exact=false.');
  }

  /** A request's own `timeout` (seconds), held to max_timeout. */
  timeout(seconds: number): void {
    const max = this.#s.max_timeout;
    if (max !== undefined && seconds > max) throw limitExceeded(seconds, max, 'timeout');
  }

  /** Searches in one batch request. */
  searchBatch(n: number): void {
    const max = this.#s.search_max_batchsize;
    if (max !== undefined && n > max) throw limitExceeded(n, max, 'search batch size');
  }

  /** Points of one upsert ('upsert limit') or update of vectors ('update limit'). */
  writeBatch(n: number, name: 'upsert limit' | 'update limit'): void {
    const max = this.#s.upsert_max_batchsize;
    if (max !== undefined && n > max) throw limitExceeded(n, max, name);
  }

  /**
   * A filter: its conditions counted (nested ones too) and sized, and with unindexed filtering
   * off for its kind (a read, or a write by filter), every key it compares needing a field index
   * of a type that answers the comparison.
   */
  filter(f: Filter | null, kind: 'retrieve' | 'update'): void {
    if (f === null) return;
    const all = [...conditionsOf(f)];
    const maxConditions = this.#s.filter_max_conditions;
    if (maxConditions !== undefined && all.length > maxConditions) {
      throw bad(`Filter condition limit reached (${all.length} > ${maxConditions}). Help: Reduce the amount of conditions of your filter.`);
    }
    const maxSize = this.#s.condition_max_size;
    if (maxSize !== undefined) {
      for (const { c } of all) {
        const n = sizeOf(c);
        if (n > maxSize) throw bad(`Condition size limit reached (${n} > ${maxSize}). Help: Reduce the size of your condition.`);
      }
    }
    const unindexedOk = kind === 'retrieve' ? this.#s.unindexed_filtering_retrieve : this.#s.unindexed_filtering_update;
    if (unindexedOk !== false) return;
    const [first] = unindexedKeys(this.#meta, f);
    if (first !== undefined) {
      throw bad(`Index required but not found for "${first.key}" of one of the following types: [${[...first.types].sort().join(', ')}]. Help: Create an index for this key or use a different filter.`);
    }
  }

  /**
   * A formula (the query kind) with unindexed filtering off for reads: every payload key it reads
   * needs a field index of a fitting type (a number variable: float or integer; a datetime key:
   * datetime; a geo target: geo), and every condition in it, as a filter's.
   */
  formula(f: Formula): void {
    if (this.#s.unindexed_filtering_retrieve !== false) return;
    const keys: { key: string; types: PayloadSchemaType[] }[] = [];
    const walk = (e: Expr): void => {
      if (e.op === 'var') keys.push({ key: e.path, types: ['float', 'integer'] });
      else if (e.op === 'datetime_key') keys.push({ key: e.path, types: ['datetime'] });
      else if (e.op === 'geo') keys.push({ key: e.to, types: ['geo'] });
      else if (e.op === 'mult' || e.op === 'sum') e.args.forEach(walk);
      else if (e.op === 'div') [e.left, e.right].forEach(walk);
      else if (e.op === 'pow') [e.base, e.exponent].forEach(walk);
      else if (e.op === 'decay') [e.x, ...(e.target === null ? [] : [e.target])].forEach(walk);
      else if ('arg' in e) walk(e.arg);
    };
    walk(f.expr);
    // A variable, datetime key or geo target: any index of its types; a condition: as a filter's.
    const missing = keys.filter(({ key, types }) => !answers(this.#meta.config.payload_schema[key], { types, use: 'any' }));
    for (const c of f.conditions) missing.push(...unindexedKeys(this.#meta, c));
    const [first] = missing;
    if (first !== undefined) {
      throw bad(`Index required but not found for "${first.key}" of one of the following types: [${[...first.types].sort().join(', ')}]. Help: Create an index for this key or use a different formula expression.`);
    }
  }

  /** A write's vectors: rows of a multivector and entries of a sparse vector, by their names' limits. */
  vectors(points: readonly { multi: Record<string, Float32Array>; sparse: Record<string, { indices: Uint32Array }> }[]): void {
    const multi = this.#s.multivector_config ?? {};
    const sparse = this.#s.sparse_config ?? {};
    for (const p of points) {
      for (const [name, v] of Object.entries(p.multi)) {
        const max = multi[name]?.max_vectors;
        const rows = v.length / (this.#meta.config.vectors[name]?.size ?? 1);
        if (max !== undefined && max !== null && rows > max) throw bad(`Multivector '${name}' has a limit of ${max} vectors, but ${rows} were provided!`);
      }
      for (const [name, v] of Object.entries(p.sparse)) {
        const max = sparse[name]?.max_length;
        if (max !== undefined && max !== null && v.indices.length > max) throw bad(`Sparse vector '${name}' has a limit of ${max} indices, but ${v.indices.length} were provided!`);
      }
    }
  }

  /** A read costing `cost` tokens (1 and a token per filter condition; retrieve: one per id), under read_rate_limit. */
  readTokens(cost: number): void {
    const limit = this.#s.read_rate_limit;
    if (limit !== undefined) takeTokens(this.#meta.id, 'read', limit, cost);
  }

  /** A write costing `cost` tokens (the points it names or carries, at least 1), under write_rate_limit. */
  writeTokens(cost: number): void {
    const limit = this.#s.write_rate_limit;
    if (limit !== undefined) takeTokens(this.#meta.id, 'write', limit, Math.max(1, cost));
  }

  /** What a read with `filter` costs: 1, and a token per condition. */
  static readCost(filter: Filter | null): number {
    return 1 + (filter === null ? 0 : [...conditionsOf(filter)].length);
  }

  /** Whether a write of vectors (`payloadOnly` false) or payloads must first learn what the collection stores. */
  countsStorage(payloadOnly: boolean): boolean {
    const s = this.#s;
    return s.max_collection_payload_size_bytes !== undefined || (!payloadOnly && (s.max_collection_vector_size_bytes !== undefined || s.max_points_count !== undefined));
  }

  /**
   * A write against what the collection stores now, as Qdrant checks its size limits: before the
   * write (the write that crosses a limit is taken, the next refused), vectors, then payload,
   * then points, for upserts and vector updates; payload writes (`payloadOnly`) against the
   * payload limit alone.
   */
  storage(stored: StoredBytes, payloadOnly: boolean): void {
    const s = this.#s;
    const maxVectors = s.max_collection_vector_size_bytes;
    if (!payloadOnly && maxVectors !== undefined && stored.vectors >= maxVectors) throw bad(`Max vector storage size limit of ${rustF32(maxVectors / 2 ** 20)}MB reached!`);
    const maxPayload = s.max_collection_payload_size_bytes;
    if (maxPayload !== undefined && stored.payload >= maxPayload) throw bad(`Max payload storage size limit of ${rustF32(maxPayload / 2 ** 20)}MB reached!`);
    const maxPoints = s.max_points_count;
    if (!payloadOnly && maxPoints !== undefined && stored.points >= maxPoints) throw bad(`Max points count limit of ${maxPoints} reached!`);
  }

  /** A write that uses memory (not a delete), against the share of the machine's memory in use. */
  memory(): void {
    const max = this.#s.max_resident_memory_percent;
    if (max === undefined) return;
    const used = Math.round((process.memoryUsage().rss / totalmem()) * 100);
    if (used > max) {
      throw bad(
        `Resident memory usage is at ${used}% of total memory, exceeding the configured limit of ${max}%. Help: Free memory (${Math.round(freemem() / 2 ** 20)} MiB free now) or raise \`max_resident_memory_percent\` in the strict mode config of this collection.`,
      );
    }
  }
}

/** What the collection stores now, summed over its shards (one copy each). */
export async function storedBytes(engine: PointEngine, meta: CollectionMeta): Promise<StoredBytes> {
  const parts = await engine.fanOut(meta, { op: 'storedBytes' });
  return { points: parts.reduce((n, p) => n + p.points, 0), vectors: parts.reduce((n, p) => n + p.vectors, 0), payload: parts.reduce((n, p) => n + p.payload, 0) };
}
