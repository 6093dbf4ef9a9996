// Vector names created and deleted on a live collection (Qdrant 1.19's `PUT` and `DELETE
// /collections/{name}/vectors/{vector_name}`, gRPC CreateVectorName and DeleteVectorName): a
// change of the collection's configuration, made as a PATCH is (Engine.updateCollection, on every
// node in cluster mode), the points kept. In the shards (Shard.updateMeta), a new name starts
// empty and points get it by update or upsert; a deleted one leaves memory, its graph and every
// point's record. Qdrant's rules: the same name and definition again is a no-op, another
// definition (or the other kind) a 400; deleting a name the collection lacks is a no-op.

import { QuiverError } from '../../shared/errors.js';
import type { VectorNameConfig } from '../../shared/schemas/collections.js';
import type { CollectionConfig, SparseVectorParams, VectorParams } from '../../shared/types.js';
import { updateResult, type UpdateResult } from '../../workers/service/writes.js';
import type { Engine } from '../engine.js';
import { sparseParams, vectorParams } from './collections.js';
import { checkQuantizable } from './quantization.js';
import { checkStorageSettings } from './storage-settings.js';

/** What defines a dense vector's rows: a name created again with these is the same vector. */
const denseKind = (p: VectorParams): string => JSON.stringify([p.size, p.distance, p.multivector_config !== undefined, p.datatype ?? 'float32']);

/** '' is the unnamed vector, which only a collection's creation makes. */
function checkVectorName(vector: string): void {
  if (vector === '') throw QuiverError.unprocessable('Validation error in JSON body: [vector_name: must not be empty]');
}

export async function doCreateVectorName(engine: Engine, name: string, vector: string, req: VectorNameConfig, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  checkVectorName(vector);
  const config: CollectionConfig = structuredClone(meta.config);
  const opId = engine.nextOpId(meta.id);
  if ('dense' in req) {
    if (config.sparse_vectors[vector] !== undefined) throw QuiverError.badInput(`Wrong input: Vector \`${vector}\` already exists as a sparse vector`);
    const params = vectorParams(req.dense, vector);
    const current = config.vectors[vector];
    if (current !== undefined) {
      if (denseKind(current) === denseKind(params)) return updateResult(opId, wait);
      throw QuiverError.badInput(`Wrong input: Vector \`${vector}\` already exists with a different configuration`);
    }
    config.vectors[vector] = params;
  } else {
    if (config.vectors[vector] !== undefined) throw QuiverError.badInput(`Wrong input: Vector \`${vector}\` already exists as a dense vector`);
    const params: SparseVectorParams = sparseParams({ modifier: req.sparse.modifier ?? null, index: req.sparse.datatype === undefined ? null : { datatype: req.sparse.datatype } });
    const current = config.sparse_vectors[vector];
    if (current !== undefined) {
      if (current.modifier === params.modifier) return updateResult(opId, wait);
      throw QuiverError.badInput(`Wrong input: Vector \`${vector}\` already exists with a different configuration`);
    }
    config.sparse_vectors[vector] = params;
  }
  checkQuantizable(config);
  checkStorageSettings(config, meta.config);
  await engine.updateCollection({ ...meta, config });
  return updateResult(opId, wait);
}

export async function doDeleteVectorName(engine: Engine, name: string, vector: string, wait: boolean): Promise<UpdateResult> {
  const meta = engine.collection(name);
  checkVectorName(vector);
  const opId = engine.nextOpId(meta.id);
  if (meta.config.vectors[vector] === undefined && meta.config.sparse_vectors[vector] === undefined) return updateResult(opId, wait);
  const config: CollectionConfig = structuredClone(meta.config);
  delete config.vectors[vector];
  delete config.sparse_vectors[vector];
  await engine.updateCollection({ ...meta, config });
  return updateResult(opId, wait);
}
