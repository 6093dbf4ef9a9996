// Projection of payloads and vectors by the request's selectors (with_payload, with_vector).

import { float32ArrayToNumbers } from '../../shared/float.js';
import { getOwn, setOwn } from '../../shared/json.js';
import type { SparseVec } from '../../shared/protocol.js';
import { DEFAULT_VECTOR, type SparseVector, type JsonValue, type Payload, type PayloadSelector, type VectorOutput, type VectorSelector } from '../../shared/types.js';

function getPath(obj: Payload, path: string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = obj;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = getOwn(cur, part);
  }
  return cur;
}

function setPath(obj: Payload, path: string[], value: JsonValue): void {
  let cur: Payload = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const part = path[i]!;
    const next = getOwn(cur, part);
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) {
      const fresh: Payload = {};
      setOwn(cur, part, fresh);
      cur = fresh;
    } else {
      cur = next;
    }
  }
  setOwn(cur, path[path.length - 1]!, value);
}

function deletePath(obj: Payload, path: string[]): void {
  const parent = path.length === 1 ? obj : getPath(obj, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (parent !== null && parent !== undefined && typeof parent === 'object' && !Array.isArray(parent) && Object.hasOwn(parent, last)) {
    delete parent[last];
  }
}

export function selectPayload(payload: Payload | null, sel: PayloadSelector): Payload | undefined {
  switch (sel.kind) {
    case 'none':
      return undefined;
    case 'all':
      return payload ?? {};
    case 'include': {
      const out: Payload = {};
      if (payload === null) return out;
      for (const key of sel.keys) {
        const path = key.split('.');
        const v = getPath(payload, path);
        if (v !== undefined) setPath(out, path, v);
      }
      return out;
    }
    case 'exclude': {
      if (payload === null) return {};
      const out = structuredClone(payload);
      for (const key of sel.keys) deletePath(out, key.split('.'));
      return out;
    }
  }
}

/**
 * `read(name)` gives the stored vector of that name or undefined. The output follows Qdrant's
 * rule: when the only vector selected and present is the unnamed dense one it is a bare array;
 * anything else (several, named, sparse, or none at all) is a map of the names present, so a
 * point whose vectors were all deleted comes back as `{}`.
 */
export function selectVector(
  names: readonly string[],
  sel: VectorSelector,
  read: (name: string) => Float32Array | SparseVec | undefined,
): VectorOutput | undefined {
  if (sel.kind === 'none') return undefined;
  const out: Record<string, number[] | SparseVector> = {};
  for (const name of names) {
    if (sel.kind === 'names' && !sel.names.includes(name)) continue;
    const v = read(name);
    if (v instanceof Float32Array) out[name] = float32ArrayToNumbers(v);
    else if (v !== undefined) out[name] = { indices: Array.from(v.indices), values: float32ArrayToNumbers(v.values) };
  }
  const keys = Object.keys(out);
  const only = keys.length === 1 && keys[0] === DEFAULT_VECTOR ? out[DEFAULT_VECTOR] : undefined;
  return Array.isArray(only) ? only : out;
}
