import { describe, expect, it } from 'vitest';
import { applyPayloadOp, type PayloadOp } from '../../src/workers/shard/payload-ops.js';
import { fieldValues, parsePath } from '../../src/workers/shard/filter-eval.js';
import type { JsonValue, Payload } from '../../src/shared/types.js';
import { rng } from '../helpers/random.js';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** Applies `op` to a frozen copy of `current`, checks the input survived, returns the result. */
function apply(current: Payload | null, op: PayloadOp): Payload | null {
  const before = structuredClone(current);
  const opBefore = structuredClone(op);
  const frozen = deepFreeze(structuredClone(current));
  const result = applyPayloadOp(frozen, deepFreeze(op));
  expect(frozen).toEqual(before);
  expect(op).toEqual(opBefore);
  return result;
}

const set = (payload: Payload, key: string | null = null): PayloadOp => ({ kind: 'set', payload, key });
const del = (...keys: string[]): PayloadOp => ({ kind: 'delete', keys });

describe('applyPayloadOp: set', () => {
  it('merges the top-level keys, keeping the others', () => {
    expect(apply({ a: 1, b: 'x' }, set({ b: 'y', c: [1, 2] }))).toEqual({ a: 1, b: 'y', c: [1, 2] });
  });

  it('replaces a nested object wholesale (the merge is shallow)', () => {
    expect(apply({ a: { x: 1, y: 2 } }, set({ a: { x: 3 } }))).toEqual({ a: { x: 3 } });
  });

  it('can set a key to null (a stored null, not a deletion)', () => {
    const out = apply({ a: 1 }, set({ a: null }));
    expect(out).toEqual({ a: null });
    expect(Object.hasOwn(out!, 'a')).toBe(true);
  });

  it('on a point without a payload, the payload becomes the patch', () => {
    expect(apply(null, set({ a: 1 }))).toEqual({ a: 1 });
    expect(apply(null, set({}))).toEqual({});
  });

  it('an empty patch leaves the payload as it was', () => {
    expect(apply({ a: 1 }, set({}))).toEqual({ a: 1 });
  });

  it('at a key: merges into the object there, keeping its other keys and the siblings', () => {
    expect(apply({ a: { b: 1, c: 2 }, z: 0 }, set({ c: 3, d: 4 }, 'a'))).toEqual({ a: { b: 1, c: 3, d: 4 }, z: 0 });
  });

  it('at a dotted key: walks nested objects', () => {
    expect(apply({ a: { b: { c: 1 }, x: 1 } }, set({ d: 2 }, 'a.b'))).toEqual({ a: { b: { c: 1, d: 2 }, x: 1 } });
  });

  it('at a dotted key: creates the missing objects on the way', () => {
    expect(apply({ z: 1 }, set({ v: 1 }, 'a.b.c'))).toEqual({ z: 1, a: { b: { c: { v: 1 } } } });
    expect(apply(null, set({ v: 1 }, 'a.b'))).toEqual({ a: { b: { v: 1 } } });
  });

  it('at a key: a non-object there (scalar, null, array) is replaced by an object', () => {
    expect(apply({ a: 5 }, set({ v: 1 }, 'a'))).toEqual({ a: { v: 1 } });
    expect(apply({ a: null }, set({ v: 1 }, 'a'))).toEqual({ a: { v: 1 } });
    expect(apply({ a: [1, 2] }, set({ v: 1 }, 'a'))).toEqual({ a: { v: 1 } });
    expect(apply({ a: { b: 'x' } }, set({ v: 1 }, 'a.b'))).toEqual({ a: { b: { v: 1 } } });
  });

  it('the result shares no objects with the patch', () => {
    const patch: Payload = { o: { deep: [1, { x: 1 }] } };
    const op = set(patch, 'k');
    const out = applyPayloadOp({}, op)!;
    ((out.k as Payload).o as Payload).deep = 'changed';
    expect(patch).toEqual({ o: { deep: [1, { x: 1 }] } });
    const top = applyPayloadOp({}, set(patch))!;
    ((top.o as Payload).deep as JsonValue[]).push(2);
    expect(patch).toEqual({ o: { deep: [1, { x: 1 }] } });
  });

  it('the result shares no objects with the current payload', () => {
    const current: Payload = { a: { b: [1] }, n: { m: 1 } };
    const out = applyPayloadOp(current, set({ x: 1 }, 'n'))!;
    ((out.a as Payload).b as JsonValue[]).push(2);
    expect(current).toEqual({ a: { b: [1] }, n: { m: 1 } });
  });
});

describe('applyPayloadOp: overwrite', () => {
  it('replaces the whole payload', () => {
    expect(apply({ a: 1, b: 2 }, { kind: 'overwrite', payload: { c: 3 } })).toEqual({ c: 3 });
    expect(apply(null, { kind: 'overwrite', payload: { c: 3 } })).toEqual({ c: 3 });
    expect(apply({ a: 1 }, { kind: 'overwrite', payload: {} })).toEqual({});
  });

  it('returns a copy, not the payload of the op', () => {
    const payload: Payload = { a: { b: 1 } };
    const out = applyPayloadOp({ z: 1 }, { kind: 'overwrite', payload })!;
    expect(out).not.toBe(payload);
    (out.a as Payload).b = 2;
    expect(payload).toEqual({ a: { b: 1 } });
  });
});

describe('applyPayloadOp: delete', () => {
  it('removes top-level keys and keeps the others', () => {
    const out = apply({ a: 1, b: 2, c: 3 }, del('a', 'c'));
    expect(out).toEqual({ b: 2 });
    expect(Object.keys(out!)).toEqual(['b']);
  });

  it('ignores keys that are not there', () => {
    expect(apply({ a: 1 }, del('zz', 'a.b', 'q.r.s', 'q[].r'))).toEqual({ a: 1 });
  });

  it('removes a nested key a.b, keeping its siblings', () => {
    expect(apply({ a: { b: 1, c: 2 }, b: 'top' }, del('a.b'))).toEqual({ a: { c: 2 }, b: 'top' });
    expect(apply({ a: { b: { c: 1, d: 2 } } }, del('a.b.c'))).toEqual({ a: { b: { d: 2 } } });
  });

  it('removes a whole nested object', () => {
    expect(apply({ a: { b: { c: 1 } } }, del('a.b'))).toEqual({ a: {} });
  });

  it('a dotted key does not name a top-level key containing a dot', () => {
    expect(apply({ 'a.b': 1, a: { b: 2 } }, del('a.b'))).toEqual({ 'a.b': 1, a: {} });
  });

  it('does nothing where the path meets a scalar or null', () => {
    expect(apply({ a: 5, n: null }, del('a.b', 'n.b'))).toEqual({ a: 5, n: null });
  });

  it('a[].b removes b from every object of the array a', () => {
    const current: Payload = { a: [{ b: 1, c: 1 }, { b: 2 }, { c: 3 }, 7, null], d: { b: 1 } };
    expect(apply(current, del('a[].b'))).toEqual({ a: [{ c: 1 }, {}, { c: 3 }, 7, null], d: { b: 1 } });
  });

  it('a[].b.c removes c from the object b of every element', () => {
    const current: Payload = { a: [{ b: { c: 1, d: 1 } }, { b: { c: 2 } }] };
    expect(apply(current, del('a[].b.c'))).toEqual({ a: [{ b: { d: 1 } }, { b: {} }] });
  });

  it('x.a[].b walks into a nested array', () => {
    const current: Payload = { x: { a: [{ b: 1, k: 1 }, { b: 2, k: 2 }] } };
    expect(apply(current, del('x.a[].b'))).toEqual({ x: { a: [{ k: 1 }, { k: 2 }] } });
  });

  it('a.b walks arrays on the way, as filter paths do', () => {
    const current: Payload = { a: [{ b: 1, c: 1 }, [{ b: 2 }], { c: 3 }], z: [{ b: 0 }] };
    expect(apply(current, del('a.b'))).toEqual({ a: [{ c: 1 }, [{}], { c: 3 }], z: [{ b: 0 }] });
  });

  it('afterwards a filter finds no value at a deleted key, and the other top-level keys are as they were', () => {
    const r = rng(99);
    const leaf = (): JsonValue => pick(r, [1, 'x', null, true, [1, 2], { b: 5 }, [{ b: 6, c: 7 }, { c: 8 }]]);
    const obj = (depth: number): Payload => {
      const o: Payload = {};
      for (const k of ['a', 'b', 'c']) {
        if (r() < 0.7) o[k] = depth > 0 && r() < 0.5 ? (r() < 0.5 ? obj(depth - 1) : [obj(depth - 1), leaf()]) : leaf();
      }
      return o;
    };
    const keys = ['a', 'a.b', 'a[].b', 'a.b.c', 'a[].b.c', 'a.b[].c', 'b.c', 'c[].a'];
    for (let i = 0; i < 300; i++) {
      const current = obj(3);
      const key = pick(r, keys);
      const out = apply(current, del(key))!;
      expect(fieldValues(out, parsePath(key)), `${key} of ${JSON.stringify(current)}`).toEqual([]);
      const top = key.split('.')[0]!.replace('[]', '');
      for (const k of Object.keys(current)) if (k !== top) expect(out[k]).toEqual(current[k]);
    }
  });

  it('on a point without a payload stays without one', () => {
    expect(apply(null, del('a'))).toBeNull();
  });

  it('with no keys returns an equal copy', () => {
    const current: Payload = { a: { b: 1 } };
    const out = applyPayloadOp(current, del())!;
    expect(out).toEqual(current);
    expect(out).not.toBe(current);
    expect(out.a).not.toBe(current.a);
  });
});

describe('applyPayloadOp: clear', () => {
  it('drops the payload', () => {
    expect(apply({ a: 1 }, { kind: 'clear' })).toBeNull();
    expect(apply(null, { kind: 'clear' })).toBeNull();
  });
});

describe('applyPayloadOp: never reaches Object.prototype', () => {
  const PROBE = '__quiverProbe';

  // BUG: setAt() walks `cur['__proto__']`, which is Object.prototype (an object), and then
  // Object.assign()s the patch into it: set_payload with key "__proto__" (a valid request, the
  // key is any non-empty string) pollutes every object of the worker.
  it('set at key "__proto__" does not modify Object.prototype', () => {
    try {
      applyPayloadOp({ a: 1 }, set({ [PROBE]: 'polluted' }, '__proto__'));
      expect(Object.hasOwn(Object.prototype, PROBE)).toBe(false);
      expect(({} as Record<string, unknown>)[PROBE]).toBeUndefined();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[PROBE];
    }
  });

  it('overwrite keeps an own "__proto__" key of the payload as plain data', () => {
    const payload = JSON.parse('{"__proto__": {"p": 1}, "x": 2}') as Payload;
    const out = applyPayloadOp(null, { kind: 'overwrite', payload })!;
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"__proto__": {"p": 1}, "x": 2}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  // BUG: set merges with Object.assign, whose [[Set]] of an own "__proto__" key (JSON.parse makes
  // one) replaces the prototype of the result instead: the key is lost (overwrite keeps it).
  it('set keeps an own "__proto__" key of the patch as plain data, like overwrite', () => {
    const payload = JSON.parse('{"__proto__": {"p": 1}, "x": 2}') as Payload;
    const out = applyPayloadOp({ a: 1 }, set(payload))!;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"a": 1, "__proto__": {"p": 1}, "x": 2}'));
  });

  // BUG: likewise deleteAt() follows `__proto__` into Object.prototype and deletes from it.
  it('delete of key "__proto__.x" does not delete from Object.prototype', () => {
    Object.defineProperty(Object.prototype, PROBE, { value: 1, configurable: true, writable: true, enumerable: false });
    try {
      applyPayloadOp({ a: 1 }, del(`__proto__.${PROBE}`));
      expect(Object.hasOwn(Object.prototype, PROBE)).toBe(true);
    } finally {
      delete (Object.prototype as Record<string, unknown>)[PROBE];
    }
  });
});
