// decodePlainRecord reads the commonest record (no payload, dense vectors) as msgpackr does, and
// declines every other record so the load decodes it the usual way: checked against the records
// lmdb-js's own encoder writes, numbers of every width included.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type StoredPoint } from '../../../src/shared/db.js';
import { decodePlainRecord, plainRecordRow } from '../../../src/workers/shard/record-decode.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-decode-'));
const db = openDb(dir);
afterAll(async () => {
  await db.root.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Codec {
  encode(v: unknown): Uint8Array;
  decode(b: Uint8Array, size: number): unknown;
}
const codec = (db.points as unknown as { encoder: Codec }).encoder;
/** The bytes lmdb-js stores for a record, inside a larger buffer (as its read buffer is). */
function stored(rec: StoredPoint): { bytes: Uint8Array; size: number } {
  const enc = Buffer.from(codec.encode(rec));
  const bytes = Buffer.alloc(enc.length + 64, 0xee);
  enc.copy(bytes);
  return { bytes, size: enc.length };
}
/** Vectors as byte lists (msgpackr gives Buffers, decodePlainRecord Uint8Arrays: the bytes must agree). */
const plain = (o: unknown): unknown => {
  if (o instanceof Uint8Array) return [...o];
  if (o === null || typeof o !== 'object') return o;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, plain(v)]));
};
const bytesOf = (...xs: number[]): Buffer => Buffer.from(Float32Array.from(xs).buffer);

describe('decodePlainRecord', () => {
  it('reads a record without payload as msgpackr does: every width of version and sequence, several vectors', () => {
    const numbers = [0, 1, 0x3f, 0x40, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, 1.5];
    for (const v of numbers) {
      for (const q of [0, 0x45, 2 ** 33]) {
        const rec: StoredPoint = { v, q, p: null, x: { '': bytesOf(1, 2, 3), image: bytesOf(...Array.from({ length: 200 }, (_, i) => i)), t: bytesOf() } };
        const { bytes, size } = stored(rec);
        const fast = decodePlainRecord(bytes, size);
        expect(fast).toBeDefined();
        expect(plain(fast)).toEqual(plain(codec.decode(bytes, size)));
        expect(fast).toMatchObject({ v, q, p: null });
      }
    }
    // A vector of 2^16 bytes and more (bin32).
    const big: StoredPoint = { v: 3, q: 4, p: null, x: { '': Buffer.alloc(70_000, 7) } };
    const { bytes, size } = stored(big);
    expect(decodePlainRecord(bytes, size)!.x['']!.length).toBe(70_000);
  });

  it('declines every other record: payload, sparse vectors, no sequence, no vector, names it does not read', () => {
    const others: StoredPoint[] = [
      { v: 1, q: 2, p: { a: 1 }, x: { '': bytesOf(1) } },
      { v: 1, q: 2, p: {}, x: { '': bytesOf(1) } },
      { v: 1, q: 2, p: null, x: { '': bytesOf(1) }, s: { s: { i: Buffer.from(Uint32Array.of(1).buffer), v: bytesOf(1) } } },
      { v: 1, p: null, x: { '': bytesOf(1) } },
      { v: 1, q: 2, p: null, x: {} },
      { v: 1, q: 2, p: null, x: { ['n'.repeat(32)]: bytesOf(1) } },
      { v: 1, q: 2, p: null, x: { 'vecteur-é': bytesOf(1) } },
      { v: 1, q: 2, p: null, x: { constructor: bytesOf(1) } },
      { v: 1, q: 2, p: null, x: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`v${i}`, bytesOf(i)])) },
    ];
    for (const rec of others) {
      const { bytes, size } = stored(rec);
      expect(decodePlainRecord(bytes, size)).toBeUndefined();
    }
  });

  it('declines a record cut short or with bytes after it', () => {
    const { bytes, size } = stored({ v: 300, q: 70_000, p: null, x: { '': bytesOf(1, 2) } });
    for (let cut = 0; cut < size; cut++) expect(decodePlainRecord(bytes, cut)).toBeUndefined();
    expect(decodePlainRecord(bytes, size + 1)).toBeUndefined();
    expect(decodePlainRecord(bytes, size)).toBeDefined();
  });
});

describe('plainRecordRow', () => {
  const ascii = (name: string): Uint8Array => new TextEncoder().encode(name);
  /** What plainRecordRow must answer: decodePlainRecord's vector, as version and bytes. */
  const expected = (bytes: Uint8Array, size: number, name: string): { v: number; row: number[] } | undefined => {
    const rec = decodePlainRecord(bytes, size);
    const row = rec === undefined || !Object.hasOwn(rec.x, name) ? undefined : rec.x[name];
    return row === undefined ? undefined : { v: rec!.v, row: [...row] };
  };
  const found = (bytes: Uint8Array, size: number, name: string): { v: number; row: number[] } | undefined => {
    const at = plainRecordRow(bytes, size, ascii(name));
    return at === undefined ? undefined : { v: at.v, row: [...bytes.subarray(at.at, at.at + at.length)] };
  };

  it('finds a vector where decodePlainRecord reads the record, payload text or not, and declines where it declines', () => {
    const records: StoredPoint[] = [
      { v: 0x10000, q: 2, p: null, x: { '': bytesOf(1, 2, 3), image: bytesOf(...Array.from({ length: 200 }, (_, i) => i)), t: bytesOf() } },
      { v: 7, q: 9, p: '{"tenant":"t3","n":[1,2]}', x: { '': bytesOf(4, 5) } },
      { v: 7, q: 9, p: 'x'.repeat(70_000), x: { a: bytesOf(4), ab: bytesOf(5, 6) } },
      { v: 1, q: 2, p: { a: 1 }, x: { '': bytesOf(1) } },
      { v: 1, q: 2, p: null, x: { '': bytesOf(1) }, s: { s: { i: Buffer.from(Uint32Array.of(1).buffer), v: bytesOf(1) } } },
      { v: 1, p: null, x: { '': bytesOf(1) } },
      { v: 1, q: 2, p: null, x: {} },
      { v: 1, q: 2, p: null, x: { 'vecteur-é': bytesOf(1), '': bytesOf(2) } },
      { v: 1, q: 2, p: null, x: { constructor: bytesOf(1), '': bytesOf(2) } },
      { v: 1, q: 2, p: null, x: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`v${i}`, bytesOf(i)])) },
    ];
    let answered = 0;
    for (const rec of records) {
      const { bytes, size } = stored(rec);
      for (const name of ['', 'a', 'ab', 'image', 't', 'v1', 'missing']) {
        const want = expected(bytes, size, name);
        expect(found(bytes, size, name)).toEqual(want);
        if (want !== undefined) answered++;
      }
      for (let cut = 0; cut < Math.min(size, 200); cut++) expect(found(bytes, cut, '')).toEqual(expected(bytes, cut, ''));
      expect(found(bytes, size + 1, '')).toBeUndefined();
    }
    expect(answered).toBe(6);
  });
});
