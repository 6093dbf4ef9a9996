// The one growth rule for in-memory capacities that are allocated ahead of use (vector store
// chunks, HNSW graph capacity, per-slot typed arrays): grow by a quarter, not by doubling, so
// capacity left unused stays at most about 25% of what is used (issue 14). A quarter keeps the
// number of grow steps logarithmic (about 30 from 1,000 to 1,000,000 slots).

/** The fraction by which a capacity grows. */
export const GROWTH = 0.25;

/** A capacity of at least `need`: `current` grown by 25%, and never below `min`. */
export function grownCapacity(current: number, need: number, min: number): number {
  return Math.max(need, min, Math.ceil(current * (1 + GROWTH)));
}

/** A copy of `a` with room for at least `need` elements (grown by grownCapacity); `a` itself if it has room. */
export function grownArray<T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(a: T, need: number, make: (n: number) => T, min = 1024): T {
  if (need <= a.length) return a;
  const b = make(grownCapacity(a.length, need, min));
  b.set(a);
  return b;
}
