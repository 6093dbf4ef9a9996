// A tenant binding's checks inside the shard (protocol.ts TenantGuard): whether a stored point,
// or a payload a write is about to store, matches the binding's filter. The shard decides them
// all before its write changes anything, on its own state at that moment, so a refused write
// writes nothing and, in cluster mode, every replica applying the same log entry decides alike.

import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import type { TenantGuard } from '../../shared/protocol.js';
import type { Payload, PointId } from '../../shared/types.js';
import { compileFilter } from './filter-eval.js';
import type { ShardState } from './shard-state.js';

/** Both filters (a filter is a condition): `b` alone when `a` is null. */
export function andFilter(a: Filter | null | undefined, b: Filter): Filter {
  return a === null || a === undefined ? b : { must: [a, b] };
}

/** A write refused by a binding: 403, naming its rule. */
export function forbidden(message: string): QuiverError {
  return new QuiverError('Forbidden', `Forbidden: ${message}`);
}

export class GuardCheck {
  readonly filter: Filter;
  readonly rule: string;
  /** Whether a stored point (by slot) matches. */
  readonly stored: (slot: number) => boolean;
  readonly #fresh: (slot: number) => boolean;
  #payload: Payload | null = null;
  #id: PointId = 0;

  constructor(guard: TenantGuard, state: ShardState, stored: (slot: number) => boolean) {
    this.filter = guard.filter;
    this.rule = guard.rule;
    this.stored = stored;
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

  /** An existing point outside the binding, which the write would change. */
  outside(id: PointId): QuiverError {
    return forbidden(`point ${String(id)} belongs outside ${this.rule}`);
  }

  /** A new point whose payload does not match. */
  unmatched(id: PointId): QuiverError {
    return forbidden(`point ${String(id)} does not match ${this.rule}`);
  }

  /** A payload change that would leave the point outside. */
  leaving(id: PointId): QuiverError {
    return forbidden(`the change would take point ${String(id)} outside ${this.rule}`);
  }
}
