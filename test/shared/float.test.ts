// float32ToNumber against a slow reference: for p = 1..9 significant digits, the p-digit decimal
// nearest x (a tie broken as toPrecision breaks it) and one unit either side; the first p where
// one reads back to x, the closest such.
// The fast paths (six digits first; scaling by exact powers of ten instead of toPrecision) are
// checked to give the same numbers on random bit patterns (normals, subnormals, powers of two), on
// the decimals clients send most, on embedding-sized values and next to every power of ten.

import { describe, expect, it } from 'vitest';
import { float32ArrayJson, float32ToNumber } from '../../src/shared/float.js';
import { rng } from '../helpers/server.js';

function reference(x: number): number {
  if (!Number.isFinite(x) || (Number.isInteger(x) && Math.abs(x) < 2 ** 24)) return x;
  for (let p = 1; p <= 9; p++) {
    const [mantissa = '0', exponent = '0'] = x.toExponential(p - 1).split('e');
    const sign = mantissa.startsWith('-') ? -1 : 1;
    const digits = BigInt(mantissa.replace('-', '').replace('.', ''));
    const scale = Number(exponent) - (p - 1);
    const hits = [digits, digits - 1n, digits + 1n].map((d) => sign * Number(`${d}e${scale}`)).filter((z) => Math.fround(z) === x);
    if (hits.length > 0) return hits.sort((a, b) => Math.abs(a - x) - Math.abs(b - x))[0]!;
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

  it('float32ArrayJson writes what JSON.stringify writes of the shortest numbers, byte for byte', () => {
    const r = rng(5);
    const bits = new Uint32Array(60_000);
    for (let i = 0; i < bits.length; i++) bits[i] = Math.floor(r() * 2 ** 32) >>> 0;
    const random = new Float32Array(bits.buffer);
    const logUniform = Float32Array.from({ length: 60_000 }, () => (r() < 0.5 ? -1 : 1) * 10 ** (r() * 24 - 12));
    const specials = Float32Array.of(0, -0, 1, -2, 0.1, -0.5, 1e-6, 9.99e-7, 1e9, 123456789, 16777216, 2 ** -96, 1.1754944e-38, 1e-45, Infinity, -Infinity, NaN);
    for (const v of [random, logUniform, specials, new Float32Array(0)]) {
      const want = JSON.stringify(Array.from(v, (x) => (Number.isFinite(x) ? float32ToNumber(x) : null)));
      expect(float32ArrayJson(v)).toBe(want);
    }
  });
});
