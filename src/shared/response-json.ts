// REST's JSON for a response that may carry points' vectors. The shards return vectors as float32
// arrays (types.ts VectorOutput), which cross threads and nodes as one copy of their bytes rather
// than as arrays of numbers cloned one by one (gRPC sends them as they are); here, at the REST
// edge, each is written as the JSON array of its values' shortest decimals (float.ts
// writeFloat32ArrayJson), as Qdrant prints them. JSON.stringify writes the rest of the response
// with a placeholder string where each array goes; then the response is written once, as UTF-8
// bytes, into one buffer: the text between placeholders, and each array's text straight from its
// floats. No number array is built, no string per vector, and no second copy of the whole text:
// the buffer is moved to the main thread (coordinator.ts) and written to the socket as it is.
// The walk follows only what can hold points, never a `payload`.
//
// Invariant: a placeholder carries a random per-response nonce, so no string of the response's
// own (a payload value, an id) can be taken for one.

import { randomBytes } from 'node:crypto';
import { float32ArrayJsonBytes, writeFloat32ArrayJson } from './float.js';

const utf8 = new TextEncoder();

/**
 * JSON.stringify(value), its points' vectors written as their values' shortest decimals: a string
 * when it holds no vector, else the UTF-8 bytes, in a buffer of their own (safe to transfer).
 */
export function responseJson(value: unknown): string | Uint8Array {
  const arrays: Float32Array[] = [];
  let tag = '';
  const placeholder = (v: Float32Array): string => {
    tag ||= `\u0000${randomBytes(8).toString('hex')}:`;
    return `${tag}${arrays.push(v) - 1}`;
  };
  // Inside a vector: a float32 array swapped for a placeholder; a sparse vector's indices made plain.
  const inVector = (v: unknown): unknown => {
    if (v instanceof Float32Array) return placeholder(v);
    if (v instanceof Uint32Array) return Array.from(v);
    if (Array.isArray(v)) return v.map(inVector);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inVector(x)]));
    return v;
  };
  // Every `vector` under `v`, in place (arrays and objects followed, payloads skipped).
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (k === 'payload') continue;
        if (k === 'vector') o[k] = inVector(o[k]);
        else walk(o[k]);
      }
    }
  };
  walk(value);
  const json = JSON.stringify(value);
  if (arrays.length === 0) return json;
  let room = Buffer.byteLength(json);
  for (const a of arrays) room += float32ArrayJsonBytes(a.length);
  // Its own memory (never Node's shared pool, so it can be moved), not zeroed: every byte answered is written.
  const out = Buffer.allocUnsafeSlow(room);
  // As JSON.stringify writes a placeholder: quoted, its NUL escaped, then the array's index.
  const mark = `"${tag.replace('\u0000', '\\u0000')}`;
  let from = 0;
  let at = 0;
  for (let m = json.indexOf(mark); m >= 0; m = json.indexOf(mark, from)) {
    const end = json.indexOf('"', m + mark.length);
    at += utf8.encodeInto(json.slice(from, m), out.subarray(at)).written;
    at = writeFloat32ArrayJson(arrays[Number(json.slice(m + mark.length, end))]!, out, at);
    from = end + 1;
  }
  at += utf8.encodeInto(json.slice(from), out.subarray(at)).written;
  // The room is the worst case (24 bytes a value; about 11 are typical) and the whole buffer is
  // moved and held until the socket has it: well short of it, the bytes go in one of their size.
  if (at >= room * 0.75) return out.subarray(0, at);
  const exact = Buffer.allocUnsafeSlow(at);
  out.copy(exact, 0, 0, at);
  return exact;
}
