// A tenant binding's guard inside the shard (src/workers/shard/tenant-guard.ts, shard-writes.ts):
// reads by id leave out points outside the filter, writes refuse (Forbidden, naming the rule) to
// write a point outside it or to leave one outside it, and deletes touch only points inside it.
// Every refusal is decided before anything is written: memory and LMDB stay as they were.

import { afterEach, describe, expect, it } from 'vitest';
import { QuiverError } from '../../../src/shared/errors.js';
import type { TenantGuard } from '../../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import type { PointId } from '../../../src/shared/types.js';
import { batch, shardFixture, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

const RULE = 'the binding tenant=acme';
const guard: TenantGuard = { filter: { must: [{ key: 'tenant', match: { value: 'acme' } }] }, rule: RULE };
const all = { must_not: [{ key: 'absent', match: { value: 1 } }] };

/** Points 1, 2 of acme, 3, 4 of beta, at op ids 1..4. */
async function twoTenants(): Promise<Fixture> {
  fx = shardFixture();
  await fx.shard.upsert(batch([1, 2, 3, 4], [[1, 0], [1, 1], [0, 1], [2, 1]], [{ tenant: 'acme' }, { tenant: 'acme' }, { tenant: 'beta' }, { tenant: 'beta' }]), 4, true);
  return fx;
}

/** Every point as memory and LMDB hold it (payload, vector and version), to compare before and after a refusal. */
function state(): unknown {
  const ids: PointId[] = [1, 2, 3, 4, 5, 6, 7, 8, 99];
  return { memory: fx.shard.retrieve(ids, { kind: 'all' }, { kind: 'all' }), disk: ids.map((id) => fx.db.points.get([7, 0, id]) ?? null) };
}

async function refused(write: () => Promise<unknown>, message: string): Promise<void> {
  const before = state();
  const err = await write().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QuiverError);
  expect((err as QuiverError).code).toBe('Forbidden');
  expect((err as QuiverError).message).toBe(message);
  await fx.db.points.committed;
  expect(state()).toEqual(before);
}

const payloadOf = (id: PointId): unknown => fx.shard.retrieve([id], { kind: 'all' }, { kind: 'none' })[0]?.payload;

describe('retrieve with a filter', () => {
  it('leaves out the points outside it, as missing ones', async () => {
    await twoTenants();
    expect(fx.shard.retrieve([3, 1, 99, 2], { kind: 'none' }, { kind: 'none' }, guard.filter)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(fx.shard.retrieve([3, 1], { kind: 'none' }, { kind: 'none' }, null)).toEqual([{ id: 3 }, { id: 1 }]);
  });
});

describe('upsert under a guard', () => {
  it('writes points whose new payload matches, new or already inside', async () => {
    await twoTenants();
    expect(await fx.shard.upsert(batch([5, 1], [[1, 2], [3, 3]], [{ tenant: 'acme', n: 5 }, { tenant: 'acme', n: 1 }]), 10, true, UNCONDITIONAL, guard)).toEqual({ applied: 2 });
    expect(payloadOf(1)).toEqual({ tenant: 'acme', n: 1 });
  });

  it('refuses a batch holding a payload outside the filter: none of it is written', async () => {
    await twoTenants();
    await refused(() => fx.shard.upsert(batch([6, 7], [[1, 0], [0, 1]], [{ tenant: 'acme' }, { tenant: 'beta' }]), 10, true, UNCONDITIONAL, guard), `Forbidden: point 7 does not match ${RULE}`);
    await refused(() => fx.shard.upsert(batch([6], [[1, 0]], [null]), 10, true, UNCONDITIONAL, guard), `Forbidden: point 6 does not match ${RULE}`);
  });

  it('refuses to overwrite an existing point outside the filter, whatever update_filter says', async () => {
    await twoTenants();
    await refused(() => fx.shard.upsert(batch([8, 3], [[1, 0], [0, 1]], [{ tenant: 'acme' }, { tenant: 'acme' }]), 10, true, UNCONDITIONAL, guard), `Forbidden: point 3 belongs outside ${RULE}`);
    // Skipping on update_filter would tell the caller something of the other tenant's payload.
    const onlyIf = { mode: 'upsert' as const, updateFilter: { must: [{ key: 'tenant', match: { value: 'nobody' } }] } };
    await refused(() => fx.shard.upsert(batch([3], [[0, 1]], [{ tenant: 'acme' }]), 10, true, onlyIf, guard), `Forbidden: point 3 belongs outside ${RULE}`);
  });

  it('insert_only skips an existing point outside (not written), and an older op than the point is skipped as ever', async () => {
    await twoTenants();
    expect(await fx.shard.upsert(batch([3, 5], [[0, 1], [1, 0]], [{ tenant: 'acme' }, { tenant: 'acme' }]), 10, true, { mode: 'insert_only', updateFilter: null }, guard)).toEqual({ applied: 1 });
    expect(payloadOf(3)).toEqual({ tenant: 'beta' });
    expect(await fx.shard.upsert(batch([3], [[0, 1]], [{ tenant: 'acme' }]), 2, true, UNCONDITIONAL, guard)).toEqual({ applied: 0 });
    expect(payloadOf(3)).toEqual({ tenant: 'beta' });
  });

  it('judges a new payload with the shard text index, as stored points are judged', async () => {
    fx = shardFixture();
    fx.shard.createIndex('team', { type: 'text', text: { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true } });
    const byText: TenantGuard = { filter: { must: [{ key: 'team', match: { text: 'Acme' } }] }, rule: 'team Acme' };
    // Tokens, lowercased: "acme corp" holds the token "acme" (a raw substring test would say no).
    expect(await fx.shard.upsert(batch([1], [[1, 0]], [{ team: 'acme corp' }]), 1, true, UNCONDITIONAL, byText)).toEqual({ applied: 1 });
    expect(fx.shard.retrieve([1], { kind: 'none' }, { kind: 'none' }, byText.filter)).toEqual([{ id: 1 }]);
    await refused(() => fx.shard.upsert(batch([2], [[1, 0]], [{ team: 'acmecorp' }]), 2, true, UNCONDITIONAL, byText), 'Forbidden: point 2 does not match team Acme');
  });
});

describe('updateVectors under a guard', () => {
  it('replaces the vectors of points inside, refuses any point outside, and a missing id is still 404', async () => {
    await twoTenants();
    expect(await fx.shard.updateVectors(batch([1], [[5, 5]]), 10, true, UNCONDITIONAL, guard)).toBe(1);
    await refused(() => fx.shard.updateVectors(batch([2, 3], [[9, 9], [9, 9]]), 11, true, UNCONDITIONAL, guard), `Forbidden: point 3 belongs outside ${RULE}`);
    await expect(fx.shard.updateVectors(batch([99], [[9, 9]]), 12, true, UNCONDITIONAL, guard)).rejects.toMatchObject({ code: 'NotFound' });
  });
});

describe('payload changes under a guard', () => {
  it('refuses named points outside, and a change that would take a point outside', async () => {
    await twoTenants();
    await refused(() => fx.shard.updatePayload({ kind: 'set', payload: { x: 1 }, key: null }, [1, 3], null, 10, true, guard), `Forbidden: point 3 belongs outside ${RULE}`);
    await refused(() => fx.shard.updatePayload({ kind: 'set', payload: { tenant: 'beta' }, key: null }, [1], null, 10, true, guard), `Forbidden: the change would take point 1 outside ${RULE}`);
    await refused(() => fx.shard.updatePayload({ kind: 'delete', keys: ['tenant'] }, [1, 2], null, 10, true, guard), `Forbidden: the change would take point 1 outside ${RULE}`);
    await refused(() => fx.shard.updatePayload({ kind: 'overwrite', payload: { x: 1 } }, [2], null, 10, true, guard), `Forbidden: the change would take point 2 outside ${RULE}`);
    await expect(fx.shard.updatePayload({ kind: 'set', payload: { x: 1 }, key: null }, [99], null, 10, true, guard)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('by filter, changes only points matching both, each checked after the change', async () => {
    await twoTenants();
    expect(await fx.shard.updatePayload({ kind: 'set', payload: { x: 1 }, key: null }, null, all, 10, true, guard)).toBe(2);
    expect([1, 2, 3, 4].map(payloadOf)).toEqual([{ tenant: 'acme', x: 1 }, { tenant: 'acme', x: 1 }, { tenant: 'beta' }, { tenant: 'beta' }]);
    await refused(() => fx.shard.updatePayload({ kind: 'clear' }, null, all, 11, true, guard), `Forbidden: the change would take point 1 outside ${RULE}`);
    expect(await fx.shard.updatePayload({ kind: 'overwrite', payload: { tenant: 'acme', y: 2 } }, [1], null, 12, true, guard)).toBe(1);
    expect(payloadOf(1)).toEqual({ tenant: 'acme', y: 2 });
    // What was stored is what was checked, and it reaches LMDB.
    await fx.db.points.committed;
    expect(fx.db.points.get([7, 0, 1])?.p).toBe(JSON.stringify({ tenant: 'acme', y: 2 }));
  });
});

describe('deletes under a guard', () => {
  it('delete skips named points outside (as missing ones) and by filter deletes those matching both', async () => {
    await twoTenants();
    expect(await fx.shard.delete([1, 3, 99], null, 10, true, guard)).toBe(1);
    expect(await fx.shard.delete(null, all, 11, true, guard)).toBe(1);
    expect(fx.shard.retrieve([1, 2, 3, 4], { kind: 'none' }, { kind: 'none' })).toEqual([{ id: 3 }, { id: 4 }]);
  });

  it('deleteVectors skips named points outside and by filter reaches only points matching both', async () => {
    await twoTenants();
    expect(await fx.shard.deleteVectors([''], [3], null, 10, true, guard)).toBe(0);
    expect(await fx.shard.deleteVectors([''], null, all, 11, true, guard)).toBe(2);
    const vectors = fx.shard.retrieve([1, 2, 3, 4], { kind: 'none' }, { kind: 'all' }).map((r) => r.vector);
    expect(vectors.map((v) => v instanceof Float32Array)).toEqual([false, false, true, true]);
  });
});
