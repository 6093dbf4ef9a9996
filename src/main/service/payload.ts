// Payload operations: set (merge, optionally at a nested key), overwrite, delete keys, clear;
// each over the points named or the points a filter matches.

import { QuiverError } from '../../shared/errors.js';
import { invalidPathMessage, parseJsonPath } from '../../shared/json-path.js';
import type { Filter } from '../../shared/filter.js';
import type { PayloadOp } from '../../shared/protocol.js';
import type { ClearPayload, DeletePayload, SetPayload } from '../../shared/schemas/payload.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { checkPayload, parseIds, refuseUnsupported } from './convert.js';
import { parseFilter } from './filter-parse.js';
import { perShard, requireExisting, updateResult, type UpdateResult } from './points.js';

type Selection = Pick<ClearPayload, 'points' | 'filter' | 'shard_key'>;

/** The points a request names (all must exist) or the filter it selects them by; exactly one. */
export function selection(req: Selection): { ids: PointId[] | null; filter: Filter | null } {
  refuseUnsupported(req, ['shard_key']);
  const hasPoints = req.points !== undefined && req.points !== null;
  const filter = parseFilter(req.filter);
  if (hasPoints === (filter !== null)) throw QuiverError.badInput('Either `points` or `filter` is required, not both');
  return { ids: hasPoints ? parseIds(req.points!) : null, filter };
}

async function apply(engine: Engine, meta: CollectionMeta, req: Selection, change: PayloadOp, wait: boolean): Promise<UpdateResult> {
  const { ids, filter } = selection(req);
  if (ids !== null) await requireExisting(engine, meta, ids);
  const opId = engine.nextOpId(meta.id);
  const calls =
    ids !== null
      ? [...engine.router.partition(meta, ids)].map(([shard, idx]) =>
          engine.router.call<'payload'>(meta, shard, { op: 'payload', opId, wait, change, ids: idx.map((i) => ids[i]!), filter: null }),
        )
      : Array.from({ length: meta.config.shard_number }, (_, shard) =>
          engine.router.call<'payload'>(meta, shard, { op: 'payload', opId, wait, change, ids: null, filter }),
        );
  await perShard(calls);
  return updateResult(opId, wait);
}

/** Payload keys are JSON paths, refused as Qdrant refuses them before anything is written. */
function checkPath(key: string, where: string): void {
  if (parseJsonPath(key) === null) throw QuiverError.badInput(`Bad ${where}: ${invalidPathMessage(key)}`);
}

export async function doSetPayload(engine: Engine, name: string, req: SetPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  if (req.key !== undefined && req.key !== null) checkPath(req.key, 'key');
  const payload = checkPayload(req.payload, 'payload') ?? {};
  return apply(engine, meta, req, { kind: 'set', payload, key: req.key ?? null }, wait);
}

export async function doOverwritePayload(engine: Engine, name: string, req: SetPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  if (req.key !== undefined && req.key !== null) throw QuiverError.badInput('`key` is not allowed when overwriting a payload');
  const payload = checkPayload(req.payload, 'payload') ?? {};
  return apply(engine, meta, req, { kind: 'overwrite', payload }, wait);
}

export async function doDeletePayload(engine: Engine, name: string, req: DeletePayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  req.keys.forEach((k, i) => checkPath(k, `keys[${i}]`));
  return apply(engine, meta, req, { kind: 'delete', keys: req.keys }, wait);
}

export async function doClearPayload(engine: Engine, name: string, req: ClearPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  return apply(engine, meta, req, { kind: 'clear' }, wait);
}
