// Deleting named vectors (dense or sparse) from points, keeping the points and their payload.

import { QuiverError } from '../../shared/errors.js';
import type { DeleteVectors } from '../../shared/schemas/points.js';
import type { Engine } from '../engine.js';
import { selection } from './payload.js';
import { perShard, updateResult, type UpdateResult } from './points.js';

export async function doDeleteVectors(engine: Engine, name: string, req: DeleteVectors, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  for (const v of req.vector) {
    if (meta.config.vectors[v] === undefined && meta.config.sparse_vectors[v] === undefined) {
      throw QuiverError.badInput(`Wrong input: Not existing vector name error: ${v}`);
    }
  }
  // Unlike the payload updates, Qdrant skips ids it does not have here (no 404), and so does Quiver.
  const { ids, filter } = selection(req);
  const opId = engine.nextOpId(meta.id);
  const names = [...new Set(req.vector)];
  await perShard(
    ids !== null
      ? [...engine.router.partition(meta, ids)].map(([shard, idx]) =>
          engine.router.call<'deleteVectors'>(meta, shard, { op: 'deleteVectors', opId, wait, names, ids: idx.map((i) => ids[i]!), filter: null }),
        )
      : Array.from({ length: meta.config.shard_number }, (_, shard) =>
          engine.router.call<'deleteVectors'>(meta, shard, { op: 'deleteVectors', opId, wait, names, ids: null, filter }),
        ),
  );
  return updateResult(opId, wait);
}
