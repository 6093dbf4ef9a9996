// Points by id: each id is asked of the shard it lives in, and the records come back in the
// order of the ids (first occurrence; duplicates once; unknown ids left out). Retrieve, get
// point, the existence check of writes, a query by point id and the payloads of fused results
// all read through here.

import type { CollectionMeta, PayloadSelector, PointId, PointRecord, VectorSelector } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';

export async function retrieveByIds(
  engine: Pick<PointEngine, 'partition' | 'call'>,
  meta: CollectionMeta,
  ids: readonly PointId[],
  withPayload: PayloadSelector,
  withVector: VectorSelector,
): Promise<PointRecord[]> {
  const unique = [...new Set(ids)];
  const parts = await Promise.all(
    [...engine.partition(meta, unique)].map(([shard, idx]) =>
      engine.call(meta, shard, { op: 'retrieve', ids: idx.map((i) => unique[i]!), withPayload, withVector }),
    ),
  );
  const byId = new Map<PointId, PointRecord>();
  for (const rec of parts.flat()) byId.set(rec.id, rec);
  return unique.flatMap((id) => byId.get(id) ?? []);
}
