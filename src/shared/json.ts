// Own-property access for payloads. Payload keys are user data: a key such as `__proto__` must
// name a property like any other, never reach an object's prototype.

import type { JsonValue, Payload } from './types.js';

export function getOwn(obj: Payload, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function setOwn(obj: Payload, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** serde_json's recursion limit, which bounds the bodies Qdrant accepts. */
export const MAX_JSON_DEPTH = 128;

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `limit` levels, found without
 * recursion (so a hostile depth cannot exhaust the stack here) and without visiting more than
 * needed: scalars are skipped where they lie.
 */
export function nestedDeeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
