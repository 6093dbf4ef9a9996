// A decoder for the commonest point record, used by a shard's load pass (issue 14, start-up): a
// record whose payload is null or JSON text, and whose vectors are dense; and the readers of such a
// record's payload alone (storedPayloadText), for payloads kept on disk, and of where one vector's
// bytes lie (plainRecordRow), for rows a graph holds that a search reads back. lmdb-js stores a
// record with msgpackr's records extension and no shared structures, so every record carries its own structure
// definitions (the key lists of the record and of its vectors), and msgpackr parses them and
// builds a reader for them per record: at 100k x 128 that was most of the load pass's decoding
// (~1.3 us a record, of ~2.2 us the pass spent on each). This reads those bytes directly.
//
// It answers only for a record that is exactly, byte for byte,
//
//   d4 72 40  94 a1 'v' a1 'q' a1 'p' a1 'x'   record definition 0x40: keys v, q, p, x
//   <v> <q>                                    unsigned integers (fixint 0-0x3f, uint8/16/32)
//                                              or float64, as msgpackr writes numbers
//   c0 | a0-bf, d9, da, db <UTF-8>             p: null, or a string (the payload's JSON text)
//   d4 72 41  9n <n fixstr names>              record definition 0x41: the vector names
//   <n bins>                                   bin8/16/32: the vectors' bytes
//
// and nothing after; for anything else (a payload stored as an object, sparse vectors, a record of an older shape,
// a name longer than 31 bytes, not ASCII or one an object has already, such as 'constructor')
// it answers undefined and the caller decodes the
// record as before (msgpackr). So it can be wrong only by declining. The vectors are views into
// `bytes` (valid as long as the caller's buffer is), as msgpackr's are with copyBuffers off, but
// plain Uint8Arrays where msgpackr's are Buffers (the load pass copies or only tests them).

import type { StoredPoint } from '../../shared/db.js';

const HEAD = [0xd4, 0x72, 0x40, 0x94, 0xa1, 0x76, 0xa1, 0x71, 0xa1, 0x70, 0xa1, 0x78];
const utf8 = new TextDecoder();

/**
 * The string or nil at `at` (advanced past it): null for nil, undefined when the bytes are
 * something else. `decode` false: '' for any string (its bytes skipped, not decoded).
 */
function text(b: Uint8Array, end: number, decode = true): string | null | undefined {
  if (at >= end) return undefined;
  const t = b[at]!;
  let len: number;
  let from: number;
  if (t === 0xc0) {
    at += 1;
    return null;
  } else if (t >= 0xa0 && t <= 0xbf) {
    len = t - 0xa0;
    from = at + 1;
  } else if (t === 0xd9 && at + 2 <= end) {
    len = b[at + 1]!;
    from = at + 2;
  } else if (t === 0xda && at + 3 <= end) {
    len = (b[at + 1]! << 8) | b[at + 2]!;
    from = at + 3;
  } else if (t === 0xdb && at + 5 <= end) {
    len = b[at + 1]! * 0x1000000 + ((b[at + 2]! << 16) | (b[at + 3]! << 8) | b[at + 4]!);
    from = at + 5;
  } else return undefined;
  if (from + len > end) return undefined;
  at = from + len;
  return decode ? utf8.decode(b.subarray(from, from + len)) : '';
}

/** Reads the head (definition, v, q) and the payload of a record of the shape above; undefined when it is not one. */
function head(bytes: Uint8Array, size: number, decode = true): { v: number; q: number; p: string | null } | undefined {
  if (size < HEAD.length + 7) return undefined;
  for (let i = 0; i < HEAD.length; i++) if (bytes[i] !== HEAD[i]) return undefined;
  at = HEAD.length;
  const v = number(bytes, size);
  if (v < 0) return undefined;
  const q = number(bytes, size);
  if (q < 0) return undefined;
  const p = text(bytes, size, decode);
  if (p === undefined) return undefined;
  return { v, q, p };
}

/**
 * The payload text of a record of the shape above (null: no payload), without decoding its
 * vectors; undefined for another shape (decode it the usual way).
 */
export function storedPayloadText(bytes: Uint8Array, size: number): string | null | undefined {
  return head(bytes, size)?.p;
}

/** Read position in the record being decoded (module state: no tuple per number read). */
let at = 0;

/** An unsigned integer or float64 at `at` (advanced past it), or -1 when the bytes are something else. */
function number(b: Uint8Array, end: number): number {
  if (at >= end) return -1;
  const t = b[at]!;
  // 0x40-0x7f are record references where msgpackr writes records, not integers.
  if (t < 0x40) {
    at += 1;
    return t;
  }
  switch (t) {
    case 0xcc:
      if (at + 2 > end) return -1;
      at += 2;
      return b[at - 1]!;
    case 0xcd:
      if (at + 3 > end) return -1;
      at += 3;
      return (b[at - 2]! << 8) | b[at - 1]!;
    case 0xce:
      if (at + 5 > end) return -1;
      at += 5;
      return (b[at - 4]! * 0x1000000) + ((b[at - 3]! << 16) | (b[at - 2]! << 8) | b[at - 1]!);
    case 0xcb: {
      if (at + 9 > end) return -1;
      const v = new DataView(b.buffer, b.byteOffset + at + 1, 8).getFloat64(0);
      at += 9;
      return Number.isFinite(v) && v >= 0 ? v : -1;
    }
    default:
      return -1;
  }
}

/** The last name read and its bytes: the same names come record after record. */
let lastName = '';
const lastBytes = new Uint8Array(32);
let lastLength = 0;

/** The ASCII fixstr at `at` (checked by the caller), as a string. */
function nameOf(bytes: Uint8Array, at: number): string {
  const len = bytes[at]! - 0xa0;
  if (len === 0) return '';
  let same = len === lastLength;
  for (let i = 0; same && i < len; i++) same = bytes[at + 1 + i] === lastBytes[i];
  if (same) return lastName;
  let name = '';
  for (let i = 0; i < len; i++) {
    lastBytes[i] = bytes[at + 1 + i]!;
    name += String.fromCharCode(lastBytes[i]!);
  }
  lastName = name;
  lastLength = len;
  return name;
}

/**
 * The vector names' definition at `at` (advanced past it, to the first bin): how many names, each
 * an ASCII fixstr starting at the definition's start + 4; -1 when the bytes are something else.
 */
function names(bytes: Uint8Array, size: number): number {
  if (at + 3 > size || bytes[at] !== 0xd4 || bytes[at + 1] !== 0x72 || bytes[at + 2] !== 0x41) return -1;
  at += 3;
  const arr = bytes[at]!;
  if (arr < 0x91 || arr > 0x9f) return -1;
  const n = arr - 0x90;
  at++;
  for (let k = 0; k < n; k++) {
    if (at >= size) return -1;
    const s = bytes[at]!;
    if (s < 0xa0 || s > 0xbf || at + 1 + s - 0xa0 > size) return -1;
    for (let i = at + 1; i < at + 1 + s - 0xa0; i++) if (bytes[i]! >= 0x80) return -1;
    at += 1 + s - 0xa0;
  }
  return n;
}

/** The bin header at `at` (advanced past it): the length of the bytes after it, or -1 when the bytes are something else. */
function bin(bytes: Uint8Array, size: number): number {
  if (at >= size) return -1;
  const t = bytes[at]!;
  let len: number;
  if (t === 0xc4 && at + 2 <= size) {
    len = bytes[at + 1]!;
    at += 2;
  } else if (t === 0xc5 && at + 3 <= size) {
    len = (bytes[at + 1]! << 8) | bytes[at + 2]!;
    at += 3;
  } else if (t === 0xc6 && at + 5 <= size) {
    len = bytes[at + 1]! * 0x1000000 + ((bytes[at + 2]! << 16) | (bytes[at + 3]! << 8) | bytes[at + 4]!);
    at += 5;
  } else return -1;
  return at + len > size ? -1 : len;
}

/** The record in `bytes[0, size)` when it has the shape above, else undefined (decode it the usual way). */
export function decodePlainRecord(bytes: Uint8Array, size: number): StoredPoint | undefined {
  const h = head(bytes, size);
  if (h === undefined) return undefined;
  const { v, q, p } = h;
  // Where each name's bytes are (its string is made once all is checked): no array per record.
  const nameAt = at + 4;
  const n = names(bytes, size);
  if (n < 0) return undefined;
  const x: Record<string, Uint8Array> = {};
  let name = nameAt;
  for (let k = 0; k < n; k++) {
    const len = bin(bytes, size);
    if (len < 0) return undefined;
    const key = nameOf(bytes, name);
    // msgpackr renames this key (an own property of that name cannot be set plainly): its way.
    if (key === '__proto__' || key in x) return undefined;
    // A plain Uint8Array: Buffer's subarray builds a Buffer through its species, several times slower.
    x[key] = new Uint8Array(bytes.buffer, bytes.byteOffset + at, len);
    at += len;
    name += 1 + bytes[name]! - 0xa0;
  }
  if (at !== size) return undefined;
  return { v, q, p, x };
}

/** Where plainRecordRow found the row: its record's version, and its bytes' offset and length. */
export interface RowSpan {
  v: number;
  at: number;
  length: number;
}

/** plainRecordRow's answer, reused: a filtered search reads hundreds of rows. */
const span: RowSpan = { v: 0, at: 0, length: 0 };

/**
 * Where the bytes of vector `name` (ASCII, as bytes) lie in a record of the shape above, without
 * decoding its payload or making any object (a search reads rows back one by one: msgpackr's
 * decoding was most of a filtered exact search). Undefined exactly where decodePlainRecord
 * declines the record or has no such vector; `name` must be one it can answer for (not a key
 * every object has, such as 'constructor'). The answer is reused by the next call.
 */
export function plainRecordRow(bytes: Uint8Array, size: number, name: Uint8Array): RowSpan | undefined {
  const h = head(bytes, size, false);
  if (h === undefined) return undefined;
  const nameAt = at + 4;
  const n = names(bytes, size);
  if (n < 0) return undefined;
  let wanted = -1;
  for (let k = 0, p = nameAt; k < n; k++, p += 1 + bytes[p]! - 0xa0) {
    if (bytes[p]! - 0xa0 !== name.length || !sameBytes(bytes, p + 1, name)) continue;
    // decodePlainRecord declines a record naming a vector twice
    if (wanted !== -1) return undefined;
    wanted = k;
  }
  // and one with other repeated names, or one every object has: as it does
  if (n > 1 && !distinctNames(bytes, nameAt, n)) return undefined;
  let found = false;
  for (let k = 0; k < n; k++) {
    const len = bin(bytes, size);
    if (len < 0) return undefined;
    if (k === wanted) {
      span.at = at;
      span.length = len;
      found = true;
    }
    at += len;
  }
  if (at !== size || !found) return undefined;
  span.v = h.v;
  return span;
}

function sameBytes(bytes: Uint8Array, from: number, name: Uint8Array): boolean {
  for (let i = 0; i < name.length; i++) if (bytes[from + i] !== name[i]) return false;
  return true;
}

/** The n fixstr names at `from` are distinct and none is a key every object has (checked ASCII). */
function distinctNames(bytes: Uint8Array, from: number, n: number): boolean {
  const seen = new Set<string>();
  for (let k = 0, p = from; k < n; k++) {
    const key = nameOf(bytes, p);
    if (key === '__proto__' || key in Object.prototype || seen.has(key)) return false;
    seen.add(key);
    p += 1 + bytes[p]! - 0xa0;
  }
  return true;
}
