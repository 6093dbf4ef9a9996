// Vectors are stored as float32; clients expect them back as the shortest decimal that reads
// back to the same float32 (0.1, not 0.10000000149011612), as Qdrant prints them: of the shortest,
// the nearest, and of two nearest (a float32 exactly halfway, such as 3.86328125 at 8 digits),
// the one with the even last digit, as Rust's float printing and C++'s std::to_chars choose.

import { loadSmallAddon } from './native-addon.js';

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
      const y = nearestDecimal(x, p);
      if (Math.fround(y) === x) return y;
    }
    return x;
  }
  for (let p = 1; p <= 9; p++) {
    const y = nearestDecimal(x, p);
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

/**
 * The p-significant-digit decimal nearest to x, a tie to the even last digit (toPrecision rounds
 * a tie away from zero). A tie needs x's exact expansion to end in a 5 at digit p + 1, so only
 * then is the equality checked exactly, in integers.
 */
function nearestDecimal(x: number, p: number): number {
  const rounded = Number(x.toPrecision(p));
  const [mantissa = '0', exponent = '0'] = x.toExponential(p).split('e');
  if (!mantissa.endsWith('5')) return rounded;
  const longer = BigInt(mantissa.replace('-', '').replace('.', ''));
  const scale = Number(exponent) - p;
  // x = m * 2^e exactly (float32 fields); the tie is m * 2^e = longer * 10^scale.
  scratch[0] = Math.abs(x);
  const bits = scratchBits[0]!;
  const field = bits >>> 23;
  const m = BigInt(field === 0 ? bits & 0x7fffff : (bits & 0x7fffff) | 0x800000);
  const e = (field === 0 ? 1 : field) - 150;
  const lhs = m * 2n ** BigInt(Math.max(e, 0)) * 10n ** BigInt(Math.max(-scale, 0));
  const rhs = longer * 10n ** BigInt(Math.max(scale, 0)) * 2n ** BigInt(Math.max(-e, 0));
  if (lhs !== rhs) return rounded;
  const below = longer / 10n;
  const even = below % 2n === 0n ? below : below + 1n;
  return (x < 0 ? -1 : 1) * Number(`${even}e${scale + 1}`);
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

/**
 * The addon src/native/build-float-text.mjs builds (float-text.cc): the same text, written with
 * std::to_chars, about three times faster. Null where it was not built: the JavaScript below.
 */
const nativeWrite = ((): ((values: Float32Array, out: Uint8Array, at: number) => number) | null => {
  const addon = loadSmallAddon('QUIVER_FLOAT_TEXT_DIR', 'float-text', 'float_text');
  return typeof addon?.writeArrayJson === 'function' ? (addon.writeArrayJson as (values: Float32Array, out: Uint8Array, at: number) => number) : null;
})();

/** Whether float32ArrayJson writes with the native addon (the float tests name which path they held to the text). */
export const FLOAT_TEXT_NATIVE = nativeWrite !== null;

/** Bytes of float32ArrayJson's text (grown as needed; one thread writes one array at a time). */
let text = new Uint8Array(4096);
const latin1 = new TextDecoder('latin1');

/**
 * Writes x's shortest decimal (float32ToNumber's, as String() writes that number) at `at` and
 * answers where it ends, for the common case: a normal float32 that is not a power of two, from
 * 1e-6 up to 1e9, that scaledDigits decides (its digits written out directly instead of
 * formatted by Number's toString). -1: not that case.
 */
function writeShortest(x: number, out: Uint8Array, at: number): number {
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
  if (x < 0) out[at++] = 45; // '-'
  if (before <= 0) {
    out[at++] = 48; // '0'
    out[at++] = 46; // '.'
    for (let z = 0; z < -before; z++) out[at++] = 48;
  }
  const end = at + digits + (before > 0 ? 1 : 0);
  for (let i = end - 1; i >= at; i--) {
    if (before > 0 && i === at + before) {
      out[i] = 46;
      continue;
    }
    out[i] = 48 + (d % 10);
    d = Math.floor(d / 10);
  }
  return end;
}

/** The most bytes writeFloat32ArrayJson writes for an array of n values. */
export function float32ArrayJsonBytes(n: number): number {
  // A value and its comma take at most 23 bytes: "-100000000000000000000" (1e20: JavaScript writes
  // up to 21 digits out in full); brackets around. As float-text.cc checks it.
  return 2 + 24 * n;
}

/**
 * Writes the JSON array of a float32 array's values at their shortest decimals into `out` from
 * `at` (which must have float32ArrayJsonBytes(v.length) bytes of room) and answers where it
 * ends: the same text as JSON.stringify of float32ToNumber of each (non-finite values as null).
 */
export function writeFloat32ArrayJson(v: Float32Array, out: Uint8Array, at: number): number {
  return nativeWrite !== null ? nativeWrite(v, out, at) : portableWrite(v, out, at);
}

/** writeFloat32ArrayJson's text as a string. */
export function float32ArrayJson(v: Float32Array): string {
  if (text.length < float32ArrayJsonBytes(v.length)) text = new Uint8Array(float32ArrayJsonBytes(v.length));
  return latin1.decode(text.subarray(0, writeFloat32ArrayJson(v, text, 0)));
}

/** float32ArrayJson without the addon (exported for the test that holds the two to one text). */
export function portableFloat32ArrayJson(v: Float32Array): string {
  if (text.length < float32ArrayJsonBytes(v.length)) text = new Uint8Array(float32ArrayJsonBytes(v.length));
  return latin1.decode(text.subarray(0, portableWrite(v, text, 0)));
}

/** writeFloat32ArrayJson in JavaScript: the common values byte by byte (writeShortest), about twice as fast as formatting numbers. */
function portableWrite(v: Float32Array, out: Uint8Array, at: number): number {
  out[at++] = 91; // '['
  for (let i = 0; i < v.length; i++) {
    if (i > 0) out[at++] = 44; // ','
    const x = v[i]!;
    const end = writeShortest(x, out, at);
    if (end >= 0) {
      at = end;
      continue;
    }
    const s = JSON.stringify(Number.isFinite(x) ? float32ToNumber(x) : null);
    for (let c = 0; c < s.length; c++) out[at++] = s.charCodeAt(c);
  }
  out[at++] = 93; // ']'
  return at;
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
