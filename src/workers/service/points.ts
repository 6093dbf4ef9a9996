// Point operations: upsert, retrieve, delete, update vectors, count, scroll.

import { QuiverError } from '../../shared/errors.js';
import type { OrderBySpec, WriteCondition } from '../../shared/protocol.js';
import { comparePointIds, parsePathPointId, parsePointId, pointNotFound } from '../../shared/ids.js';
import type { CountPoints, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints, VectorStruct } from '../../shared/schemas/points.js';
import type { CollectionMeta, PointId, PointRecord } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { parseFilter } from './filter-parse.js';
import { checkResultWindow } from './limits.js';
import { mergeOrdered, orderBySpec } from './order-by.js';
import { checkPoints, refuseUnsupported, packBatch, parseIds, payloadSelector, vectorSelector, withVectorOf, type PointInput } from './request-forms.js';
import { retrieveByIds } from './retrieve.js';
import { perSelectedShard } from './selection.js';
import { perShard, requireExisting, updateResult, type UpdateResult } from './writes.js';
import { isInferenceInput } from './bm25.js';
import { StrictMode, storedBytes } from './strict-mode.js';
import { timedRead } from './issues.js';

async function writePoints(
  engine: PointEngine,
  meta: CollectionMeta,
  op: 'upsert' | 'updateVectors',
  points: PointInput[],
  wait: boolean,
  condition: WriteCondition,
): Promise<number> {
  // Strict mode, before anything is written (strict-mode.ts).
  const strict = StrictMode.of(meta);
  if (strict !== null) {
    // In Qdrant's order: the batch size, the collection's size, the vectors' own limits.
    strict.writeBatch(points.length, op === 'upsert' ? 'upsert limit' : 'update limit');
    strict.writeTokens(points.length);
    if (strict.countsStorage(false)) strict.storage(await storedBytes(engine, meta), false);
    strict.vectors(points);
    strict.memory();
  }
  const opId = engine.nextOpId(meta.id);
  const parts: Promise<{ applied: number; error?: string }>[] = [];
  for (const [shard, idx] of engine.partition(meta, points.map((p) => p.id))) {
    const { batch, transfer } = packBatch(meta, idx.map((i) => points[i]!));
    // Each branch narrows `op`, so the request is checked against that op's own shape.
    parts.push(
      op === 'upsert'
        ? engine.call(meta, shard, { op, opId, wait, batch, condition }, transfer)
        : engine.call(meta, shard, { op, opId, wait, batch, condition }, transfer),
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
  return engine.operationId?.(opId) ?? opId;
}

export async function doUpsert(engine: PointEngine, name: string, req: UpsertPoints, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const condition: WriteCondition = { mode: req.update_mode ?? 'upsert', updateFilter: parseFilter(req.update_filter) };
  let points: PointInput[];
  if ('points' in req) {
    points = checkPoints(meta, req.points, false);
  } else {
    const { ids, vectors, payloads } = req.batch;
    // Documents in a batch must be named: the unnamed vector is dense (Qdrant's answer).
    if (Array.isArray(vectors) && vectors.some(isInferenceInput)) throw QuiverError.badInput('Bad request: Document processing is not supported in batch operations.');
    const named: Record<string, unknown[]> = Array.isArray(vectors) ? { '': vectors } : vectors;
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
        vector: Object.fromEntries(Object.entries(named).map(([vname, rows]) => [vname, rows[i]!])) as VectorStruct,
        payload: payloads?.[i] ?? null,
      })),
      false,
    );
  }
  return updateResult(await writePoints(engine, meta, 'upsert', points, wait, condition), wait);
}

export async function doUpdateVectors(engine: PointEngine, name: string, req: UpdateVectors, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const condition: WriteCondition = { mode: 'update_only', updateFilter: parseFilter(req.update_filter) };
  const points = checkPoints(meta, req.points, true);
  await requireExisting(engine, meta, points.map((p) => p.id));
  return updateResult(await writePoints(engine, meta, 'updateVectors', points, wait, condition), wait);
}

export async function doDeletePoints(engine: PointEngine, name: string, req: PointsSelector, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const sel = 'points' in req ? { ids: parseIds(req.points), filter: null } : { ids: null, filter: parseFilter(req.filter) };
  const strict = StrictMode.of(meta);
  strict?.filter(sel.filter, 'update');
  strict?.writeTokens(sel.ids?.length ?? 1);
  const opId = engine.nextOpId(meta.id);
  await perShard(perSelectedShard(engine, meta, sel, (shard, { ids, filter }) => engine.call(meta, shard, { op: 'delete', opId, wait, ids, filter })));
  return updateResult(engine.operationId?.(opId) ?? opId, wait);
}

/** Points by id, with what the request asks each to carry. */
function retrieve(engine: PointEngine, meta: CollectionMeta, ids: PointId[], req: Pick<RetrievePoints, 'with_payload' | 'with_vector' | 'with_vectors'>): Promise<PointRecord[]> {
  return retrieveByIds(engine, meta, ids, payloadSelector(req.with_payload, true), vectorSelector(withVectorOf(req), meta));
}

export async function doRetrieve(engine: PointEngine, name: string, req: RetrievePoints): Promise<PointRecord[]> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const ids = parseIds(req.ids);
  StrictMode.of(meta)?.readTokens(ids.length);
  return retrieve(engine, meta, ids, req);
}

export async function doGetPoint(engine: PointEngine, name: string, rawId: string): Promise<PointRecord> {
  const meta = engine.collection(name);
  const id = parsePathPointId(rawId);
  const [rec] = await retrieve(engine, meta, [id], { with_payload: true, with_vector: true });
  if (rec === undefined) throw pointNotFound(id);
  return rec;
}

export async function doCount(engine: PointEngine, name: string, req: CountPoints): Promise<{ count: number }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const filter = parseFilter(req.filter);
  const strict = StrictMode.of(meta);
  strict?.filter(filter, 'retrieve');
  strict?.exact(req.exact ?? true);
  strict?.readTokens(StrictMode.readCost(filter));
  const counts = await timedRead(meta, [filter], () => engine.fanOut(meta, { op: 'count', filter, exact: req.exact ?? true }));
  return { count: counts.reduce((a, b) => a + b, 0) };
}

export async function doScroll(engine: PointEngine, name: string, req: ScrollPoints): Promise<{ points: PointRecord[]; next_page_offset: PointId | null }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const limit = req.limit ?? 10;
  checkResultWindow(limit, null);
  const offset = req.offset === undefined || req.offset === null ? null : parsePointId(req.offset);
  const filter = parseFilter(req.filter);
  const strict = StrictMode.of(meta);
  strict?.limit(limit);
  strict?.filter(filter, 'retrieve');
  strict?.readTokens(StrictMode.readCost(filter));
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
  const parts = await timedRead(meta, [filter], () =>
    engine.fanOut(meta, {
      op: 'scroll',
      offset,
      limit: limit + 1,
      filter,
      withPayload: payloadSelector(req.with_payload, true),
      withVector: vectorSelector(withVectorOf(req), meta),
    }),
  );
  const merged = parts.flat().sort((a, b) => comparePointIds(a.id, b.id));
  return { points: merged.slice(0, limit), next_page_offset: merged[limit]?.id ?? null };
}


/** Scroll in the order of an indexed payload value: each shard's first `limit`, merged. No next page offset (as Qdrant). */
async function scrollOrdered(
  engine: PointEngine,
  meta: CollectionMeta,
  orderBy: OrderBySpec,
  limit: number,
  filter: ReturnType<typeof parseFilter>,
  req: ScrollPoints,
): Promise<{ points: PointRecord[]; next_page_offset: PointId | null }> {
  const parts = await engine.fanOut(meta, {
    op: 'scrollOrdered',
    orderBy,
    limit,
    filter,
    withPayload: payloadSelector(req.with_payload, true),
    withVector: vectorSelector(withVectorOf(req), meta),
  });
  return { points: mergeOrdered(parts, orderBy.direction, limit), next_page_offset: null };
}
