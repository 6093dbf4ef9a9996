// float32ToNumber against a slow reference in exact integer arithmetic: for p = 1..9 significant
// digits, the p-digit decimal nearest x and one unit either side; the first p where one reads back
// to x, the closest such, and of two equally close the one with the even last digit (as Rust's
// ryu and C++'s std::to_chars choose; toPrecision would round such a tie away from zero).
// The fast paths (six digits first; scaling by exact powers of ten instead of toPrecision) are
// checked to give the same numbers on random bit patterns (normals, subnormals, powers of two), on
// the decimals clients send most, on embedding-sized values and next to every power of ten; the
// array text, with the native addon and without, to be JSON.stringify's of those numbers.

import { describe, expect, it } from 'vitest';
import { float32ArrayJson, float32ArrayJsonBytes, float32ToNumber, FLOAT_TEXT_NATIVE, portableFloat32ArrayJson, writeFloat32ArrayJson } from '../../src/shared/float.js';
import { rng } from '../helpers/server.js';

/** x (a float32) as m * 2^e exactly. */
function exactly(x: number): { m: bigint; e: number } {
  const bits = new Uint32Array(Float32Array.of(Math.abs(x)).buffer)[0]!;
  const field = bits >>> 23;
  return { m: BigInt(field === 0 ? bits & 0x7fffff : (bits & 0x7fffff) | 0x800000), e: (field === 0 ? 1 : field) - 150 };
}

/** |d * 10^s - |x||, scaled by a common factor that depends only on (x, s): comparable across d. */
function distance(d: bigint, s: number, x: { m: bigint; e: number }): bigint {
  const lhs = d * 10n ** BigInt(Math.max(s, 0)) * 2n ** BigInt(Math.max(-x.e, 0));
  const rhs = x.m * 2n ** BigInt(Math.max(x.e, 0)) * 10n ** BigInt(Math.max(-s, 0));
  return lhs > rhs ? lhs - rhs : rhs - lhs;
}

function reference(x: number): number {
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return x;
  const exact = exactly(x);
  for (let p = 1; p <= 9; p++) {
    const [mantissa = '0', exponent = '0'] = x.toExponential(p - 1).split('e');
    const sign = mantissa.startsWith('-') ? -1 : 1;
    const digits = BigInt(mantissa.replace('-', '').replace('.', ''));
    const scale = Number(exponent) - (p - 1);
    const hits = [digits, digits - 1n, digits + 1n].filter((d) => Math.fround(sign * Number(`${d}e${scale}`)) === x);
    if (hits.length === 0) continue;
    hits.sort((a, b) => {
      const da = distance(a, scale, exact);
      const db = distance(b, scale, exact);
      return da !== db ? (da < db ? -1 : 1) : Number(a % 2n) - Number(b % 2n);
    });
    return sign * Number(`${hits[0]!}e${scale}`);
  }
  return x;
}

describe('float32ToNumber', () => {
  it('gives the reference shortest decimal for random float32 bit patterns', () => {
    const r = rng(77);
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    let checked = 0;
    for (let i = 0; i < 300_000; i++) {
      bits[0] = Math.floor(r() * 2 ** 32) >>> 0;
      const x = f[0]!;
      if (!Number.isFinite(x)) continue;
      checked++;
      const got = float32ToNumber(x);
      if (got !== reference(x)) expect({ x, got }).toEqual({ x, got: reference(x) });
    }
    expect(checked).toBeGreaterThan(290_000);
  });

  it('gives the reference for the decimals clients send, subnormals and powers of two', () => {
    const xs: number[] = [];
    for (let k = 1; k < 20_000; k++) xs.push(Math.fround(k / 10_000), Math.fround(-k / 1000), Math.fround(k * 1.2345e-6));
    for (let e = -149; e <= 127; e++) xs.push(2 ** e, -(2 ** e));
    for (const x of [1e-40, 9.99e-39, 1.1754942e-38, 0.1, 0.2, 0.3, 3.4028235e38]) xs.push(Math.fround(x));
    for (const x of xs) expect(float32ToNumber(x)).toBe(reference(x));
    expect(float32ToNumber(Math.fround(0.1))).toBe(0.1);
  });

  it('gives the reference where the fast path works: embedding-sized values, and the float32s next to every power of ten', () => {
    const r = rng(91);
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    const xs: number[] = [];
    // Log-uniform over 1e-12 .. 1e12, both signs: the scaling path's whole range and past it.
    for (let i = 0; i < 150_000; i++) xs.push(Math.fround((r() < 0.5 ? -1 : 1) * 10 ** (r() * 24 - 12)));
    // Each power of ten's float32 and its four neighbours either side (the exponent estimate's edge).
    for (let n = -45; n <= 38; n++) {
      f[0] = 10 ** n;
      for (let d = -4; d <= 4; d++) {
        const b = bits[0]! + d;
        if (b < 1 || b >= 0x7f800000) continue;
        const saved = bits[0]!;
        bits[0] = b;
        xs.push(f[0]!);
        bits[0] = saved;
      }
    }
    for (const x of xs) {
      const got = float32ToNumber(x);
      if (got !== reference(x)) expect({ x, got }).toEqual({ x, got: reference(x) });
    }
    expect(float32ToNumber(Math.fround(-0.000998664))).toBe(-0.000998664);
  });

  it('breaks a tie between two nearest decimals to the even last digit', () => {
    // Each float32 here lies exactly halfway between two shortest candidates.
    expect(float32ToNumber(Math.fround(3.86328125))).toBe(3.8632812);
    expect(float32ToNumber(Math.fround(-3983832.25))).toBe(-3983832.2);
    expect(float32ToNumber(2 ** -12)).toBe(0.00024414062);
    expect(float32ToNumber(Math.fround(1191793.25))).toBe(1191793.2);
  });

  it(`float32ArrayJson writes what JSON.stringify writes of the shortest numbers, byte for byte (${FLOAT_TEXT_NATIVE ? 'native addon and JavaScript' : 'JavaScript only: the addon is not built'})`, () => {
    const r = rng(5);
    const bits = new Uint32Array(60_000);
    for (let i = 0; i < bits.length; i++) bits[i] = Math.floor(r() * 2 ** 32) >>> 0;
    const random = new Float32Array(bits.buffer);
    const logUniform = Float32Array.from({ length: 60_000 }, () => (r() < 0.5 ? -1 : 1) * 10 ** (r() * 24 - 12));
    const specials = Float32Array.of(-1e20, -1.2345678e-6, -9.8765432e-6, -1.1754942e-38, 0, -0, 1, -2, 0.1, -0.5, 1e-6, 9.99e-7, 1e9, 1e21, 1e-7, 123456789, 16777216, 2 ** -96, 1.1754944e-38, 1e-45, 3.4028235e38, 3.86328125, -3983832.25, Infinity, -Infinity, NaN);
    // The longest texts: 22 bytes each, at the room's limit.
    const longest = new Float32Array(100).fill(-1e20);
    const powers = Float32Array.from({ length: 277 * 2 }, (_, i) => (i % 2 ? -1 : 1) * 2 ** (Math.floor(i / 2) - 149));
    for (const v of [random, logUniform, specials, powers, longest, new Float32Array(0)]) {
      const want = JSON.stringify(Array.from(v, (x) => (Number.isFinite(x) ? float32ToNumber(x) : null)));
      expect(portableFloat32ArrayJson(v)).toBe(want);
      expect(float32ArrayJson(v)).toBe(want);
      // Written at an offset into a buffer with exactly the room float32ArrayJsonBytes gives: the
      // longest values fit (a write past it would throw, natively, or leave the text short).
      const out = new Uint8Array(3 + float32ArrayJsonBytes(v.length));
      const end = writeFloat32ArrayJson(v, out, 3);
      expect(new TextDecoder('latin1').decode(out.subarray(3, end))).toBe(want);
    }
  });
});
