// Projection of payloads and vectors by the request's selectors (with_payload, with_vector).

import { setOwn } from '../../shared/json.js';
import type { SparseVec } from '../../shared/protocol.js';
import { parsePath } from './filter-eval.js';
import { DEFAULT_VECTOR, type SparseVectorOut, type JsonValue, type Payload, type PayloadSelector, type VectorOutput, type VectorSelector } from '../../shared/types.js';

/** One step of a selector path: a key, an array index (`[n]`), or every element (`[]`, as WILDCARD). */
type Step = string | number;
const WILDCARD = -1;

function selectorPath(key: string): Step[] {
  // The main thread refused keys that are not paths; parsePath reads anything else as one key.
  return parsePath(key).map((item) => ('key' in item ? item.key : 'index' in item ? item.index : WILDCARD));
}

// A request's selector is read once per returned point: parse its paths once.
const parsed = new WeakMap<PayloadSelector, Step[][]>();

function patternsOf(sel: PayloadSelector & { keys: string[] }): Step[][] {
  let p = parsed.get(sel);
  if (p === undefined) {
    p = sel.keys.map(selectorPath);
    parsed.set(sel, p);
  }
  return p;
}

/**
 * Qdrant's payload selection: walk the payload, naming each node by its path of keys, with
 * WILDCARD for every array element (never an index, so `a[0]` in a selector matches no element).
 * A node is kept when `keep(path)`; a kept object or array is walked further, a kept scalar is
 * copied whole. So an object whose selected keys are all missing stays as `{}`, and an array
 * whose elements are all dropped as `[]`.
 */
function filterTree(payload: Payload, keep: (path: readonly Step[]) => boolean): Payload {
  const path: Step[] = [];
  const walk = (v: JsonValue): JsonValue => {
    if (v === null || typeof v !== 'object') return v;
    if (!Array.isArray(v)) return walkObject(v);
    const out: JsonValue[] = [];
    path.push(WILDCARD);
    // Every element has the same path: one test decides for all of them.
    if (keep(path)) for (const e of v) out.push(walk(e));
    path.pop();
    return out;
  };
  const walkObject = (o: Payload): Payload => {
    const out: Payload = {};
    for (const key of Object.keys(o)) {
      path.push(key);
      if (keep(path)) setOwn(out, key, walk(o[key]!));
      path.pop();
    }
    return out;
  };
  return walkObject(payload);
}

/** Include: the path and the pattern agree on every step both have (either may be the longer). */
function included(path: readonly Step[], pattern: readonly Step[]): boolean {
  const n = Math.min(path.length, pattern.length);
  for (let i = 0; i < n; i++) if (path[i] !== pattern[i]) return false;
  return true;
}

/** Exclude: the pattern is a prefix of the path. */
function excluded(path: readonly Step[], pattern: readonly Step[]): boolean {
  return pattern.length <= path.length && included(path, pattern);
}

export function selectPayload(payload: Payload | null, sel: PayloadSelector): Payload | undefined {
  switch (sel.kind) {
    case 'none':
      return undefined;
    case 'all':
      return payload ?? {};
    case 'include': {
      if (payload === null) return {};
      const patterns = patternsOf(sel);
      return filterTree(payload, (path) => patterns.some((p) => included(path, p)));
    }
    case 'exclude': {
      if (payload === null) return {};
      const patterns = patternsOf(sel);
      return filterTree(payload, (path) => !patterns.some((p) => excluded(path, p)));
    }
  }
}

/**
 * `read(name)` gives the stored vector of that name or undefined. The output follows Qdrant's
 * rule: when the only vector selected and present is the unnamed dense one it is a bare array
 * (of arrays, for a multivector);
 * anything else (several, named, sparse, or none at all) is a map of the names present, so a
 * point whose vectors were all deleted comes back as `{}`.
 */
export function selectVector(
  names: readonly string[],
  sel: VectorSelector,
  read: (name: string) => Float32Array | Float32Array[] | SparseVec | undefined,
  copies?: VectorCopies,
): VectorOutput | undefined {
  // Without an answer's copies (one vector read alone): a buffer of its own size.
  const copy = (v: Float32Array): Float32Array => (copies === undefined ? v.slice() : copies.copy(v));
  if (sel.kind === 'none') return undefined;
  const out: Record<string, Float32Array | Float32Array[] | SparseVectorOut> = {};
  for (const name of names) {
    if (sel.kind === 'names' && !sel.names.includes(name)) continue;
    const v = read(name);
    // Copies: what is read may be a view of memory the shard reuses or shares between threads.
    if (v instanceof Float32Array) out[name] = copy(v);
    else if (Array.isArray(v)) out[name] = v.map(copy);
    else if (v !== undefined) out[name] = { indices: v.indices.slice(), values: v.values.slice() };
  }
  const keys = Object.keys(out);
  const only = keys.length === 1 && keys[0] === DEFAULT_VECTOR ? out[DEFAULT_VECTOR] : undefined;
  return only instanceof Float32Array || Array.isArray(only) ? only : out;
}

/**
 * Copies of the vectors of one answer, packed into a few shared chunks (views of them) rather
 * than one buffer each: a 5,000-point page with vectors then allocates, collects and sends to the
 * coordinating thread a handful of buffers instead of 5,000. Chunks grow from 4K floats to 256K;
 * a view keeps its chunk alive, so one is made per answer, never kept.
 */
export class VectorCopies {
  #chunk = new Float32Array(0);
  #used = 0;
  #next = 4096;

  copy(v: Float32Array): Float32Array {
    if (this.#used + v.length > this.#chunk.length) {
      this.#chunk = new Float32Array(Math.max(this.#next, v.length));
      this.#next = Math.min(this.#next * 2, 262_144);
      this.#used = 0;
    }
    const out = this.#chunk.subarray(this.#used, this.#used + v.length);
    out.set(v);
    this.#used += v.length;
    return out;
  }
}
