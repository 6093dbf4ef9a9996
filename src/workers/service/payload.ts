// Payload operations: set (merge, optionally at a nested key), overwrite, delete keys, clear;
// each over the points named or the points a filter matches.

import { QuiverError } from '../../shared/errors.js';
import { requireJsonPath } from '../../shared/json-path.js';
import type { PayloadOp } from '../../shared/protocol.js';
import type { ClearPayload, DeletePayload, SetPayload } from '../../shared/schemas/payload.js';
import type { CollectionMeta } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { checkPayload } from './request-forms.js';
import { StrictMode, storedBytes } from './strict-mode.js';
import { perSelectedShard, pointSelection, type SelectionFields } from './selection.js';
import { perShard, requireExisting, updateResult, type UpdateResult } from './writes.js';

async function apply(engine: PointEngine, meta: CollectionMeta, req: SelectionFields, change: PayloadOp, wait: boolean): Promise<UpdateResult> {
  const sel = pointSelection(req);
  const strict = StrictMode.of(meta);
  strict?.filter(sel.filter, 'update');
  strict?.writeTokens(sel.ids?.length ?? 1);
  if (change.kind === 'set' || change.kind === 'overwrite') {
    strict?.memory();
    if (strict?.countsStorage(true) === true) strict.storage(await storedBytes(engine, meta), true);
  }
  if (sel.ids !== null) await requireExisting(engine, meta, sel.ids);
  const opId = engine.nextOpId(meta.id);
  await perShard(perSelectedShard(engine, meta, sel, (shard, { ids, filter }) => engine.call(meta, shard, { op: 'payload', opId, wait, change, ids, filter })));
  return updateResult(engine.operationId?.(opId) ?? opId, wait);
}

export async function doSetPayload(engine: PointEngine, name: string, req: SetPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  if (req.key !== undefined && req.key !== null) requireJsonPath(req.key, 'Bad key');
  const payload = checkPayload(req.payload, 'payload') ?? {};
  return apply(engine, meta, req, { kind: 'set', payload, key: req.key ?? null }, wait);
}

export async function doOverwritePayload(engine: PointEngine, name: string, req: SetPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  if (req.key !== undefined && req.key !== null) throw QuiverError.badInput('`key` is not allowed when overwriting a payload');
  const payload = checkPayload(req.payload, 'payload') ?? {};
  return apply(engine, meta, req, { kind: 'overwrite', payload }, wait);
}

export async function doDeletePayload(engine: PointEngine, name: string, req: DeletePayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  // Payload keys are JSON paths, refused as Qdrant refuses them before anything is written.
  req.keys.forEach((k, i) => requireJsonPath(k, `Bad keys[${i}]`));
  return apply(engine, meta, req, { kind: 'delete', keys: req.keys }, wait);
}

export async function doClearPayload(engine: PointEngine, name: string, req: ClearPayload, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  return apply(engine, meta, req, { kind: 'clear' }, wait);
}
