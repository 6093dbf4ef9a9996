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
    const fast = shortestByScaling(x);
    if (fast !== null) return fast;
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

/** 10^0 .. 10^22: the powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * The fast path for a normal float32 that is not a power of two, by arithmetic instead of
 * toPrecision: for p = 6..9, the nearest p-digit decimal is round(|x| * 10^k) / 10^k with
 * k = p - 1 - floor(log10 |x|). With 10^k exact (|k| <= 22), the product is rounded once
 * (relative error 2^-53, under 1.2e-7 absolute below 10^9), so round() picks the nearest integer
 * unless the product is within 1e-6 of a half, and the quotient of two exact numbers is the
 * double nearest the decimal, as Number() of its digits is. The first that reads back, d x 10^-k,
 * is answered as one number, d * 64 + (k + 22) (k is within +-22; no object on this hot path);
 * -1 where that does not hold (a near-half, a scale out of range, an exponent estimate off):
 * toPrecision decides.
 */
function scaledDigits(ax: number): number {
  let e = Math.floor(Math.log10(ax));
  // log10 may be one off next to a power of ten: checked against the exact powers where they are.
  if (e >= 0 && e < 22) {
    if (ax < POW10[e]!) e--;
    else if (ax >= POW10[e + 1]!) e++;
  }
  for (let p = 6; p <= 9; p++) {
    const k = p - 1 - e;
    if (k > 22 || k < -22) return -1;
    const scaled = k >= 0 ? ax * POW10[k]! : ax / POW10[-k]!;
    const d = Math.round(scaled);
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) return -1;
    if (Math.fround(k >= 0 ? d / POW10[k]! : d * POW10[-k]!) === ax) return d * 64 + (k + 22);
  }
  // Nine digits always read back: an exponent estimate was off.
  return -1;
}

/** float32ToNumber's fast path (scaledDigits), or null where toPrecision decides. */
function shortestByScaling(x: number): number | null {
  const found = scaledDigits(Math.abs(x));
  if (found < 0) return null;
  const d = Math.floor(found / 64);
  const k = (found % 64) - 22;
  const y = k >= 0 ? d / POW10[k]! : d * POW10[-k]!;
  return x < 0 ? -y : y;
}

/** The p-significant-digit decimals a unit in the last digit either side of the nearest to x. */
function pDigitNeighbours(x: number, p: number): number[] {
  const [mantissa = '0', exponent = '0'] = x.toExponential(p - 1).split('e');
  const sign = mantissa.startsWith('-') ? -1 : 1;
  const digits = BigInt(mantissa.replace('-', '').replace('.', ''));
  const scale = Number(exponent) - (p - 1);
  return [digits - 1n, digits + 1n].map((d) => sign * Number(`${d}e${scale}`));
}

// ---- JSON text of a whole float32 array (REST responses: response-json.ts) ----------------------

/** Bytes of the text being written (grown as needed; one thread writes one array at a time). */
let text = new Uint8Array(4096);
const latin1 = new TextDecoder('latin1');

/**
 * Writes x's shortest decimal (float32ToNumber's, as String() writes that number) at `at` and
 * answers where it ends, for the common case: a normal float32 that is not a power of two, from
 * 1e-6 up to 1e9, that scaledDigits decides (its digits written out directly instead of
 * formatted by Number's toString). -1: not that case.
 */
function writeShortest(x: number, at: number): number {
  const ax = Math.abs(x);
  if (!(ax >= 1e-6 && ax < 1e9) || Number.isInteger(ax) || powerOfTwo(x)) return -1;
  const found = scaledDigits(ax);
  let d = Math.floor(found / 64);
  let k = (found % 64) - 22;
  if (found < 0 || k < 1) return -1;
  while (d % 10 === 0) {
    d /= 10;
    k--;
  }
  let digits = 1;
  while (digits < 10 && d >= POW10[digits]!) digits++;
  // The decimal point falls after `before` digits; at or before the first, "0." and zeros lead.
  const before = digits - k;
  if (x < 0) text[at++] = 45; // '-'
  if (before <= 0) {
    text[at++] = 48; // '0'
    text[at++] = 46; // '.'
    for (let z = 0; z < -before; z++) text[at++] = 48;
  }
  const end = at + digits + (before > 0 ? 1 : 0);
  for (let i = end - 1; i >= at; i--) {
    if (before > 0 && i === at + before) {
      text[i] = 46;
      continue;
    }
    text[i] = 48 + (d % 10);
    d = Math.floor(d / 10);
  }
  return end;
}

/**
 * The JSON array of a float32 array's values at their shortest decimals: the same text as
 * JSON.stringify of float32ToNumber of each (non-finite values as null), written byte by byte
 * for the common values, which formats them about twice as fast.
 */
export function float32ArrayJson(v: Float32Array): string {
  if (text.length < v.length * 24 + 2) text = new Uint8Array(v.length * 24 + 2);
  let at = 0;
  text[at++] = 91; // '['
  for (let i = 0; i < v.length; i++) {
    if (i > 0) text[at++] = 44; // ','
    const x = v[i]!;
    const end = writeShortest(x, at);
    if (end >= 0) {
      at = end;
      continue;
    }
    const s = JSON.stringify(Number.isFinite(x) ? float32ToNumber(x) : null);
    for (let c = 0; c < s.length; c++) text[at++] = s.charCodeAt(c);
  }
  text[at++] = 93; // ']'
  return latin1.decode(text.subarray(0, at));
}

// ---- Rust's Display of an f32 (messages that quote Qdrant's) ----------------------------------

/** A decimal written out without an exponent ("9.5e-7" as "0.00000095"), as Rust prints floats. */
function withoutExponent(s: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (m === null) return s;
  const digits = m[2]! + (m[3] ?? '');
  const point = 1 + Number(m[4]);
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] + body;
}

/** `x` as an f32 as Rust's Display writes it: its shortest decimal (float32ToNumber), with no exponent. */
export function rustF32(x: number): string {
  return withoutExponent(String(float32ToNumber(Math.fround(x))));
}
