import { describe, expect, it } from 'vitest';
import { HOP_COST, TIE, pickCoordinator, type CoordinatorView } from '../../../src/main/router/coordinator-choice.js';

const idle = (over: Partial<CoordinatorView> = {}): CoordinatorView => ({ open: true, busy: 0, ...over });

describe('pickCoordinator', () => {
  it("an idle server coordinates on the shard's own worker, whoever's turn it is", () => {
    expect(pickCoordinator([idle(), idle(), idle()], [2], 0)).toBe(2);
    expect(pickCoordinator([idle(), idle(), idle()], [1], 2)).toBe(1);
  });

  it('a saturated owner leaves the request to a sibling with room', () => {
    expect(pickCoordinator([idle({ busy: 1000 }), idle({ busy: 300 })], [0], 0)).toBe(1);
  });

  it('an owner only slightly busier than a sibling still coordinates (the hop costs more)', () => {
    expect(pickCoordinator([idle({ busy: HOP_COST - TIE - 10 }), idle()], [0], 1)).toBe(0);
  });

  it('workers about as free as the freest take turns; a clearly busier one waits', () => {
    const two = [idle({ busy: 3 }), idle({ busy: TIE - 10 })];
    expect(pickCoordinator(two, [0, 1], 0)).toBe(0);
    expect(pickCoordinator(two, [0, 1], 1)).toBe(1);
    const busier = [idle({ busy: 3 }), idle({ busy: TIE + 10 })];
    expect(pickCoordinator(busier, [0, 1], 1)).toBe(0);
  });

  it('skips threads being replaced, and answers -1 when none is open', () => {
    expect(pickCoordinator([idle({ open: false }), idle({ busy: 900 })], [0], 0)).toBe(1);
    expect(pickCoordinator([idle({ open: false }), idle({ open: false })], null, 0)).toBe(-1);
  });
});
