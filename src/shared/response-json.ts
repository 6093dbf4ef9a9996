// REST's JSON for a response that may carry points' vectors. The shards return vectors as float32
// arrays (types.ts VectorOutput), which cross threads and nodes as one copy of their bytes rather
// than as arrays of numbers cloned one by one (gRPC sends them as they are); here, at the REST
// edge, each is written as the JSON array of its values' shortest decimals (float.ts
// float32ArrayJson), as Qdrant prints them. JSON.stringify writes the rest of the response with a
// placeholder string where each array goes, and the arrays' text is spliced in after: no number
// array is built and formatted again. The walk follows only what can hold points, never a
// `payload`.
//
// Invariant: a placeholder carries a random per-response nonce, so no string of the response's
// own (a payload value, an id) can be taken for one.

import { randomBytes } from 'node:crypto';
import { float32ArrayJson } from './float.js';

/** JSON.stringify(value), its points' vectors written as their values' shortest decimals. */
export function responseJson(value: unknown): string {
  const texts: string[] = [];
  let tag = '';
  const placeholder = (json: string): string => {
    tag ||= `\u0000${randomBytes(8).toString('hex')}:`;
    return `${tag}${texts.push(json) - 1}`;
  };
  // Inside a vector: a float32 array swapped for a placeholder; a sparse vector's indices made plain.
  const inVector = (v: unknown): unknown => {
    if (v instanceof Float32Array) return placeholder(float32ArrayJson(v));
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
  if (texts.length === 0) return json;
  // As JSON.stringify writes a placeholder: quoted, its NUL escaped, then the text's index.
  const mark = `"${tag.replace('\u0000', '\\u0000')}`;
  const parts: string[] = [];
  let from = 0;
  for (let at = json.indexOf(mark); at >= 0; at = json.indexOf(mark, from)) {
    const end = json.indexOf('"', at + mark.length);
    parts.push(json.slice(from, at), texts[Number(json.slice(at + mark.length, end))]!);
    from = end + 1;
  }
  parts.push(json.slice(from));
  return parts.join('');
}
