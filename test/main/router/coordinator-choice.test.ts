import { describe, expect, it } from 'vitest';
import { HOP_COST, STICKY, pickCoordinator, type CoordinatorView } from '../../../src/main/router/coordinator-choice.js';

const idle = (over: Partial<CoordinatorView> = {}): CoordinatorView => ({ open: true, busy: 0, ...over });

describe('pickCoordinator', () => {
  it("an idle server coordinates on the shard's own worker, whichever coordinated last", () => {
    expect(pickCoordinator([idle(), idle(), idle()], [2], 0)).toBe(2);
    expect(pickCoordinator([idle(), idle(), idle()], [1], 2)).toBe(1);
  });

  it('a saturated owner leaves the request to a sibling with room', () => {
    expect(pickCoordinator([idle({ busy: 1000 }), idle({ busy: 300 })], [0], 0)).toBe(1);
  });

  it('an owner only slightly busier than a sibling still coordinates (the hop costs more)', () => {
    expect(pickCoordinator([idle({ busy: HOP_COST - STICKY - 10 }), idle()], [0], 1)).toBe(0);
  });

  it('stays with the last coordinator while no other is clearly freer, then moves', () => {
    expect(pickCoordinator([idle(), idle({ busy: STICKY - 10 }), idle()], null, 1)).toBe(1);
    expect(pickCoordinator([idle(), idle({ busy: STICKY + 10 }), idle()], null, 1)).toBe(2);
    expect(pickCoordinator([idle({ busy: 5 }), idle({ busy: 500 }), idle({ busy: 5 })], [0, 2], 1)).toBe(2);
  });

  it('skips threads being replaced, and answers -1 when none is open', () => {
    expect(pickCoordinator([idle({ open: false }), idle({ busy: 900 })], [0], 0)).toBe(1);
    expect(pickCoordinator([idle({ open: false }), idle({ open: false })], null, 0)).toBe(-1);
  });
});
