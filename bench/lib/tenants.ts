// The tenant bench's pure parts (bench/run/tenant.ts): which tenant each point belongs to, the
// dataset's rows at unit length for exact cosine, and what a tenant's search answers are worth
// (recall@k against exact top-k among its points, and any other tenant's point it let through).

import { rng } from './seeded-data.js';
import { UNIT } from './dataset.js';

/**
 * Tenant index per point, drawn with Zipf weights 1 / (j + 1) over `count` tenants (uneven, as
 * real tenants are: at 20, t0 holds ~28% and t19 ~1.4%), independent of the vectors.
 */
export function assignTenants(n: number, count: number, seed: number): Uint8Array {
  if (count < 1 || count > 255) throw new Error(`tenant count must be 1..255, got ${count}`);
  const cum: number[] = [];
  let total = 0;
  for (let j = 0; j < count; j++) cum.push((total += 1 / (j + 1)));
  const r = rng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const u = r() * total;
    let j = 0;
    while (j < count - 1 && cum[j]! <= u) j++;
    out[i] = j;
  }
  return out;
}

/** The ids of tenant `t`, ascending. */
export function idsOfTenant(tenantOf: Uint8Array, t: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < tenantOf.length; i++) if (tenantOf[i] === t) out.push(i);
  return out;
}

/** `count` rows of dataset units as float32 at unit length (what Cosine compares). */
export function unitRows(units: Int32Array, count: number, dim: number): Float32Array {
  const out = new Float32Array(count * dim);
  for (let i = 0; i < count; i++) {
    const b = i * dim;
    let s = 0;
    for (let d = 0; d < dim; d++) s += (units[b + d]! / UNIT) ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let d = 0; d < dim; d++) out[b + d] = (units[b + d]! / UNIT) * inv;
  }
  return out;
}

export interface TenantCheck {
  recall: number;
  /** ids returned that belong to another tenant than `bound` (must be 0) */
  foreign: number;
  /** the first few of them, for the report */
  foreignIds: number[];
  /** queries answered with fewer than their truth's length */
  short: number;
}

/** recall@k of `found` against `truth`, and every id of `found` whose tenant is not `bound` (null: any tenant). */
export function checkAnswers(found: readonly (readonly number[])[], truth: readonly (readonly number[])[], tenantOf: Uint8Array, bound: number | null): TenantCheck {
  let hit = 0;
  let total = 0;
  let foreign = 0;
  let short = 0;
  const foreignIds: number[] = [];
  for (let q = 0; q < truth.length; q++) {
    const want = new Set(truth[q]);
    const got = found[q] ?? [];
    if (got.length < truth[q]!.length) short++;
    for (const id of new Set(got)) if (want.has(id)) hit++;
    for (const id of got) {
      if (bound === null || tenantOf[id] === bound) continue;
      foreign++;
      if (foreignIds.length < 5) foreignIds.push(id);
    }
    total += truth[q]!.length;
  }
  return { recall: total === 0 ? 0 : hit / total, foreign, foreignIds, short };
}
