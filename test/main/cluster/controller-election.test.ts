// The controller election (src/control/controller.ts) on a real etcd, when a campaign's own
// watch stream is silent. etcd3 gives each campaign a stream of its own, which the watch guard
// cannot reach; a frozen etcd member holding it kept a standby from taking over until the member
// woke. Here the standby's campaign stream is made silent (its responses dropped, as a frozen
// member's are never sent), the controller resigns, and the standby must still become the
// controller, from its observer's watch, fenced by its own campaign key.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3, type Election, type Namespace } from 'etcd3';
import { ControllerElection } from '../../../src/control/controller.js';
import type { FromEtcdThread } from '../../../src/shared/cluster/messages.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Elections made through `ns`, each with whether its campaign waits behind an older key yet. */
function capturingElections(ns: Namespace): { election: Election; waiting: boolean }[] {
  const made: { election: Election; waiting: boolean }[] = [];
  const election = ns.election.bind(ns);
  ns.election = (name: string, ttl?: number) => {
    const e = election(name, ttl);
    const entry = { election: e, waiting: false };
    made.push(entry);
    const campaign = e.campaign.bind(e);
    e.campaign = (value: string) => {
      const c = campaign(value);
      // etcd3's own signal that the campaign found an older key and watches for its deletion.
      (c as unknown as NodeJS.EventEmitter).on('_isWaiting', () => (entry.waiting = true));
      return c;
    };
    return e;
  };
  return made;
}

/** Silences the watch stream of an election's namespace, as a frozen etcd member does: nothing it sends arrives. */
function silence(e: Election): void {
  const manager = (e as unknown as { namespace: { watchManager: { handleResponse: (res: unknown) => void } } }).namespace.watchManager;
  manager.handleResponse = () => undefined;
}

describe.skipIf(etcdMissing() !== null)('controller election with a silent campaign stream', () => {
  let etcd: EtcdCluster;
  beforeAll(async () => {
    etcd = await startEtcd(1);
  }, 30_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('the standby takes over from its observer when its campaign never hears', async () => {
    const clients = [new Etcd3({ hosts: etcd.members[0]!.clientUrl }), new Etcd3({ hosts: etcd.members[0]!.clientUrl })];
    const [nsA, nsB] = clients.map((c) => c.namespace('/quiver/')) as [Namespace, Namespace];
    const eventsA: FromEtcdThread[] = [];
    const eventsB: FromEtcdThread[] = [];
    const a = new ControllerElection(nsA, 1, 5, (m) => eventsA.push(m));
    const madeB = capturingElections(nsB);
    const b = new ControllerElection(nsB, 2, 5, (m) => eventsB.push(m));
    try {
      a.start();
      await until('node 1 elected', () => a.token ?? undefined);
      b.start();
      // Node 2's campaign waits behind node 1's key, on its own stream: that stream goes silent.
      const campaignB = await until('node 2 waiting behind node 1', () => (madeB[0]?.waiting === true ? madeB[0] : undefined));
      silence(campaignB.election);
      expect(b.token).toBeNull();
      await a.stop();
      const token = await until('node 2 elected', () => b.token ?? undefined);
      expect(eventsB).toContainEqual({ type: 'controller', elected: true, revision: token.revision });
      // Its fence is its own campaign key, the oldest left under the prefix.
      const oldest = (await nsB.getAll().prefix('election/controller/').sort('Create', 'Ascend').limit(1).exec()).kvs[0]!;
      expect(`/quiver/${oldest.key.toString('utf8')}`).toBe(token.key);
      expect(oldest.create_revision).toBe(token.revision);
      expect(oldest.value.toString('utf8')).toBe('2');
      // Told once, though the campaign may still say so later.
      expect(eventsB.filter((m) => m.type === 'controller' && m.elected)).toHaveLength(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      for (const c of clients) c.close();
    }
  }, 40_000);
});
