// A write batch's vectors, point by point: the columns of a PointBatch (packed rows with a
// presence mask) read as one Row per point. The batch's buffers belong to the message: dense
// rows and multivectors are views into them (their stores copy them), sparse ones are copied.

import type { PointBatch, SparseVec } from '../../shared/protocol.js';

/** One point's vectors as a write carries them. */
export interface Row {
  dense: Record<string, Float32Array>;
  sparse: Record<string, SparseVec>;
  /** Multivectors: sub-vectors packed. */
  multi: Record<string, Float32Array>;
}

/**
 * Point i's row reader for `batch`. `dimOf` gives a dense vector's dimension, `has` whether the
 * shard holds a sparse or multivector name. A name the shard does not hold is left out: the
 * service checked every name against the collection, so only a write racing the deletion of that
 * vector name gets here with one, and the deletion wins, as it does on a replica that applied the
 * write first and purged the vector after (docs/storage.md, "Vector names on a live collection").
 */
export function batchRows(batch: PointBatch, dimOf: (name: string) => number | undefined, has: (name: string) => boolean): (i: number) => Row {
  // Row offsets per column, computed once: point i's row in a column with a presence mask is
  // the count of present flags before it.
  const cols = Object.entries(batch.vectors).flatMap(([name, col]) => {
    const dim = dimOf(name);
    if (dim === undefined) return [];
    const rowOf = new Int32Array(batch.ids.length).fill(-1);
    let r = 0;
    for (let i = 0; i < batch.ids.length; i++) {
      if (col.present === null || col.present[i] === 1) rowOf[i] = r++;
    }
    return [{ name, col, dim, rowOf }];
  });
  const sparse = Object.entries(batch.sparse).filter(([name]) => has(name));
  const multi = Object.entries(batch.multi ?? {}).filter(([name]) => has(name));
  return (i) => {
    const out: Row = { dense: {}, sparse: {}, multi: {} };
    for (const { name, col, dim, rowOf } of cols) {
      const r = rowOf[i]!;
      if (r >= 0) out.dense[name] = col.data.subarray(r * dim, (r + 1) * dim);
    }
    for (const [name, col] of sparse) {
      if (col.present[i] !== 1) continue;
      const from = col.offsets[i]!;
      const to = col.offsets[i + 1]!;
      // Copies: the batch's buffers are not kept after the write.
      out.sparse[name] = { indices: col.indices.slice(from, to), values: col.values.slice(from, to) };
    }
    for (const [name, col] of multi) if (col.present[i] === 1) out.multi[name] = col.data.subarray(col.offsets[i]!, col.offsets[i + 1]!);
    return out;
  };
}
