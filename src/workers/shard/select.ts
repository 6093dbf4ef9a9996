// Projection of payloads and vectors by the request's selectors (with_payload, with_vector).

import { float32ArrayToNumbers } from '../../shared/float.js';
import { setOwn } from '../../shared/json.js';
import type { SparseVec } from '../../shared/protocol.js';
import { parsePath } from './filter-eval.js';
import { DEFAULT_VECTOR, type SparseVector, type JsonValue, type Payload, type PayloadSelector, type VectorOutput, type VectorSelector } from '../../shared/types.js';

/**
 * One step of a selector path: a key, an array index (`[n]`), or every element (`[]`, as
 * WILDCARD). The key syntax is the filters' (parsePath); a segment may hold several brackets.
 */
type Step = string | number;
const WILDCARD = -1;

function selectorPath(key: string): Step[] {
  const steps: Step[] = [];
  for (const part of parsePath(key)) {
    // parsePath reads one bracket per segment; `a[][0]` leaves the others on the name.
    const brackets: Step[] = [];
    let name = part.name;
    for (let m = /\[(\d*)\]$/.exec(name); m !== null; m = /\[(\d*)\]$/.exec(name)) {
      brackets.unshift(m[1] === '' ? WILDCARD : Number(m[1]));
      name = name.slice(0, m.index);
    }
    steps.push(name, ...brackets);
    if (part.index !== null) steps.push(part.index);
    else if (part.flatten) steps.push(WILDCARD);
  }
  return steps;
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
 * `read(name)` gives the stored vector of that name or undefined. An unnamed collection answers
 * a plain array; a named one a map of the selected names it has.
 */
export function selectVector(
  names: readonly string[],
  sel: VectorSelector,
  read: (name: string) => Float32Array | SparseVec | undefined,
): VectorOutput | undefined {
  if (sel.kind === 'none') return undefined;
  if (names.length === 1 && names[0] === DEFAULT_VECTOR) {
    if (sel.kind === 'names' && !sel.names.includes(DEFAULT_VECTOR)) return undefined;
    const v = read(DEFAULT_VECTOR);
    return v instanceof Float32Array ? float32ArrayToNumbers(v) : undefined;
  }
  const out: Record<string, number[] | SparseVector> = {};
  for (const name of names) {
    if (sel.kind === 'names' && !sel.names.includes(name)) continue;
    const v = read(name);
    if (v instanceof Float32Array) out[name] = float32ArrayToNumbers(v);
    else if (v !== undefined) out[name] = { indices: Array.from(v.indices), values: float32ArrayToNumbers(v.values) };
  }
  return out;
}
