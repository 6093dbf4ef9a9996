// responseJson: a response without vectors is JSON.stringify's string; with vectors, the UTF-8
// bytes of the same JSON with each float32 array at its shortest decimals (float.ts), payload text
// of any script intact, and no payload string taken for a vector's placeholder.

import { describe, expect, it } from 'vitest';
import { float32ToNumber } from '../../src/shared/float.js';
import { responseJson } from '../../src/shared/response-json.js';

const shortest = (v: Float32Array): number[] => Array.from(v, float32ToNumber);

describe('responseJson', () => {
  it('answers the plain string when no vector is in it', () => {
    const value = { result: { points: [{ id: 1, payload: { a: 'x' } }] }, status: 'ok', time: 0.5 };
    expect(responseJson(structuredClone(value))).toBe(JSON.stringify(value));
  });

  it('writes every vector form as its shortest decimals, in UTF-8 bytes beside the rest', () => {
    const dense = Float32Array.of(0.1, -2.5, 1e-7);
    const multi = [Float32Array.of(0.3, 0.7), Float32Array.of(Number.NaN, 4)];
    const sparse = { indices: Uint32Array.of(3, 9), values: Float32Array.of(0.2, 0.4) };
    // A payload holding what a placeholder looks like (NUL, hex, colon) and text in several scripts.
    const payload = { note: '\u0000deadbeefdeadbeef:0', name: 'Zoë 東京 🚀', vector: 'a payload key named vector stays as it is' };
    const value = { result: { points: [{ id: 1, payload, vector: dense }, { id: 2, payload: {}, vector: { m: multi, s: sparse } }], next_page_offset: null }, status: 'ok' };
    const out = responseJson(value);
    expect(out).toBeInstanceOf(Uint8Array);
    const text = new TextDecoder().decode(out as Uint8Array);
    expect(JSON.parse(text)).toEqual({
      result: {
        points: [
          { id: 1, payload, vector: shortest(dense) },
          { id: 2, payload: {}, vector: { m: [shortest(multi[0]!), [null, 4]], s: { indices: [3, 9], values: shortest(sparse.values) } } },
        ],
        next_page_offset: null,
      },
      status: 'ok',
    });
    expect(text).toContain('[0.1,-2.5,1e-7]');
    // Its own buffer, so that it can be moved to another thread without taking anything else along.
    const bytes = out as Uint8Array;
    expect(bytes.byteOffset).toBe(0);
    expect(() => structuredClone(bytes, { transfer: [bytes.buffer as ArrayBuffer] })).not.toThrow();
  });
});
