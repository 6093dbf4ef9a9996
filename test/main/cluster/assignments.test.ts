// The controller's placement decisions (assignments.ts), without etcd: placement on distinct
// nodes, spread over them (fewest of the collection's replicas first, rendezvous between equals), Dead at lease loss, Partial on return, Active once caught up, a replacement
// after the grace and the Dead one removed only once the replacement is Active.

import { describe, expect, it } from 'vitest';
import { reconcile, reconcileShard, rendezvous, type Assignment, type ControlView, type NodeStatus } from '../../../src/shared/cluster/assignments.js';
import type { CatalogEntry } from '../../../src/shared/cluster/catalog.js';

function view(over: Partial<ControlView>): ControlView {
  return { now: 1_000_000, live: new Set([1, 2, 3]), catalog: new Map(), assignments: new Map(), statuses: new Map(), graceMs: 30_000, ...over };
}

const entry = (id: number, shards: number, rf: number, deleting = false): CatalogEntry => ({ id, config: { shard_number: shards, replication_factor: rf }, deleting });
const report = (key: string, applied: number, caughtUp: boolean, dead = false): NodeStatus => ({ at: '', shards: { [key]: { applied_seq: applied, caught_up: caughtUp, dead } } });

describe('placement', () => {
  it('places rf replicas Active on distinct live nodes, spread evenly, the same on any controller', () => {
    const v = view({ catalog: new Map([['a', entry(7, 4, 2)]]) });
    const changes = reconcile(v);
    expect(changes).toHaveLength(4);
    const held = new Map<number, number>();
    for (const c of changes) {
      const nodes = c.next!.replicas.map((r) => r.node);
      expect(new Set(nodes).size).toBe(2);
      for (const n of nodes) held.set(n, (held.get(n) ?? 0) + 1);
      expect(c.next!.replicas.every((r) => r.state === 'Active')).toBe(true);
      expect(c.next!.epoch).toBe(1);
    }
    // The first shard, with nothing placed yet, goes in rendezvous order; 8 replicas on 3 nodes: 3, 3, 2.
    expect(changes[0]!.next!.replicas.map((r) => r.node)).toEqual(rendezvous(7, 0, [3, 2, 1]).slice(0, 2));
    expect([...held.values()].sort()).toEqual([2, 3, 3]);
    expect(reconcile(v)).toEqual(changes);
  });

  it('shard_number a multiple of the nodes: the same count on each, whatever the collection id (rendezvous alone would pile some up)', () => {
    for (let id = 1; id <= 60; id++) {
      for (const [shards, rf, each] of [[3, 1, 1], [6, 1, 2], [3, 2, 2]] as const) {
        const held = new Map<number, number>();
        for (const c of reconcile(view({ catalog: new Map([['a', entry(id, shards, rf)]]) }))) for (const r of c.next!.replicas) held.set(r.node, (held.get(r.node) ?? 0) + 1);
        expect([...held.values()], `collection ${id}, ${shards} shards, rf ${rf}`).toEqual([each, each, each]);
      }
    }
  });

  it("a replacement goes to the live node holding fewest of the collection's replicas", () => {
    // Node 2 is gone past its grace; node 3 already holds shard 1, node 4 holds nothing of it.
    const assignments = new Map<string, Assignment>([
      ['9/0', { epoch: 3, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Dead', since: 1_000_000 }] }],
      ['9/1', { epoch: 2, replicas: [{ node: 1, state: 'Active' }, { node: 3, state: 'Active' }] }],
    ]);
    const changes = reconcile(view({ live: new Set([1, 3, 4]), now: 1_031_000, catalog: new Map([['a', entry(9, 2, 2)]]), assignments }));
    expect(changes).toEqual([{ collection: 9, shard: 0, next: { epoch: 4, replicas: [...assignments.get('9/0')!.replicas, { node: 4, state: 'Initializing' }] } }]);
  });

  it('a node being drained (removing/) gets no new replica: a new collection and a replacement go to the others', () => {
    const placed = reconcile(view({ leaving: new Set([2]), catalog: new Map([['a', entry(7, 4, 2)]]) }));
    for (const c of placed) expect(c.next!.replicas.map((r) => r.node).sort()).toEqual([1, 3]);
    const dead: Assignment = { epoch: 5, replicas: [{ node: 1, state: 'Active' }, { node: 4, state: 'Dead', since: 1_000_000 }] };
    const next = reconcileShard(1, 0, 2, dead, view({ live: new Set([1, 2, 3]), leaving: new Set([2]), now: 1_031_000 }))!;
    expect(next.replicas[2]).toEqual({ node: 3, state: 'Initializing' });
  });

  it('rf is capped by the live nodes; a collection being deleted is not placed and its assignments go', () => {
    const one = reconcile(view({ live: new Set([5]), catalog: new Map([['a', entry(1, 1, 3)]]) }));
    expect(one[0]!.next!.replicas).toEqual([{ node: 5, state: 'Active' }]);
    const gone = reconcile(view({ catalog: new Map([['a', entry(1, 1, 3, true)]]), assignments: new Map([['1/0', { epoch: 3, replicas: [{ node: 1, state: 'Active' }] }]]) }));
    expect(gone).toEqual([{ collection: 1, shard: 0, next: null }]);
  });
});

describe('replica lifecycle', () => {
  const a0: Assignment = { epoch: 4, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }] };

  it("a node's lease gone: its replica Dead at once, since now; nothing else before the grace", () => {
    const next = reconcileShard(1, 0, 2, a0, view({ live: new Set([1, 3]) }))!;
    expect(next.epoch).toBe(5);
    expect(next.replicas).toEqual([{ node: 1, state: 'Active' }, { node: 2, state: 'Dead', since: 1_000_000 }]);
    // Within the grace: unchanged (the same object: nothing to write).
    expect(reconcileShard(1, 0, 2, next, view({ live: new Set([1, 3]), now: 1_010_000 }))).toBe(next);
  });

  it('past the grace: a replacement Initializing on a free node; the Dead one removed once it is Active', () => {
    const dead: Assignment = { epoch: 5, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Dead', since: 1_000_000 }] };
    const v = view({ live: new Set([1, 3]), now: 1_031_000 });
    const placed = reconcileShard(1, 0, 2, dead, v)!;
    expect(placed.replicas).toEqual([...dead.replicas, { node: 3, state: 'Initializing' }]);
    // Not caught up yet: the Dead one stays.
    expect(reconcileShard(1, 0, 2, placed, { ...v, statuses: new Map([[3, report('1/0', 10, false)]]) })).toBe(placed);
    const done = reconcileShard(1, 0, 2, placed, { ...v, statuses: new Map([[3, report('1/0', 500, true)]]) })!;
    expect(done.replicas).toEqual([{ node: 1, state: 'Active' }, { node: 3, state: 'Active' }]);
    expect(done.epoch).toBe(7);
  });

  it('with no free node the Dead replica stays; its node returns: Partial, then Active once caught up', () => {
    const dead: Assignment = { epoch: 5, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Dead', since: 1_000_000 }] };
    const v = view({ live: new Set([1]), now: 1_100_000 });
    expect(reconcileShard(1, 0, 2, dead, v)).toBe(dead);
    const back = reconcileShard(1, 0, 2, dead, view({ live: new Set([1, 2]), now: 1_100_000 }))!;
    expect(back.replicas).toEqual([{ node: 1, state: 'Active' }, { node: 2, state: 'Partial' }]);
    const active = reconcileShard(1, 0, 2, back, view({ live: new Set([1, 2]), statuses: new Map([[2, report('1/0', 40, true)]]) }))!;
    expect(active.replicas[1]).toEqual({ node: 2, state: 'Active' });
  });

  it('a replica its node reports dead (log behind it) is Dead though the node lives', () => {
    const next = reconcileShard(1, 0, 2, a0, view({ statuses: new Map([[2, report('1/0', 40, false, true)]]) }))!;
    expect(next.replicas[1]).toMatchObject({ node: 2, state: 'Dead' });
  });

  it('a node restarted within its lease (another boot id): its Active replica Partial until caught up, then Active under the new boot', () => {
    const st = (boot: string, caughtUp: boolean): Map<number, NodeStatus> => new Map([[2, { ...report('1/0', 10, caughtUp), boot }]]);
    // Placed Active before any report: the boot id is filled in from the first one.
    const filled = reconcileShard(1, 0, 2, a0, view({ statuses: st('b1', true) }))!;
    expect(filled.replicas[1]).toEqual({ node: 2, state: 'Active', boot: 'b1' });
    expect(reconcileShard(1, 0, 2, filled, view({ statuses: st('b1', true) }))).toBe(filled);
    const restarted = reconcileShard(1, 0, 2, filled, view({ statuses: st('b2', true) }))!;
    expect(restarted.replicas[1]).toEqual({ node: 2, state: 'Partial' });
    expect(reconcileShard(1, 0, 2, restarted, view({ statuses: st('b2', false) }))).toBe(restarted);
    const back = reconcileShard(1, 0, 2, restarted, view({ statuses: st('b2', true) }))!;
    expect(back.replicas[1]).toEqual({ node: 2, state: 'Active', boot: 'b2' });
  });

  it("an assignment's own target (a cluster operation's) wins over replication_factor, and is kept on every rewrite", () => {
    const extra: Assignment = { epoch: 4, target: 3, replicas: [...a0.replicas, { node: 3, state: 'Initializing' }] };
    // replicate_shard's extra replica is not dropped; it turns Active once caught up.
    const v = view({ statuses: new Map([[3, report('1/0', 9, true)]]) });
    const next = reconcileShard(1, 0, 2, extra, v)!;
    expect(next).toEqual({ epoch: 5, target: 3, replicas: [...a0.replicas, { node: 3, state: 'Active' }] });
    // drop_replica's target 1: not re-added.
    const dropped: Assignment = { epoch: 6, target: 1, replicas: [{ node: 1, state: 'Active' }] };
    expect(reconcileShard(1, 0, 2, dropped, view({}))).toBe(dropped);
  });

  describe('a transfer whose target dies before it is Active', () => {
    // move_shard 1 -> 3 of a shard with one replica: target 2 until settle drops the source.
    const moving: Assignment = { epoch: 8, target: 2, replicas: [{ node: 1, state: 'Active' }, { node: 3, state: 'Initializing' }] };
    const inFlight = new Map([['1/0', [{ from: 1, to: 3 }]]]);

    it('ends the move at once: the target replica goes, the source stays, the target count is back to 1', () => {
      const next = reconcileShard(1, 0, 1, moving, view({ live: new Set([1, 2]), transfers: inFlight }))!;
      expect(next).toEqual({ epoch: 9, target: 1, replicas: [{ node: 1, state: 'Active' }] });
      // Long past the grace, with a free node: no replacement for the target, nothing to write.
      expect(reconcileShard(1, 0, 1, next, view({ live: new Set([1, 2]), now: 9_000_000 }))).toBe(next);
    });

    it('a target already marked Dead (a controller change between) ends the same way; a replication keeps the count it had', () => {
      const dead: Assignment = { ...moving, replicas: [moving.replicas[0]!, { node: 3, state: 'Dead', since: 900_000 }] };
      expect(reconcileShard(1, 0, 1, dead, view({ live: new Set([1, 2]), transfers: inFlight }))).toEqual({ epoch: 9, target: 1, replicas: [{ node: 1, state: 'Active' }] });
      // replicate_shard 1 -> 3 on an rf-2 shard held by 1 and 2: back to 2, on 1 and 2.
      const replicating: Assignment = { epoch: 3, target: 3, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }, { node: 3, state: 'Partial' }] };
      const next = reconcileShard(1, 0, 2, replicating, view({ live: new Set([1, 2, 4]), transfers: inFlight, now: 2_000_000 }))!;
      expect(next).toEqual({ epoch: 4, target: 2, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }] });
    });

    it('without the transfer (finished, or a plain replica) a Dead replica waits for its grace as before; a live target is left to catch up', () => {
      const plain = reconcileShard(1, 0, 1, moving, view({ live: new Set([1, 2]) }))!;
      expect(plain.replicas).toEqual([{ node: 1, state: 'Active' }, { node: 3, state: 'Dead', since: 1_000_000 }]);
      expect(plain.target).toBe(2);
      expect(reconcileShard(1, 0, 1, moving, view({ transfers: inFlight }))).toBe(moving);
    });

    it('reconcile passes the transfers to every shard: only the shard with the dead target changes', () => {
      const other: Assignment = { epoch: 2, replicas: [{ node: 1, state: 'Active' }] };
      const changes = reconcile(view({ live: new Set([1, 2]), catalog: new Map([['a', entry(1, 2, 1)]]), assignments: new Map([['1/0', moving], ['1/1', other]]), transfers: inFlight }));
      expect(changes).toEqual([{ collection: 1, shard: 0, next: { epoch: 9, target: 1, replicas: [{ node: 1, state: 'Active' }] } }]);
    });
  });
});
