import { describe, expect, it } from 'vitest';
import { CoordinatorTurns, HOP_COST, TIE, pickCoordinator, type CoordinatorView } from '../../../src/main/router/coordinator-choice.js';

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

describe('CoordinatorTurns', () => {
  it('a worker among the freest keeps the turn for turnLength requests in a row, then it passes on', () => {
    const turns = new CoordinatorTurns(3, 4);
    const all = [idle(), idle(), idle()];
    const picks = Array.from({ length: 12 }, () => turns.pick(all, null));
    expect(picks).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('a worker that becomes clearly busier loses the turn at once, and the new one starts a full run', () => {
    const turns = new CoordinatorTurns(2, 3);
    const views = [idle(), idle()];
    expect(turns.pick(views, null)).toBe(0);
    views[0]!.busy = TIE + 100;
    expect([turns.pick(views, null), turns.pick(views, null), turns.pick(views, null)]).toEqual([1, 1, 1]);
    views[0]!.busy = 0;
    expect(turns.pick(views, null)).toBe(0);
  });

  it('answers -1 when no worker is open, keeping the turn where it was', () => {
    const turns = new CoordinatorTurns(2, 16);
    turns.pick([idle({ busy: 900 }), idle()], null);
    expect(turns.pick([idle({ open: false }), idle({ open: false })], null)).toBe(-1);
    expect(turns.next).toBe(1);
  });
});
