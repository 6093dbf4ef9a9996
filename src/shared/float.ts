// Vectors are stored as float32; clients expect them back as the shortest decimal that reads
// back to the same float32 (0.1, not 0.10000000149011612), as Qdrant prints them.

export function float32ToNumber(x: number): number {
  // Integers below 2^24 are exact in float32; larger floats still want their shortest digits.
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return x;
  for (let p = 1; p <= 9; p++) {
    // The nearest p-digit decimal, then its two neighbours: just above a power of two the float's
    // rounding interval is lopsided, so the nearest can miss while a neighbour reads back.
    let best: number | null = null;
    for (const y of pDigitDecimals(x, p)) {
      if (Math.fround(y) === x && (best === null || Math.abs(y - x) < Math.abs(best - x))) best = y;
    }
    if (best !== null) return best;
  }
  return x;
}

/** The p-significant-digit decimal nearest to x, and the ones a unit in its last digit away. */
function pDigitDecimals(x: number, p: number): number[] {
  const [mantissa = '0', exponent = '0'] = x.toExponential(p - 1).split('e');
  const sign = mantissa.startsWith('-') ? -1 : 1;
  const digits = BigInt(mantissa.replace('-', '').replace('.', ''));
  const scale = Number(exponent) - (p - 1);
  return [digits, digits - 1n, digits + 1n].map((d) => sign * Number(`${d}e${scale}`));
}

export function float32ArrayToNumbers(v: Float32Array): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = float32ToNumber(v[i]!);
  return out;
}
