// The controller's loop against a real etcd, in this process: elected, it places a new
// collection's shards over the live nodes, removes the assignments of a deleted collection, and
// removes a catalog entry left marked deleting for longer than 30 s (its deleting node died
// mid-delete), ends a move whose target died, places nothing on a node being drained; a loop
// whose node is not the controller writes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { ControlLoop } from '../../../src/control/control-loop.js';
import { ControllerElection } from '../../../src/control/controller.js';
import type { Assignment } from '../../../src/shared/cluster/assignments.js';
import type { FromEtcdThread } from '../../../src/shared/cluster/messages.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 20_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(etcdMissing() !== null)('controller loop', () => {
  let etcd: EtcdCluster;
  let client: Etcd3;
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    etcd = await startEtcd(1);
    client = new Etcd3({ hosts: etcd.endpoints });
  });
  afterAll(async () => {
    for (const s of stops) await s();
    client?.close();
    await etcd?.stop();
  });

  const put = (key: string, value: unknown): Promise<unknown> => client.put(`/quiver/${key}`).value(JSON.stringify(value)).exec();
  const get = async <T>(key: string): Promise<T | null> => {
    const v = await client.get(`/quiver/${key}`).string();
    return v === null ? null : (JSON.parse(v) as T);
  };

  it('places, cleans up after deletes, and removes a stale deleting mark; a non-controller writes nothing', async () => {
    const ns = client.namespace('/quiver/');
    const events: FromEtcdThread[] = [];
    await put('nodes/11', { id: 11 });
    await put('nodes/12', { id: 12 });
    // A second loop on a node that never wins: it must not write.
    const loser = new ControlLoop(client, ns, { token: null } as unknown as ControllerElection, 30_000, () => undefined);
    loser.start();
    stops.push(() => loser.stop());
    await put('catalog/a', { id: 1, config: { shard_number: 2, replication_factor: 2 }, deleting: false });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await get('assign/1/0')).toBeNull();

    const election = new ControllerElection(ns, 11, 5, (m) => events.push(m));
    const loop = new ControlLoop(client, ns, election, 30_000, (m) => events.push(m));
    election.start();
    loop.start();
    stops.push(async () => {
      await loop.stop();
      await election.stop();
    });
    for (const s of [0, 1]) {
      const a = await until(`assign/1/${s}`, () => get<Assignment>(`assign/1/${s}`).then((v) => v ?? undefined));
      expect(a.replicas.map((r) => r.node).sort()).toEqual([11, 12]);
      expect(a.replicas.every((r) => r.state === 'Active')).toBe(true);
    }
    // Deleted (the entry gone): its assignments go.
    await client.delete().key('/quiver/catalog/a').exec();
    await until('assignments of a removed', async () => ((await get('assign/1/0')) === null && (await get('assign/1/1')) === null ? true : undefined));
    // Marked deleting 31 s ago by a node that then died: the controller removes the entry.
    await put('catalog/b', { id: 2, config: { shard_number: 1 }, deleting: true, deleting_since: Date.now() - 31_000 });
    await put('catalog/c', { id: 3, config: { shard_number: 1 }, deleting: true, deleting_since: Date.now() });
    await until('the stale entry removed', async () => ((await get('catalog/b')) === null ? true : undefined));
    expect(await get('catalog/c')).not.toBeNull();
    expect(await get('assign/2/0')).toBeNull();
    expect(events.some((e) => e.type === 'controller' && e.elected)).toBe(true);

    // A move 11 -> 13 in flight (transfers/) whose target's lease is gone: the loop reads the
    // transfer and ends the move, the source alone with the shard's count from before it.
    // In one transaction: the loop never sees the assignment without its collection, or the reverse.
    const kv = (key: string, value: unknown) => client.put(`/quiver/${key}`).value(JSON.stringify(value));
    await client
      .if('/quiver/catalog/d', 'Create', '==', 0)
      .then(
        kv('catalog/d', { id: 4, config: { shard_number: 1, replication_factor: 1 }, deleting: false }),
        kv('assign/4/0', { epoch: 3, target: 2, replicas: [{ node: 11, state: 'Active' }, { node: 13, state: 'Initializing' }] }),
        kv('transfers/4/0/11-13', { shard: 0, from: 11, to: 13, sync: false, method: null }),
      )
      .commit();
    const ended = await until('the move ended', async () => {
      const a = await get<Assignment>('assign/4/0');
      return a?.replicas.length === 1 ? a : undefined;
    });
    expect(ended).toEqual({ epoch: 4, target: 1, replicas: [{ node: 11, state: 'Active' }] });
    // Node 12 is being drained: a new collection's replicas avoid it while another node can take them.
    await put('nodes/14', { id: 14 });
    await put('removing/12', { at: '' });
    await put('catalog/e', { id: 5, config: { shard_number: 1, replication_factor: 2 }, deleting: false });
    const placed = await until('assign/5/0', () => get<Assignment>('assign/5/0').then((v) => v ?? undefined));
    expect(placed.replicas.map((r) => r.node).sort()).toEqual([11, 14]);
  });
});
