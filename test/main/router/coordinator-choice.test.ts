import { describe, expect, it } from 'vitest';
import { HOP_COST, pickCoordinator, type CoordinatorView } from '../../../src/main/router/coordinator-choice.js';

const idle = (over: Partial<CoordinatorView> = {}): CoordinatorView => ({ open: true, busy: 0, load: 0, ...over });

describe('pickCoordinator', () => {
  it("an idle server coordinates on the shard's own worker, whoever is next in turn", () => {
    expect(pickCoordinator([idle(), idle(), idle()], [2], 0)).toBe(2);
    expect(pickCoordinator([idle(), idle(), idle()], [1], 2)).toBe(1);
  });

  it('a saturated owner leaves the request to a sibling with room', () => {
    expect(pickCoordinator([idle({ busy: 1000, load: 20 }), idle({ busy: 300 })], [0], 0)).toBe(1);
  });

  it('an owner only slightly busier than a sibling still coordinates (the hop costs more)', () => {
    expect(pickCoordinator([idle({ busy: HOP_COST - 10 }), idle()], [0], 1)).toBe(0);
  });

  it('requests already held count, so one window of readings does not send everything to one worker', () => {
    expect(pickCoordinator([idle({ load: 10 }), idle({ load: 0 })], null, 0)).toBe(1);
  });

  it('ties go to the next in turn; without owners every worker is alike', () => {
    expect(pickCoordinator([idle(), idle(), idle()], null, 1)).toBe(1);
    expect(pickCoordinator([idle(), idle(), idle()], [0, 2], 1)).toBe(2);
  });

  it('skips threads being replaced, and answers -1 when none is open', () => {
    expect(pickCoordinator([idle({ open: false }), idle({ busy: 900 })], [0], 0)).toBe(1);
    expect(pickCoordinator([idle({ open: false }), idle({ open: false })], null, 0)).toBe(-1);
  });
});
