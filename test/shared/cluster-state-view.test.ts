// ClusterStateView (src/shared/cluster/state-view.ts): a coordinating worker's copy of the main
// thread's cluster state reads replicas, epochs and peers as the main thread's mirror does,
// never goes back to an older snapshot, and tells its listeners of each newer one.

import { describe, expect, it } from 'vitest';
import { ClusterStateView, replicasOf, type ClusterStateSnapshot } from '../../src/shared/cluster/state-view.js';

function snapshot(version: number, over: Partial<ClusterStateSnapshot> = {}): ClusterStateSnapshot {
  return {
    version,
    nodeId: 1,
    bootId: 'boot-now',
    assignments: [['3/0', { epoch: 4, replicas: [{ node: 1, state: 'Active', boot: 'boot-before' }, { node: 2, state: 'Active' }, { node: 3, state: 'Dead' }] }]],
    statuses: [[2, { at: 'x', boot: 'b2', shards: { '3/0': { applied_seq: 17 } } } as never]],
    peers: [{ id: 2, advertise: '127.0.0.1:1', rest_port: 1, grpc_port: 2 }],
    notServingReason: 'This node is not serving: its cluster lease has lapsed',
    ...over,
  };
}

describe('ClusterStateView', () => {
  it('reads replicas (Active under an earlier boot of this node reads Partial), epochs and peers', () => {
    const v = new ClusterStateView();
    expect(v.known).toBe(false);
    expect(v.replicas(3, 0)).toEqual([]);
    v.apply(snapshot(1));
    expect(v.known).toBe(true);
    expect(v.nodeId).toBe(1);
    expect(v.replicas(3, 0)).toEqual([
      { node: 1, state: 'Partial', appliedSeq: 0 },
      { node: 2, state: 'Active', appliedSeq: 17 },
      { node: 3, state: 'Dead', appliedSeq: 0 },
    ]);
    expect(v.epoch(3, 0)).toBe(4);
    expect(v.epoch(3, 1)).toBe(0);
    expect(v.peer(2)?.advertise).toBe('127.0.0.1:1');
    expect(v.peer(3)).toBeUndefined();
  });

  it('keeps the newest snapshot and tells its listeners only of newer ones', () => {
    const v = new ClusterStateView();
    let told = 0;
    const off = v.onChange(() => told++);
    v.apply(snapshot(5, { notServingReason: 'lease lost: keep-alive failed' }));
    v.apply(snapshot(4, { peers: [] }));
    expect(v.peer(2)).toBeDefined();
    expect(v.notServingReason).toBe('lease lost: keep-alive failed');
    expect(told).toBe(1);
    off();
    v.apply(snapshot(6, { peers: [] }));
    expect(v.peer(2)).toBeUndefined();
    expect(told).toBe(1);
  });

  it('replicasOf is the one reading of a replica (the main thread mirror uses it too)', () => {
    const a = { epoch: 1, replicas: [{ node: 5, state: 'Active' as const, boot: 'old' }] };
    expect(replicasOf(a, '1/0', () => ({ at: 'x', boot: 'old', shards: {} }), { nodeId: 1, bootId: 'b' })[0]!.state).toBe('Active');
    expect(replicasOf(a, '1/0', () => ({ at: 'x', boot: 'new', shards: {} }), { nodeId: 1, bootId: 'b' })[0]!.state).toBe('Partial');
    expect(replicasOf(undefined, '1/0', () => undefined, { nodeId: 1, bootId: 'b' })).toEqual([]);
  });
});
