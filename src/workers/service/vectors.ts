// Deleting named vectors (dense or sparse) from points, keeping the points and their payload.

import { QuiverError } from '../../shared/errors.js';
import type { DeleteVectors } from '../../shared/schemas/points.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { perSelectedShard, pointSelection } from './selection.js';
import { StrictMode } from './strict-mode.js';
import { perShard, updateResult, type UpdateResult } from './writes.js';

export async function doDeleteVectors(engine: PointEngine, name: string, req: DeleteVectors, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  for (const v of req.vector) {
    if (meta.config.vectors[v] === undefined && meta.config.sparse_vectors[v] === undefined) {
      throw QuiverError.unknownVector(v);
    }
  }
  // Unlike the payload updates, Qdrant skips ids it does not have here (no 404), and so does Quiver.
  const sel = pointSelection(req);
  const strict = StrictMode.of(meta);
  strict?.filter(sel.filter, 'update');
  strict?.writeTokens(sel.ids?.length ?? 1);
  const opId = engine.nextOpId(meta.id);
  const names = [...new Set(req.vector)];
  await perShard(perSelectedShard(engine, meta, sel, (shard, { ids, filter }) => engine.call(meta, shard, { op: 'deleteVectors', opId, wait, names, ids, filter })));
  return updateResult(engine.operationId?.(opId) ?? opId, wait);
}
