// WriteGarbage: charges below the budget collect nothing; the charge that spends it collects
// once, in a later turn, however many charges arrive in the same turn; the budget starts again
// after each collection.

import { describe, expect, it } from 'vitest';
import { WriteGarbage } from '../../src/workers/write-garbage.js';

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
