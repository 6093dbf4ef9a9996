// Batch update (`POST /collections/{name}/points/batch`, gRPC UpdateBatch): a list of point and
// payload writes run in order through the same service functions as their own endpoints, each
// with its own operation id. As in Qdrant the batch is not atomic: an operation that fails stops
// it, its error names its index, and the operations before it stay applied.

import { QuiverError } from '../../shared/errors.js';
import type { UpdateOperation, UpdateOperations } from '../../shared/schemas/batch.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from './payload.js';
import { doDeletePoints, doUpdateVectors, doUpsert } from './points.js';
import { doDeleteVectors } from './vectors.js';
import type { UpdateResult } from './writes.js';
import { writeWithin } from './request-timeout.js';

function run(engine: PointEngine, name: string, op: UpdateOperation, wait: boolean): Promise<UpdateResult> {
  if ('upsert' in op) return doUpsert(engine, name, op.upsert, wait);
  if ('delete' in op) return doDeletePoints(engine, name, op.delete, wait);
  if ('set_payload' in op) return doSetPayload(engine, name, op.set_payload, wait);
  if ('overwrite_payload' in op) return doOverwritePayload(engine, name, op.overwrite_payload, wait);
  if ('delete_payload' in op) return doDeletePayload(engine, name, op.delete_payload, wait);
  if ('clear_payload' in op) return doClearPayload(engine, name, op.clear_payload, wait);
  if ('update_vectors' in op) return doUpdateVectors(engine, name, op.update_vectors, wait);
  return doDeleteVectors(engine, name, op.delete_vectors, wait);
}

/**
 * Runs the batch, one operation after another. With a wait `deadline` (request-timeout.ts), an
 * operation not done by then answers wait_timeout once it has been sent, and the next is sent.
 */
export async function doBatchUpdate(engine: PointEngine, name: string, req: UpdateOperations, wait: boolean, deadline: number | null = null): Promise<UpdateResult[]> {
  engine.collection(name); // an unknown collection is a 404 even for an empty batch
  const results: UpdateResult[] = [];
  for (const [i, op] of req.operations.entries()) {
    try {
      results.push(await writeWithin(engine, deadline, (e) => run(e, name, op, wait)));
    } catch (err) {
      if (!(err instanceof QuiverError)) throw err;
      const done = i === 0 ? 'nothing was applied' : i === 1 ? 'operation 0 was applied' : `operations 0 to ${i - 1} were applied`;
      throw new QuiverError(err.code, `Batch operation ${i} (${Object.keys(op)[0]}) failed: ${err.message}; ${done}`);
    }
  }
  return results;
}
