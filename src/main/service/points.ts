// Point operations: upsert, retrieve, delete, update vectors, count, scroll.

import { parseDatetime } from '../../shared/datetime.js';
import { QuiverError } from '../../shared/errors.js';
import { compareOrdered, missingRangeIndex, type OrderBySpec, type OrderedRecord, type WriteCondition } from '../../shared/protocol.js';
import { comparePointIds, parsePathPointId, parsePointId, pointNotFound } from '../../shared/ids.js';
import type { CountPoints, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints } from '../../shared/schemas/points.js';
import type { CollectionMeta, PointId, PointRecord, SparseVector } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { checkPoints, refuseUnsupported, packBatch, parseIds, payloadSelector, vectorSelector, withVectorOf, type PointInput } from './convert.js';
import { parseFilter } from './filter-parse.js';
import { MAX_RESULT_WINDOW } from './search.js';

export interface UpdateResult {
  operation_id: number;
  status: 'acknowledged' | 'completed';
}

export function updateResult(opId: number, wait: boolean): UpdateResult {
  return { operation_id: opId, status: wait ? 'completed' : 'acknowledged' };
}

/** Runs one write per shard; a failure after some shards applied says so (spec 7.3 rule 1). */
export async function perShard(parts: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(parts);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed.length === 0) return;
  const first = failed[0]!.reason as unknown;
  if (first instanceof QuiverError && failed.length === settled.length) throw first;
  const msg = first instanceof Error ? first.message : String(first);
  if (first instanceof QuiverError && first.code !== 'Internal' && first.code !== 'ShardUnavailable') {
    throw new QuiverError(first.code, `${msg} (${settled.length - failed.length} of ${settled.length} shards applied their part)`);
  }
  throw QuiverError.internal(`Update failed: ${msg} (${settled.length - failed.length} of ${settled.length} shards applied their part)`);
}

async function writePoints(
  engine: Engine,
  meta: CollectionMeta,
  op: 'upsert' | 'updateVectors',
  points: PointInput[],
  wait: boolean,
  condition: WriteCondition,
): Promise<number> {
  const opId = engine.nextOpId(meta.id);
  const parts: Promise<{ applied: number; error?: string }>[] = [];
  for (const [shard, idx] of engine.router.partition(meta, points.map((p) => p.id))) {
    const { batch, transfer } = packBatch(meta, idx.map((i) => points[i]!));
    parts.push(
      op === 'upsert'
        ? engine.router.call<'upsert'>(meta, shard, { op, opId, wait, batch, condition }, transfer)
        : engine.router.call<'updateVectors'>(meta, shard, { op, opId, wait, batch, condition }, transfer),
    );
  }
  const settled = await Promise.allSettled(parts);
  const partial = settled.find((s) => s.status === 'fulfilled' && s.value.error !== undefined);
  if (partial !== undefined) {
    // Shards that failed outright count as nothing applied (they threw before writing).
    const applied = settled.reduce((n, s) => n + (s.status === 'fulfilled' ? s.value.applied : 0), 0);
    const error = (partial as PromiseFulfilledResult<{ error?: string }>).value.error!;
    throw QuiverError.internal(
      `Upsert failed at ${error}; ${applied} of ${points.length} points were applied, each fully. Check the data before retrying`,
    );
  }
  await perShard(parts);
  return opId;
}

export async function doUpsert(engine: Engine, name: string, req: UpsertPoints, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const condition: WriteCondition = { mode: req.update_mode ?? 'upsert', updateFilter: parseFilter(req.update_filter) };
  let points: PointInput[];
  if ('points' in req) {
    points = checkPoints(meta, req.points, false);
  } else {
    const { ids, vectors, payloads } = req.batch;
    const named: Record<string, (number[] | SparseVector)[]> = Array.isArray(vectors) ? { '': vectors } : vectors;
    for (const [vname, rows] of Object.entries(named)) {
      if (rows.length !== ids.length) {
        throw QuiverError.badInput(`Wrong input: batch has ${ids.length} ids but ${rows.length} vectors for '${vname}'`);
      }
    }
    if (payloads !== undefined && payloads !== null && payloads.length !== ids.length) {
      throw QuiverError.badInput(`Wrong input: batch has ${ids.length} ids but ${payloads.length} payloads`);
    }
    points = checkPoints(
      meta,
      ids.map((id, i) => ({
        id,
        vector: Object.fromEntries(Object.entries(named).map(([vname, rows]) => [vname, rows[i]!])),
        payload: payloads?.[i] ?? null,
      })),
      false,
    );
  }
  return updateResult(await writePoints(engine, meta, 'upsert', points, wait, condition), wait);
}

export async function doUpdateVectors(engine: Engine, name: string, req: UpdateVectors, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const condition: WriteCondition = { mode: 'update_only', updateFilter: parseFilter(req.update_filter) };
  const points = checkPoints(meta, req.points, true);
  await requireExisting(engine, meta, points.map((p) => p.id));
  return updateResult(await writePoints(engine, meta, 'updateVectors', points, wait, condition), wait);
}

export async function doDeletePoints(engine: Engine, name: string, req: PointsSelector, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const opId = engine.nextOpId(meta.id);
  if ('points' in req) {
    const ids = parseIds(req.points);
    await perShard(
      [...engine.router.partition(meta, ids)].map(([shard, idx]) =>
        engine.router.call<'delete'>(meta, shard, { op: 'delete', opId, wait, ids: idx.map((i) => ids[i]!), filter: null }),
      ),
    );
  } else {
    const filter = parseFilter(req.filter);
    await perShard(
      Array.from({ length: meta.config.shard_number }, (_, shard) =>
        engine.router.call<'delete'>(meta, shard, { op: 'delete', opId, wait, ids: null, filter }),
      ),
    );
  }
  return updateResult(opId, wait);
}

/** Every id must exist before any shard changes anything: a 404 leaves every point as it was. */
export async function requireExisting(engine: Engine, meta: CollectionMeta, ids: readonly PointId[]): Promise<void> {
  const unique = [...new Set(ids)];
  const found = new Set((await retrieve(engine, meta, unique, { with_payload: false, with_vector: false })).map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw pointNotFound(missing);
}

async function retrieve(engine: Engine, meta: CollectionMeta, ids: PointId[], req: Pick<RetrievePoints, 'with_payload' | 'with_vector' | 'with_vectors'>): Promise<PointRecord[]> {
  const withPayload = payloadSelector(req.with_payload, true);
  const withVector = vectorSelector(withVectorOf(req), meta);
  const unique = [...new Set(ids)];
  const parts = await Promise.all(
    [...engine.router.partition(meta, unique)].map(([shard, idx]) =>
      engine.router.call<'retrieve'>(meta, shard, { op: 'retrieve', ids: idx.map((i) => unique[i]!), withPayload, withVector }),
    ),
  );
  const byId = new Map<PointId, PointRecord>();
  for (const rec of parts.flat()) byId.set(rec.id, rec);
  return unique.flatMap((id) => byId.get(id) ?? []);
}

export async function doRetrieve(engine: Engine, name: string, req: RetrievePoints): Promise<PointRecord[]> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  return retrieve(engine, meta, parseIds(req.ids), req);
}

export async function doGetPoint(engine: Engine, name: string, rawId: string): Promise<PointRecord> {
  const meta = engine.collection(name);
  const id = parsePathPointId(rawId);
  const [rec] = await retrieve(engine, meta, [id], { with_payload: true, with_vector: true });
  if (rec === undefined) throw QuiverError.notFound(`No point with id ${id} found`);
  return rec;
}

export async function doCount(engine: Engine, name: string, req: CountPoints): Promise<{ count: number }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const filter = parseFilter(req.filter);
  const counts = await engine.router.fanOut<'count'>(meta, { op: 'count', filter, exact: req.exact ?? true });
  return { count: counts.reduce((a, b) => a + b, 0) };
}

export async function doScroll(engine: Engine, name: string, req: ScrollPoints): Promise<{ points: PointRecord[]; next_page_offset: PointId | null }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const limit = req.limit ?? 10;
  if (limit > MAX_RESULT_WINDOW) throw QuiverError.badInput(`limit must not exceed ${MAX_RESULT_WINDOW}, got ${limit}`);
  const offset = req.offset === undefined || req.offset === null ? null : parsePointId(req.offset);
  const filter = parseFilter(req.filter);
  if (req.order_by !== undefined && req.order_by !== null) {
    // Qdrant checks the index first, then the offset.
    const orderBy = orderBySpec(meta, req.order_by);
    if (offset !== null) {
      throw QuiverError.badInput(
        "Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
      );
    }
    return scrollOrdered(engine, meta, orderBy, limit, filter, req);
  }
  const parts = await engine.router.fanOut<'scroll'>(meta, {
    op: 'scroll',
    offset,
    limit: limit + 1,
    filter,
    withPayload: payloadSelector(req.with_payload, true),
    withVector: vectorSelector(withVectorOf(req), meta),
  });
  const merged = parts.flat().sort((a, b) => comparePointIds(a.id, b.id));
  return { points: merged.slice(0, limit), next_page_offset: merged[limit]?.id ?? null };
}


const RANGE_TYPES: ReadonlySet<string> = new Set(['integer', 'float', 'datetime']);

/**
 * The order_by of a scroll or query, checked against the collection's indexes. `start_from` is a
 * number or an RFC 3339 datetime; a datetime counts in epoch microseconds, the unit of a datetime
 * key's order_value (as Qdrant), so either form may start a datetime key.
 */
export function orderBySpec(meta: CollectionMeta, o: NonNullable<ScrollPoints['order_by']>): OrderBySpec {
  const key = typeof o === 'string' ? o : o.key;
  const schema = Object.hasOwn(meta.config.payload_schema, key) ? meta.config.payload_schema[key] : undefined;
  // An integer index made with `range: false` serves only exact matches, as in Qdrant.
  if (schema === undefined || !RANGE_TYPES.has(schema.type) || schema.params?.range === false) throw QuiverError.badInput(missingRangeIndex(key));
  if (typeof o === 'string') return { key, direction: 'asc', startFrom: null };
  let startFrom: number | null = null;
  if (typeof o.start_from === 'number') startFrom = o.start_from;
  else if (typeof o.start_from === 'string') {
    const ms = parseDatetime(o.start_from);
    if (Number.isNaN(ms)) throw QuiverError.badInput(`order_by.start_from: '${o.start_from}' is neither a number nor an RFC 3339 datetime`);
    startFrom = ms * 1000;
  }
  return { key, direction: o.direction ?? 'asc', startFrom };
}

/** Each shard's first `limit` entries, merged in Qdrant's order: the first `limit` of the collection. */
export function mergeOrdered(parts: OrderedRecord[][], direction: 'asc' | 'desc', limit: number): OrderedRecord[] {
  return parts.flat().sort(compareOrdered(direction)).slice(0, limit);
}

/** Scroll in the order of an indexed payload value: each shard's first `limit`, merged. No next page offset (as Qdrant). */
async function scrollOrdered(
  engine: Engine,
  meta: CollectionMeta,
  orderBy: OrderBySpec,
  limit: number,
  filter: ReturnType<typeof parseFilter>,
  req: ScrollPoints,
): Promise<{ points: PointRecord[]; next_page_offset: PointId | null }> {
  const parts = await engine.router.fanOut<'scrollOrdered'>(meta, {
    op: 'scrollOrdered',
    orderBy,
    limit,
    filter,
    withPayload: payloadSelector(req.with_payload, true),
    withVector: vectorSelector(withVectorOf(req), meta),
  });
  return { points: mergeOrdered(parts, orderBy.direction, limit), next_page_offset: null };
}
