// This node's membership (docs/cluster.md section 7): a lease on /quiver/nodes/<id> holding the node's
// addresses and capacity, kept alive on the etcd thread, never on the main thread (a 3 s busy main
// loop lost a 2 s lease there; see node.ts), by keep-alives sent to every etcd member every TTL/8.
// Invariants: `expiry` never claims more than etcd grants: it is set from the time a keep-alive
// was sent (etcd restarts the TTL when it receives it, later), and zeroed when the lease is lost,
// before anything else runs. A lost lease is replaced by a new one and the key written again;
// until then the main thread, which reads `expiry`, answers data requests 503. Every etcd call on
// the way to a new lease has a deadline: the client's pool may send it to a frozen member, whose
// open socket never answers.
// A node removed with DELETE /cluster/peer/<id> (removed/<id>, kept in etcd for good) never
// registers again: checked before every registration and watched while it runs, it then gives up
// its lease and reports 'removed' (the node refuses to start, or stops serving), as a removed
// Qdrant peer cannot rejoin with its old state.

import type { Etcd3, ILeaseKeepAliveResponse, Lease, Namespace, Watcher } from 'etcd3';
import { nowMs, type FromEtcdThread, type NodeRecord } from '../shared/cluster/messages.js';
import { within } from '../shared/deadline.js';

const RETRY_MS = 500;

/** removed/<id>: written by the controller when a peer's removal completes; never deleted. */
export const removedKey = (node: number): string => `removed/${node}`;

/** What removed/<id> holds. */
export interface RemovedRecord {
  at: string;
}

/** A lease granted with nodes/<id> written under it. */
interface Registration {
  lease: Lease;
  id: string;
  /** The etcd raft term and revision the write was answered in. */
  term: bigint;
  revision: bigint;
  /** Taken before the grant was answered: the lease's expiry is no earlier than t0 + TTL. */
  t0: number;
}

/** `work`, or an error once `ms` passed (the call itself is left to end when it ends). */
function withinEtcd<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  return within(work, ms, () => {
    throw new Error(`${what}: no answer from etcd within ${ms} ms`);
  });
}

/**
 * One keep-alive of lease `id` through `client` (a client of one member), given up at `deadline`
 * (the call is cancelled, so the member stops forwarding it to a leader that does not answer).
 */
async function keepaliveVia(client: Etcd3, id: string, deadline: number): Promise<ILeaseKeepAliveResponse> {
  const stream = await client.leaseClient.leaseKeepAlive({ deadline });
  return new Promise<ILeaseKeepAliveResponse>((resolve, reject) => {
    stream.on('data', (res) => {
      stream.end();
      resolve(res);
    });
    stream.on('error', reject);
    stream.write({ ID: id });
  });
}

export class Membership {
  readonly #ns: Namespace;
  readonly #ttl: number;
  readonly #expiry: BigInt64Array;
  /** One client per etcd member, for the keep-alives (#keepaliveNow), and the same namespaced as #ns. */
  readonly #members: Etcd3[];
  readonly #memberNs: Namespace[];
  /** Deadline of one etcd call on the way to a lease (a removed check, a grant and put, a revoke). */
  readonly #stepMs: number;
  readonly #keepaliveDeadlineMs: number;
  #extraKeepalive: NodeJS.Timeout | null = null;
  /** Per member, the lease whose extra keep-alive is in flight there (a replaced lease's hung one does not block). */
  readonly #keepaliveInFlight: (string | null)[];
  readonly #emit: (m: FromEtcdThread) => void;
  #node: NodeRecord | null = null;
  #lease: Lease | null = null;
  #leaseId: string | null = null;
  /** The etcd raft term and revision #lease was registered in. */
  #leaseTerm = 0n;
  #leaseRevision = 0n;
  /** A replacement lease is being registered (#rotate). */
  #rotating = false;
  /** Send time of the keep-alive round last reported as a 'raft' message. */
  #raftReportedAt = 0;
  #stopped = false;
  #watchdog: NodeJS.Timeout | null = null;
  /** A registration is in flight (each of its calls has a deadline). */
  #registering = false;
  /** The node's last status report (status/<id>): bound to the lease, so written again under each new one. */
  #status: string | null = null;
  #statusWrite: Promise<void> = Promise.resolve();
  #removedWatch: Watcher | null = null;
  #removed = false;

  /** `members`: one client per etcd member (the extra keep-alives go to each). */
  constructor(ns: Namespace, members: Etcd3[], ttlSeconds: number, expiry: BigInt64Array, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#members = members;
    this.#memberNs = members.map((m) => m.namespace(ns.prefix.toString('utf8')));
    this.#keepaliveInFlight = members.map(() => null);
    this.#ttl = ttlSeconds;
    this.#keepaliveDeadlineMs = Math.max(250, (ttlSeconds * 1000) / 4);
    this.#stepMs = Math.max(1000, (ttlSeconds * 1000) / 4);
    this.#expiry = expiry;
    this.#emit = emit;
  }

  /** Whether this node's id was found removed from the cluster. */
  get removed(): boolean {
    return this.#removed;
  }

  /** Registers (first call) and keeps re-registering after every loss until stop(). */
  async register(node: NodeRecord): Promise<void> {
    this.#node = node;
    this.#watchdog ??= setInterval(() => this.#watch(), Math.max(250, (this.#ttl * 1000) / 4));
    this.#extraKeepalive ??= setInterval(() => this.#keepaliveNow(), Math.max(200, (this.#ttl * 1000) / 8));
    await this.#attempt();
    if (!this.#removed) void this.#watchRemoved(node.id);
  }

  /** Watches removed/<id> (from the revision read, so a removal between is not missed). */
  async #watchRemoved(id: number): Promise<void> {
    while (!this.#stopped && !this.#removed) {
      try {
        const r = await withinEtcd(this.#stepMs, this.#ns.get(removedKey(id)).exec(), 'removed check');
        const kv = r.kvs[0];
        if (kv !== undefined) return this.#onRemoved(kv.value.toString('utf8'));
        const w = await this.#ns.watch().key(removedKey(id)).startRevision((BigInt(r.header.revision) + 1n).toString()).create();
        this.#removedWatch = w;
        w.on('put', (put) => this.#onRemoved(put.value.toString('utf8')));
        return;
      } catch {
        await new Promise((res) => setTimeout(res, RETRY_MS));
      }
    }
  }

  /** This peer was removed: the lease goes (the node leaves at once), nothing is registered again. */
  #onRemoved(value: string): void {
    if (this.#removed) return;
    this.#removed = true;
    let at: string | null = null;
    try {
      at = (JSON.parse(value) as RemovedRecord).at ?? null;
    } catch {
      // a hand-written key: removed all the same
    }
    // stop() zeroes the expiry before its first await: no data is served from here on.
    void this.stop();
    this.#emit({ type: 'removed', at });
  }

  /**
   * The lease's keep-alives. etcd3's (every TTL/3) let an etcd leader election (no keep-alive
   * answered until it ends: about 1-2 s here) use up a third of the TTL, although etcd's new
   * leader renews every lease; every TTL/8, each extending from its own send time, leaves 7/8 of
   * it. Each goes to every member at once, one in flight per member, given up after TTL/4: a
   * frozen member (SIGSTOP, a VM pause) keeps its socket open and never answers, and sent to one
   * member picked at random (the client's pool) two unlucky picks after an election used up the
   * rest of a 4 s lease (scenario 9).
   */
  #keepaliveNow(): void {
    const lease = this.#lease;
    const id = this.#leaseId;
    if (lease === null || id === null || this.#stopped || this.#registering) return;
    for (const [i, member] of this.#members.entries()) {
      if (this.#keepaliveInFlight[i] === id) continue;
      this.#keepaliveInFlight[i] = id;
      const at = nowMs();
      keepaliveVia(member, id, at + this.#keepaliveDeadlineMs)
        .then((res) => {
          if (this.#lease !== lease) return;
          if (res.TTL === '0') {
            // Not found by a member that has not applied the grant yet (a frozen one just resumed
            // answers from its old state): that says nothing of the lease.
            if (BigInt(res.header.revision) < this.#leaseRevision) return;
            return this.#lose(lease, `lease ${id} not found in etcd`);
          }
          this.#extend(at + Number(res.TTL) * 1000);
          if (at > this.#raftReportedAt) {
            // One report per round (every member answers each), for GET /cluster's raft_info.
            this.#raftReportedAt = at;
            this.#emit({ type: 'raft', term: res.header.raft_term, commit: res.header.revision, at: new Date().toISOString() });
          }
          this.#termSeen(res.header.raft_term, i);
        })
        .catch(() => undefined)
        .finally(() => {
          if (this.#keepaliveInFlight[i] === id) this.#keepaliveInFlight[i] = null;
        });
    }
  }

  /**
   * A lease whose expiry passed half a TTL ago with no keep-alive answered (no member answers: etcd
   * without a quorum, or this node cut off) is given up here and a new one taken (etcd3's own
   * keep-alive once hung for good on a member killed under it: no answer, no error, no 'lost').
   */
  #watch(): void {
    const lease = this.#lease;
    if (lease === null || this.#stopped || this.#registering) return;
    const expiry = Number(Atomics.load(this.#expiry, 0));
    if (expiry === 0 || nowMs() < expiry + (this.#ttl * 1000) / 2) return;
    this.#lose(lease, `no keep-alive answered for ${Math.round(nowMs() - expiry + this.#ttl * 1000)} ms`);
  }

  /** The lease is gone (etcd said so, or it went unanswered too long): serving stops, a new one is taken at once. */
  #lose(lease: Lease, reason: string): void {
    if (this.#lease !== lease) return;
    Atomics.store(this.#expiry, 0, 0n);
    this.#lease = null;
    this.#leaseId = null;
    lease.release();
    if (this.#stopped) return;
    this.#emit({ type: 'lease-lost', reason });
    // At once, not after RETRY_MS: every step of a registration has its own deadline, so one stuck
    // on a frozen member is given up and the next is tried (a failed attempt waits RETRY_MS).
    void this.#attempt();
  }

  /**
   * A keep-alive answered under a newer etcd raft term than the one this lease was granted in: the
   * old leader may be frozen (SIGSTOP, a VM pause) rather than dead, and etcd 3.4.23 (and any
   * release without etcd-io/etcd#16822, a mitigation only) lets a leader resumed after longer than
   * the TTL revoke every lease it did not see renewed (etcd-io/etcd#15247), although the new leader
   * renewed them all. A lease granted under the new
   * term is not in its table: nodes/<id> moves to one now, while the old lease still holds, and the
   * old one is revoked. The node serves throughout.
   */
  #termSeen(term: string, member: number): void {
    if (this.#lease === null || this.#rotating || this.#registering || this.#stopped) return;
    if (BigInt(term) <= this.#leaseTerm) return;
    void this.#rotate(member);
  }

  /** Moves to a new lease through `member`, which just answered in the new term. */
  async #rotate(member: number): Promise<void> {
    const node = this.#node;
    const old = this.#lease;
    if (node === null || old === null) return;
    this.#rotating = true;
    try {
      const next = await this.#grantAndPut(node, member);
      if (this.#lease !== old || this.#stopped) {
        // Lost (and being replaced) meanwhile, or stopping: this one is not needed.
        void withinEtcd(this.#stepMs, next.lease.revoke(), 'revoke').catch(() => undefined);
        return;
      }
      this.#adopt(next);
      this.#emit({ type: 'log', level: 'info', msg: 'cluster: lease replaced after an etcd leader change', fields: { lease: next.id, term: next.term.toString() } });
      old.release();
      // Keys already moved: revoking it only spares etcd its expiry (nobody waits on this).
      void withinEtcd(this.#stepMs, old.revoke(), 'revoke').catch(() => undefined);
    } catch (e) {
      // The old lease still holds: the next keep-alive answered under the new term tries again.
      this.#emit({ type: 'log', level: 'warn', msg: 'cluster: replacing the lease after an etcd leader change failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
    } finally {
      this.#rotating = false;
    }
  }

  /**
   * Grants a lease and writes nodes/<id> under it through `member` (one that just answered: the
   * pool picks a member at random for each call, and three calls each avoiding a frozen one
   * succeeded 8 times in 27), within #stepMs. The lease is not this node's until adopted; its
   * later calls (status writes, revoke) go to the same member.
   */
  async #grantAndPut(node: NodeRecord, member: number): Promise<Registration> {
    // Kept alive by #keepaliveNow alone: etcd3's own keep-alive is one stream on one member, stuck
    // for a TTL on a frozen one, and once back it declares the lease lost by its own clock (no
    // answer of its own for 2 TTL) although this node's keep-alives were answered meanwhile.
    const lease = this.#memberNs[member]!.lease(this.#ttl, { autoKeepAlive: false });
    lease.on('lost', (err) => this.#lose(lease, err.message));
    const t0 = nowMs();
    try {
      const res = await withinEtcd(this.#stepMs, lease.put(`nodes/${node.id}`).value(JSON.stringify(node)).exec(), 'registration');
      return { lease, id: await lease.grant(), term: BigInt(res.header.raft_term), revision: BigInt(res.header.revision), t0 };
    } catch (e) {
      lease.release();
      throw e;
    }
  }

  /** Makes a registered lease this node's: its expiry counts from before the grant was sent. */
  #adopt(r: Registration): void {
    this.#lease = r.lease;
    this.#leaseId = r.id;
    this.#leaseTerm = r.term;
    this.#leaseRevision = r.revision;
    this.#extend(r.t0 + this.#ttl * 1000);
    this.#writeStatus();
  }

  async #attempt(): Promise<void> {
    const node = this.#node;
    if (node === null || this.#stopped) return;
    this.#registering = true;
    try {
      // Not under an id that was removed (at start-up, and at every new lease). Asked of every
      // member: the first to answer is live, and takes the registration.
      const first = await withinEtcd(
        this.#stepMs,
        Promise.any(this.#memberNs.map(async (m, i) => ({ i, removed: await m.get(removedKey(node.id)).string() }))),
        'removed check',
      );
      if (first.removed !== null) {
        this.#registering = false;
        return this.#onRemoved(first.removed);
      }
      if (this.#stopped) return;
      const r = await this.#grantAndPut(node, first.i);
      this.#registering = false;
      if (this.#stopped) {
        void r.lease.revoke().catch(() => undefined);
        return;
      }
      this.#adopt(r);
      this.#emit({ type: 'registered', lease: r.id });
    } catch (e) {
      this.#emit({ type: 'log', level: 'warn', msg: 'cluster registration failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
      if (!this.#stopped) setTimeout(() => void this.#attempt(), RETRY_MS);
    } finally {
      this.#registering = false;
    }
  }

  /** Records the node's status report and writes it under the current lease (if any: else at the next one). */
  report(status: string): void {
    this.#status = status;
    this.#writeStatus();
  }

  #writeStatus(): void {
    const node = this.#node;
    const lease = this.#lease;
    const status = this.#status;
    if (node === null || lease === null || status === null || this.#stopped) return;
    // One write at a time, in order: the newest report is the last written. Each is given up after
    // #stepMs, so one stuck on a frozen member does not hold back the next (nor the move of
    // status/<id> to a replacement lease); a late one is overwritten by the next report.
    this.#statusWrite = this.#statusWrite
      .then(async () => {
        if (this.#lease === lease && this.#status === status) await withinEtcd(this.#stepMs, lease.put(`status/${node.id}`).value(status).exec(), 'status write');
      })
      .catch(() => undefined);
  }

  #extend(until: number): void {
    const cur = Atomics.load(this.#expiry, 0);
    if (BigInt(Math.floor(until)) > cur) Atomics.store(this.#expiry, 0, BigInt(Math.floor(until)));
  }

  /** Revokes the lease, so the node leaves at once rather than after the TTL. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#watchdog !== null) clearInterval(this.#watchdog);
    if (this.#extraKeepalive !== null) clearInterval(this.#extraKeepalive);
    Atomics.store(this.#expiry, 0, 0n);
    const lease = this.#lease;
    this.#lease = null;
    this.#leaseId = null;
    await Promise.all([lease?.revoke().catch(() => undefined), this.#removedWatch?.cancel().catch(() => undefined)]);
  }
}
