// Payload operations as Qdrant defines them, applied to one point's payload (never in place:
// the result is a new object, so a reader never sees a half-applied change).

import type { PayloadOp } from '../../shared/protocol.js';
import { getOwn, setOwn } from '../../shared/json.js';
import type { JsonValue, Payload } from '../../shared/types.js';

export type { PayloadOp };

function isObject(v: JsonValue | undefined): v is Payload {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

function merge(target: Payload, patch: Payload): void {
  for (const [k, v] of Object.entries(patch)) setOwn(target, k, v);
}

/** Merges `patch` into the object at the dotted `key` path, creating objects on the way. */
function setAt(root: Payload, key: string, patch: Payload): void {
  let cur = root;
  for (const part of key.split('.')) {
    const next = getOwn(cur, part);
    if (isObject(next)) {
      cur = next;
    } else {
      const fresh: Payload = {};
      setOwn(cur, part, fresh);
      cur = fresh;
    }
  }
  merge(cur, patch);
}

/** Removes the value at a dotted path; `a[].b` removes `b` from every object in array `a`. */
function deleteAt(node: JsonValue | undefined, parts: string[]): void {
  if (parts.length === 0 || node === undefined || node === null || typeof node !== 'object') return;
  const [head, ...rest] = parts;
  const flatten = head!.endsWith('[]');
  const name = flatten ? head!.slice(0, -2) : head!;
  if (Array.isArray(node)) {
    for (const e of node) deleteAt(e, parts);
    return;
  }
  if (!Object.hasOwn(node, name)) return;
  if (rest.length === 0 && !flatten) {
    delete node[name];
    return;
  }
  const child = node[name];
  if (flatten && Array.isArray(child)) for (const e of child) deleteAt(e, rest);
  else deleteAt(child, rest);
}

export function applyPayloadOp(current: Payload | null, op: PayloadOp): Payload | null {
  switch (op.kind) {
    case 'set': {
      const next = structuredClone(current ?? {});
      if (op.key === null) merge(next, structuredClone(op.payload));
      else setAt(next, op.key, structuredClone(op.payload));
      return next;
    }
    case 'overwrite':
      return structuredClone(op.payload);
    case 'delete': {
      if (current === null) return null;
      const next = structuredClone(current);
      for (const key of op.keys) deleteAt(next, key.split('.'));
      return next;
    }
    case 'clear':
      return null;
  }
}
