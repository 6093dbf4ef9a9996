// A node's membership (src/control/membership.ts, in this process, as the etcd thread runs it)
// against a 3-member etcd whose leader is frozen (SIGSTOP) for longer than the lease TTL, then
// resumed. etcd 3.4.23 (Debian's) lets the resumed leader revoke every lease it did not see renewed
// (etcd-io/etcd#15247), although the new leader kept them alive: the fault suite's scenario 9 lost
// two nodes' leases that way the moment the frozen member woke. The membership must keep serving
// throughout (its expiry never lapses, no lease lost, nodes/<id> kept), and a lease revoked while a
// member is frozen must be replaced while it still sleeps, not when it wakes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3, type Namespace } from 'etcd3';
import { Membership } from '../../../src/control/membership.js';
import { nowMs, type FromEtcdThread, type NodeRecord } from '../../../src/shared/cluster/messages.js';
import { etcdMissing, startEtcd, type EtcdCluster, type EtcdMember } from '../../helpers/etcd.js';

// Short for the test (the default is 10 s), but the renewals through the live members must not lapse
// while the test's neighbours load the 2 cores: at 4 s they now and then did (CI, two failures).
const TTL = 6;
/** As long as the fault suite's scenario 9 freezes etcd's leader: twice the TTL. */
const FREEZE_MS = 12_000;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await Promise.resolve(probe()).catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const record = (id: number): NodeRecord => ({ id, advertise: `127.0.0.1:${id}`, rest_port: 1, grpc_port: 2, workers: 1, memory_bytes: 1, version: 'test' });

/** One membership as the etcd thread builds it: a pooled client on every endpoint, and one client per member. */
class Member {
  readonly events: FromEtcdThread[] = [];
  readonly expiry = new BigInt64Array(new SharedArrayBuffer(8));
  /** Times (ms since epoch) the expiry was found passed while sampled. */
  readonly lapses: number[] = [];
  readonly client: Etcd3;
  readonly perMember: Etcd3[];
  readonly membership: Membership;
  #sampler: NodeJS.Timeout | null = null;

  constructor(etcd: EtcdCluster) {
    this.client = new Etcd3({ hosts: etcd.members.map((m) => m.clientUrl), dialTimeout: 2000 });
    this.perMember = etcd.members.map((m) => new Etcd3({ hosts: m.clientUrl, dialTimeout: 2000 }));
    this.membership = new Membership(this.client.namespace('/quiver/'), this.perMember, TTL, this.expiry, (m) => this.events.push(m));
  }

  /** Registers and starts sampling the expiry, as the main thread reads it for each request. */
  async register(id: number): Promise<void> {
    await this.membership.register(record(id));
    await until('registered', () => (this.events.some((e) => e.type === 'registered') ? true : undefined));
    this.#sampler = setInterval(() => {
      if (Number(Atomics.load(this.expiry, 0)) <= nowMs()) this.lapses.push(Date.now());
    }, 20);
  }

  of<T extends FromEtcdThread['type']>(type: T): Extract<FromEtcdThread, { type: T }>[] {
    return this.events.filter((e): e is Extract<FromEtcdThread, { type: T }> => e.type === type);
  }

  async close(): Promise<void> {
    if (this.#sampler !== null) clearInterval(this.#sampler);
    await this.membership.stop();
    for (const c of this.perMember) c.close();
    this.client.close();
  }
}

/** A client of the members other than `frozen`, namespaced as the nodes use etcd. */
function liveNs(etcd: EtcdCluster, frozen: EtcdMember): { client: Etcd3; ns: Namespace } {
  const client = new Etcd3({ hosts: etcd.members.filter((m) => m !== frozen).map((m) => m.clientUrl), dialTimeout: 2000 });
  return { client, ns: client.namespace('/quiver/') };
}

/** The lease nodes/<id> is bound to, read through live members. */
async function leaseOf(ns: Namespace, id: number): Promise<string | undefined> {
  const kv = (await ns.get(`nodes/${id}`).exec()).kvs[0];
  return kv === undefined || kv.lease === '0' ? undefined : kv.lease;
}

/** Resumes a frozen member and waits until it follows another leader (it has heard of the new term). */
async function resume(m: EtcdMember): Promise<void> {
  m.proc!.kill('SIGCONT');
  await until(`${m.name} following the new leader`, async () => {
    const one = new Etcd3({ hosts: m.clientUrl, dialTimeout: 1000 });
    try {
      const s = await one.maintenance.status({});
      return s.leader !== '0' && s.leader !== s.header.member_id ? true : undefined;
    } finally {
      one.close();
    }
  });
}

describe.skipIf(etcdMissing() !== null)('membership with etcd\'s leader frozen past the lease TTL', () => {
  let etcd: EtcdCluster;
  const members: Member[] = [];
  const frozen: EtcdMember[] = [];

  beforeAll(async () => {
    etcd = await startEtcd(3);
  }, 60_000);

  afterAll(async () => {
    for (const m of frozen) m.proc?.kill('SIGCONT');
    await Promise.all(members.map((m) => m.close().catch(() => undefined)));
    await etcd?.stop();
  });

  it('keeps its lease through the freeze and the resumed leader\'s revocations', { timeout: 120_000 }, async () => {
    // Three nodes' memberships, as in the fault suite: the resumed leader's revocations race its
    // stepping down, so one lease alone escapes them now and then.
    const nodes = [new Member(etcd), new Member(etcd), new Member(etcd)];
    members.push(...nodes);
    await Promise.all(nodes.map((n, i) => n.register(101 + i)));
    const leader = etcd.members[await etcd.leader().then((l) => etcd.members.indexOf(l))]!;
    const { client, ns } = liveNs(etcd, leader);
    try {
      const before = await Promise.all(nodes.map((_, i) => leaseOf(ns, 101 + i)));
      frozen.push(leader);
      leader.proc!.kill('SIGSTOP');
      await new Promise((r) => setTimeout(r, FREEZE_MS));
      await resume(leader);
      // The revocations come within a few hundred ms of the resume (about 250 ms here): half a
      // TTL more lets each membership hear of a revocation and the sampler see a lapse.
      await new Promise((r) => setTimeout(r, (TTL * 1000) / 2));
      for (const [i, n] of nodes.entries()) {
        expect(n.of('lease-lost'), `node ${i}`).toEqual([]);
        expect(n.lapses, `node ${i}: expiry passed while sampled`).toEqual([]);
        // Moved to a lease of the new term while the old leader slept.
        expect(n.of('log').map((l) => l.msg), `node ${i}`).toContain('cluster: lease replaced after an etcd leader change');
        const now = await leaseOf(ns, 101 + i);
        expect(now, `node ${i}: nodes/<id> still registered`).toBeDefined();
        expect(now).not.toBe(before[i]);
      }
    } finally {
      client.close();
    }
  });

  it('replaces a revoked lease while a member is still frozen', { timeout: 120_000 }, async () => {
    const n = new Member(etcd);
    members.push(n);
    await n.register(201);
    const leader = etcd.members[await etcd.leader().then((l) => etcd.members.indexOf(l))]!;
    const { client, ns } = liveNs(etcd, leader);
    try {
      frozen.push(leader);
      leader.proc!.kill('SIGSTOP');
      const frozenUntil = Date.now() + FREEZE_MS;
      // Wait out the election: the membership renews through the new leader.
      await until('a keep-alive answered after the election', () => (n.of('log').some((l) => l.msg === 'cluster: lease replaced after an etcd leader change') ? true : undefined));
      // Three revocations from outside (as an operator's, or a resumed leader's): each time the
      // client's pool may send a call of the re-registration to the frozen member.
      for (let round = 1; round <= 3; round++) {
        const lease = await until('nodes/<id> bound to a lease', () => leaseOf(ns, 201));
        const registered = n.of('registered').length;
        await client.leaseClient.leaseRevoke({ ID: lease });
        await until(`lease lost (round ${round})`, () => (n.of('lease-lost').length >= round ? true : undefined));
        // The member stays frozen until every round is done, so each re-registration went
        // through the live members (a round that waited for the frozen one would time out here).
        await until(`registered again (round ${round}) while the member is frozen`, () => (n.of('registered').length > registered ? true : undefined), FREEZE_MS);
        expect(await leaseOf(ns, 201)).toBeDefined();
      }
      await new Promise((r) => setTimeout(r, Math.max(0, frozenUntil - Date.now())));
      await resume(leader);
      await new Promise((r) => setTimeout(r, (TTL * 1000) / 2));
      expect(n.of('lease-lost')).toHaveLength(3);
      expect(await leaseOf(ns, 201)).toBeDefined();
    } finally {
      client.close();
    }
  });
});
