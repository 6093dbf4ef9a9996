// Qdrant's slice of the id space (the `slice` filter condition): a point is in slice `index` of
// `total` when SipHash-2-4, under the all-zero key, of its id's canonical bytes (a numeric id's
// 8 little-endian bytes, a UUID's 16 RFC 4122 bytes) is `index` modulo `total`. The slices of one
// total are disjoint and cover every point, and slice i of total t holds slice i of total k x t.

import siphash from 'siphash';
import type { PointId } from './types.js';

const ZERO_KEY = [0, 0, 0, 0] as const;

function idBytes(id: PointId): Uint8Array {
  if (typeof id === 'number') {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, BigInt(id), true);
    return out;
  }
  const hex = id.replace(/-/g, '');
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The 64-bit slice hash of a point id. */
export function sliceHash(id: PointId): bigint {
  const { h, l } = siphash.hash(ZERO_KEY, idBytes(id));
  return (BigInt(h >>> 0) << 32n) | BigInt(l >>> 0);
}

/** Whether point `id` is in slice `index` of `total`. */
export function inSlice(id: PointId, total: number, index: number): boolean {
  return sliceHash(id) % BigInt(total) === BigInt(index);
}
