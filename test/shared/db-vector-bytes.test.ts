// vectorBytes gives a record's vector bytes as a view, not a copy (issue 14: a copy per point was
// pooled slabs an ingest left to the next collection). That is only safe because lmdb-js encodes a
// value within put(): the source changed right after put() must not reach the disk. The record
// reads back as the copy's did, a Buffer (msgpack binary).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesVector, openDb, vectorBytes, type StoredPoint } from '../../src/shared/db.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-vector-bytes-'));
const db = openDb(dir);
afterAll(async () => {
  await db.root.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('vectorBytes', () => {
  it('is a Buffer over the same memory', () => {
    const v = new Float32Array([1, 2, 3, 4]).subarray(1, 3);
    const b = vectorBytes(v);
    expect(Buffer.isBuffer(b)).toBe(true);
    expect(b.buffer).toBe(v.buffer);
    expect(b.byteOffset).toBe(4);
    expect(b.byteLength).toBe(8);
  });

  it('puts the bytes as they were at put(), even when the source changes before the commit', async () => {
    const v = new Float32Array([0.5, -1.25, 3]);
    const record: StoredPoint = { v: 1, q: 1, p: null, x: { '': vectorBytes(v) } };
    const put = db.points.put([1, 0, 7], record);
    v.fill(9);
    await put;
    const back = db.points.get([1, 0, 7])!;
    expect(Buffer.isBuffer(back.x[''])).toBe(true);
    expect(Array.from(bytesVector(back.x['']!))).toEqual([0.5, -1.25, 3]);
  });
});
