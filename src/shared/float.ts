// Vectors are stored as float32; clients expect them back as the shortest decimal that reads
// back to the same float32 (0.1, not 0.10000000149011612), as Qdrant prints them.

/** The smallest normal float32, 2^-126: below it the rounding interval is wider (subnormals). */
const MIN_NORMAL = 2 ** -126;

const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** True when x (a float32) is a power of two: its mantissa bits are all zero. */
function powerOfTwo(x: number): boolean {
  scratch[0] = x;
  return (scratchBits[0]! & 0x7fffff) === 0;
}

export function float32ToNumber(x: number): number {
  // Integers below 2^24 are exact in float32; larger floats still want their shortest digits.
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return x;
  // The rounding interval around a float32 is symmetric, so the nearest p-digit decimal is the
  // only one that can read back, except at a power of two, where the interval below is half the
  // one above and a neighbour of the nearest decimal may read back when the nearest does not.
  const lopsided = powerOfTwo(x);
  if (!lopsided && Math.abs(x) >= MIN_NORMAL) {
    // Six significant digits are spaced wider (at least 1e-6 relative) than a normal float32's
    // rounding interval (at most 2^-23 relative), so at most one 6-digit decimal reads back: when
    // the shortest has fewer digits it is that one, padded, and the same number. One toPrecision
    // answers most floats; 7 to 9 digits the rest, the nearest first (9 always reads back). Up to
    // nine calls per float made a 5,000 x 128 scroll take two seconds.
    for (let p = 6; p <= 9; p++) {
      const y = Number(x.toPrecision(p));
      if (Math.fround(y) === x) return y;
    }
    return x;
  }
  for (let p = 1; p <= 9; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
    if (lopsided) {
      let best: number | null = null;
      for (const z of pDigitNeighbours(x, p)) {
        if (Math.fround(z) === x && (best === null || Math.abs(z - x) < Math.abs(best - x))) best = z;
      }
      if (best !== null) return best;
    }
  }
  return x;
}

/** The p-significant-digit decimals a unit in the last digit either side of the nearest to x. */
function pDigitNeighbours(x: number, p: number): number[] {
  const [mantissa = '0', exponent = '0'] = x.toExponential(p - 1).split('e');
  const sign = mantissa.startsWith('-') ? -1 : 1;
  const digits = BigInt(mantissa.replace('-', '').replace('.', ''));
  const scale = Number(exponent) - (p - 1);
  return [digits - 1n, digits + 1n].map((d) => sign * Number(`${d}e${scale}`));
}

export function float32ArrayToNumbers(v: Float32Array): number[] {
  const out = new Array<number>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = float32ToNumber(v[i]!);
  return out;
}
