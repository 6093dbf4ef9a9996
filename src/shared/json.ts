// Own-property access for payloads. Payload keys are user data: a key such as `__proto__` must
// name a property like any other, never reach an object's prototype.

import type { JsonValue, Payload } from './types.js';

export function getOwn(obj: Payload, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

export function setOwn(obj: Payload, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}
