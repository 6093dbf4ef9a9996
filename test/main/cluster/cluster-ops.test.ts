// The cluster operations as pure changes of a shard's assignment (cluster-ops.ts): what each
// adds or drops, that a move breaks its source only once the target is Active, and every refusal
// with its status and message. The etcd path is tested end to end in cluster-api.workers.test.ts.

import { describe, expect, it } from 'vitest';
import { drainTarget, OpRefused, plan, settle, type Assignment, type ShardOp, type Transfer } from '../../../src/shared/cluster/cluster-ops.js';
import { shardOpOf } from '../../../src/main/service/cluster.js';
import { QuiverError } from '../../../src/shared/errors.js';

const a = (...replicas: [number, Assignment['replicas'][number]['state']][]): Assignment => ({ epoch: 4, replicas: replicas.map(([node, state]) => ({ node, state })) });
const live = (...nodes: number[]) => (n: number): boolean => nodes.includes(n);

function refusal(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof OpRefused || e instanceof QuiverError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('not refused');
}

describe('plan', () => {
  it('replicate_shard adds an Initializing replica on the target and a sync transfer; the epoch grows', () => {
    const p = plan({ kind: 'replicate_shard', shard: 0, from: 1, to: 3, method: null }, 'c', a([1, 'Active'], [2, 'Active']), [], live(1, 2, 3));
    // The shard now keeps three (its own target: the control plane does not trim it back to the collection's replication_factor).
    expect(p.assignment).toEqual({ epoch: 5, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }, { node: 3, state: 'Initializing' }], target: 3 });
    expect(p.addTransfers).toEqual([{ shard: 0, from: 1, to: 3, sync: true, method: null }]);
  });

  it('move_shard adds the target but keeps the source (make-before-break); settle drops the source once the target is Active', () => {
    const before = a([1, 'Active'], [2, 'Active']);
    const p = plan({ kind: 'move_shard', shard: 2, from: 1, to: 3, method: 'stream_records' }, 'c', before, [], live(1, 2, 3));
    expect(p.assignment?.replicas.map((r) => r.node)).toEqual([1, 2, 3]);
    // Three kept while the move runs, two again once its source is dropped.
    expect(p.assignment?.target).toBe(3);
    const t: Transfer = { shard: 2, from: 1, to: 3, sync: false, method: 'stream_records' };
    expect(p.addTransfers).toEqual([t]);
    // Target still catching up: nothing is due.
    expect(settle(p.assignment!, [t])).toBeNull();
    const caughtUp: Assignment = { epoch: 6, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }, { node: 3, state: 'Active' }], target: 3 };
    expect(settle(caughtUp, [t])).toEqual({ assignment: { epoch: 7, replicas: [{ node: 2, state: 'Active' }, { node: 3, state: 'Active' }], target: 2 }, addTransfers: [], removeTransfers: [t] });
  });

  it('a replication ends without dropping anything; a transfer whose target was dropped just ends', () => {
    const sync: Transfer = { shard: 0, from: 1, to: 3, sync: true, method: null };
    expect(settle(a([1, 'Active'], [3, 'Active']), [sync])).toEqual({ assignment: null, addTransfers: [], removeTransfers: [sync] });
    expect(settle(a([1, 'Active']), [{ ...sync, sync: false }])).toEqual({ assignment: null, addTransfers: [], removeTransfers: [{ ...sync, sync: false }] });
  });

  it('drop_replica removes the replica and the transfers to or from it', () => {
    const t: Transfer = { shard: 0, from: 2, to: 3, sync: true, method: null };
    const p = plan({ kind: 'drop_replica', shard: 0, peer: 2 }, 'c', a([1, 'Active'], [2, 'Active'], [3, 'Initializing']), [t], live(1, 2, 3));
    expect(p.assignment?.replicas.map((r) => r.node)).toEqual([1, 3]);
    expect(p.assignment?.target).toBe(2);
    expect(p.removeTransfers).toEqual([t]);
  });

  it('abort_transfer drops a target that does not serve yet, and ends the transfer', () => {
    const t: Transfer = { shard: 0, from: 1, to: 3, sync: false, method: null };
    const p = plan({ kind: 'abort_transfer', shard: 0, from: 1, to: 3 }, 'c', a([1, 'Active'], [3, 'Initializing']), [t], live(1, 3));
    expect(p.assignment?.replicas).toEqual([{ node: 1, state: 'Active' }]);
    expect(p.removeTransfers).toEqual([t]);
  });

  const cases: [string, ShardOp, Assignment | null, Transfer[], { code: string; message: string }][] = [
    ['an unassigned shard', { kind: 'drop_replica', shard: 7, peer: 1 }, null, [], { code: 'NotFound', message: 'Shard 7 of collection c does not exist' }],
    ['the same source and target', { kind: 'move_shard', shard: 0, from: 1, to: 1, method: null }, a([1, 'Active']), [], { code: 'BadInput', message: 'Source and target peers must differ: both are 1' }],
    ['a source without a replica', { kind: 'replicate_shard', shard: 0, from: 2, to: 3, method: null }, a([1, 'Active']), [], { code: 'BadInput', message: 'Peer 2 has no replica of shard 0 of collection c' }],
    ['a source that is not Active', { kind: 'replicate_shard', shard: 0, from: 2, to: 3, method: null }, a([1, 'Active'], [2, 'Dead']), [], { code: 'BadInput', message: 'The replica of shard 0 on peer 2 is Dead, not Active: it cannot be a transfer\'s source' }],
    ['an unknown target peer', { kind: 'move_shard', shard: 0, from: 1, to: 99, method: null }, a([1, 'Active']), [], { code: 'NotFound', message: 'Peer 99 does not exist (no live node has that id)' }],
    ['a target that already has a replica', { kind: 'replicate_shard', shard: 0, from: 1, to: 2, method: null }, a([1, 'Active'], [2, 'Active']), [], { code: 'BadInput', message: 'Peer 2 already has a replica of shard 0 of collection c' }],
    ['dropping the last Active replica', { kind: 'drop_replica', shard: 0, peer: 1 }, a([1, 'Active'], [2, 'Initializing']), [], { code: 'BadInput', message: 'Cannot drop the replica of shard 0 on peer 1: no other Active replica of that shard would remain' }],
    ['dropping a replica the peer does not have', { kind: 'drop_replica', shard: 0, peer: 3 }, a([1, 'Active']), [], { code: 'BadInput', message: 'Peer 3 has no replica of shard 0 of collection c' }],
    ['aborting a transfer that is not there', { kind: 'abort_transfer', shard: 0, from: 1, to: 2 }, a([1, 'Active']), [], { code: 'NotFound', message: 'No transfer of shard 0 of collection c from peer 1 to peer 2' }],
  ];
  for (const [what, op, assignment, transfers, want] of cases) {
    it(`refuses ${what}`, () => {
      expect(refusal(() => plan(op, 'c', assignment, transfers, live(1, 2, 3)))).toEqual(want);
    });
  }
});

describe('drainTarget', () => {
  it('picks a live node without a replica, the least loaded first, never the leaving one', () => {
    const load = new Map([[2, 5], [3, 1], [4, 1]]);
    expect(drainTarget(a([1, 'Active'], [3, 'Active']), [1, 2, 3, 4], load, 1)).toBe(4);
    expect(drainTarget(a([1, 'Active'], [2, 'Active']), [1, 2], load, 1)).toBeNull();
  });
});

describe('shardOpOf (the REST body)', () => {
  it('reads each of the four operations', () => {
    expect(shardOpOf({ move_shard: { shard_id: 1, from_peer_id: 2, to_peer_id: 3 } })).toEqual({ kind: 'move_shard', shard: 1, from: 2, to: 3, method: null });
    expect(shardOpOf({ replicate_shard: { shard_id: 0, from_peer_id: 2, to_peer_id: 3, method: 'snapshot' } })).toEqual({ kind: 'replicate_shard', shard: 0, from: 2, to: 3, method: 'snapshot' });
    expect(shardOpOf({ drop_replica: { shard_id: 0, peer_id: 2 } })).toEqual({ kind: 'drop_replica', shard: 0, peer: 2 });
    expect(shardOpOf({ abort_transfer: { shard_id: 0, from_peer_id: 2, to_peer_id: 3 } })).toEqual({ kind: 'abort_transfer', shard: 0, from: 2, to: 3 });
  });

  it('refuses none, two, an unsupported one, and resharding, with 400 and the reason', () => {
    expect(refusal(() => shardOpOf({}))).toEqual({ code: 'BadInput', message: 'The body must name exactly one cluster operation (move_shard, replicate_shard, drop_replica, abort_transfer); it names none' });
    expect(refusal(() => shardOpOf({ drop_replica: { shard_id: 0, peer_id: 1 }, abort_transfer: { shard_id: 0, from_peer_id: 1, to_peer_id: 2 } })).message).toBe(
      'The body must name exactly one cluster operation (move_shard, replicate_shard, drop_replica, abort_transfer); it names drop_replica, abort_transfer',
    );
    expect(refusal(() => shardOpOf({ create_sharding_key: {} } as never))).toEqual({ code: 'BadInput', message: 'Unsupported cluster operation: create_sharding_key (Quiver serves move_shard, replicate_shard, drop_replica, abort_transfer)' });
    expect(refusal(() => shardOpOf({ move_shard: { shard_id: 0, from_peer_id: 1, to_peer_id: 2, to_shard_id: 3 } })).message).toBe('to_shard_id is for resharding, which Quiver does not do');
  });
});
