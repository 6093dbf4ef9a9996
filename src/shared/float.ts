// Vectors are stored as float32; clients expect them back as the shortest decimal that reads
// back to the same float32 (0.1, not 0.10000000149011612), as Qdrant prints them.

export function float32ToNumber(x: number): number {
  // Integers below 2^24 are exact in float32; larger floats still want their shortest digits.
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return x;
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return x;
}

export function float32ArrayToNumbers(v: Float32Array): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = float32ToNumber(v[i]!);
  return out;
}
