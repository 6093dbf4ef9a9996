// A tenant binding's checks inside the shard (protocol.ts TenantGuard): whether a stored point,
// or a payload a write is about to store, matches the binding's filter. The shard decides them
// all before its write changes anything, on its own state at that moment, so a refused write
// writes nothing and, in cluster mode, every replica applying the same log entry decides alike.

import { QuiverError } from '../../shared/errors.js';
import { conditionsOf, type Filter } from '../../shared/filter.js';
import type { TenantGuard } from '../../shared/protocol.js';
import type { Payload, PointId } from '../../shared/types.js';
import { compileFilter, parsePath, valuesAt, type PathPart } from './filter-eval.js';
import type { ShardState } from './shard-state.js';

/** Both filters (a filter is a condition): `b` alone when `a` is null. */
export function andFilter(a: Filter | null | undefined, b: Filter): Filter {
  return a === null || a === undefined ? b : { must: [a, b] };
}

/**
 * The payload keys a binding's filter reads, outside nested conditions, as paths: a write through
 * the binding must hold each as one value. A list would match several tenants' filters at once
 * (a condition on a list matches when any element does), putting the point in their views too.
 * Keys that spread arrays themselves (`a[]`) are left alone: they read lists by design.
 */
function keysRead(f: Filter): { key: string; path: PathPart[] }[] {
  const out: { key: string; path: PathPart[] }[] = [];
  for (const { c, prefix } of conditionsOf(f)) {
    if (prefix !== '') continue;
    const key = 'key' in c && typeof c.key === 'string' ? c.key : 'is_empty' in c && typeof c.is_empty === 'object' && c.is_empty !== null ? c.is_empty.key : 'is_null' in c && typeof c.is_null === 'object' && c.is_null !== null ? c.is_null.key : null;
    if (key !== null && !key.includes('[') && !out.some((k) => k.key === key)) out.push({ key, path: parsePath(key) });
  }
  return out;
}

export class GuardCheck {
  readonly filter: Filter;
  readonly rule: string;
  /** Whether a stored point (by slot) matches. */
  readonly stored: (slot: number) => boolean;
  readonly #fresh: (slot: number) => boolean;
  #payload: Payload | null = null;
  #id: PointId = 0;
  readonly #keys: { key: string; path: PathPart[] }[];

  constructor(guard: TenantGuard, state: ShardState, stored: (slot: number) => boolean) {
    this.filter = guard.filter;
    this.rule = guard.rule;
    this.stored = stored;
    this.#keys = keysRead(guard.filter);
    // One payload at a time, not a stored slot; text matches use the shard's own text indexes,
    // so a new payload is judged as it will be once stored. A guard holds payload conditions only.
    this.#fresh = compileFilter(guard.filter, {
      payload: () => this.#payload,
      id: () => this.#id,
      hasVector: () => false,
      textIndex: (key) => state.payloads.textParams(key),
    });
  }

  /** Whether `payload`, as point `id` would hold it, matches. */
  fits(id: PointId, payload: Payload | null): boolean {
    this.#payload = payload;
    this.#id = id;
    try {
      return this.#fresh(0);
    } finally {
      this.#payload = null;
    }
  }

  /**
   * Throws unless `payload`, as point `id` would hold it after a write (`new`: an upsert's;
   * `change`: after a payload change), matches and holds the keys the filter reads as one value each.
   */
  requireFits(id: PointId, payload: Payload | null, kind: 'new' | 'change'): void {
    if (payload !== null) {
      const list = this.#keys.find((k) => valuesAt(payload, k.path).some(Array.isArray));
      if (list !== undefined) throw QuiverError.forbidden(`point ${String(id)} would hold a list at "${list.key}", which ${this.rule} reads; write it as one value`);
    }
    if (!this.fits(id, payload)) throw kind === 'new' ? this.unmatched(id) : this.leaving(id);
  }

  /** An existing point outside the binding, which the write would change. */
  outside(id: PointId): QuiverError {
    return QuiverError.forbidden(`point ${String(id)} belongs outside ${this.rule}`);
  }

  /** A new point whose payload does not match. */
  unmatched(id: PointId): QuiverError {
    return QuiverError.forbidden(`point ${String(id)} does not match ${this.rule}`);
  }

  /** A payload change that would leave the point outside. */
  leaving(id: PointId): QuiverError {
    return QuiverError.forbidden(`the change would take point ${String(id)} outside ${this.rule}`);
  }
}
