// WriteGarbage: charges below the budget collect nothing; the charge that spends it collects
// once, in a later turn, however many charges arrive in the same turn; the budget starts again
// after each collection. upsertBodyBytes charges REST and gRPC upserts only, never reads.

import { describe, expect, it } from 'vitest';
import { upsertBodyBytes, WriteGarbage } from '../../src/shared/write-garbage.js';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WriteGarbage', () => {
  it('collects once per budget spent, never inside the charging turn', async () => {
    let collected = 0;
    const g = new WriteGarbage(100, () => collected++);
    g.charge(60);
    await turn();
    expect(collected).toBe(0);
    g.charge(40);
    expect(collected).toBe(0);
    g.charge(500);
    g.charge(500);
    await turn();
    expect(collected).toBe(1);
    expect(g.collections).toBe(1);
    // Spent again from zero.
    g.charge(99);
    await turn();
    expect(collected).toBe(1);
    g.charge(1);
    await turn();
    expect(collected).toBe(2);
  });
});

describe('upsertBodyBytes', () => {
  const body = new Uint8Array(42);
  it('counts the body of a REST or gRPC upsert', () => {
    expect(upsertBodyBytes({ route: 'PUT /collections/:collection_name/points', params: {}, query: {}, body, t0: 0 })).toBe(42);
    expect(upsertBodyBytes({ kind: 'grpc', method: 'Upsert', params: {}, body, t0: 0 })).toBe(42);
  });
  it('counts nothing for reads or a request without a body', () => {
    expect(upsertBodyBytes({ route: 'POST /collections/:collection_name/points/search', params: {}, query: {}, body, t0: 0 })).toBe(0);
    expect(upsertBodyBytes({ kind: 'grpc', method: 'Search', params: {}, body, t0: 0 })).toBe(0);
    expect(upsertBodyBytes({ route: 'PUT /collections/:collection_name/points', params: {}, query: {}, body: null, t0: 0 })).toBe(0);
  });
});
