// This node's membership (CLUSTER.md section 7): a lease on /quiver/nodes/<id> holding the node's
// addresses and capacity, kept alive by etcd3's keep-alive stream on the etcd thread, never on the
// main thread (a 3 s busy main loop lost a 2 s lease there; see node.ts).
// Invariants: `expiry` never claims more than etcd grants: it is set from the time a keep-alive
// was sent (etcd restarts the TTL when it receives it, later), and zeroed when the lease is lost,
// before anything else runs. A lost lease is replaced by a new one and the key written again;
// until then the main thread, which reads `expiry`, answers data requests 503.
// A node removed with DELETE /cluster/peer/<id> (removed/<id>, kept in etcd for good) never
// registers again: checked before every registration and watched while it runs, it then gives up
// its lease and reports 'removed' (the node refuses to start, or stops serving), as a removed
// Qdrant peer cannot rejoin with its old state.

import type { Lease, Namespace, Watcher } from 'etcd3';
import { nowMs, type FromEtcdThread, type NodeRecord } from './messages.js';

const RETRY_MS = 500;

/** removed/<id>: written by the controller when a peer's removal completes; never deleted. */
export const removedKey = (node: number): string => `removed/${node}`;

/** What removed/<id> holds. */
export interface RemovedRecord {
  at: string;
}

export class Membership {
  readonly #ns: Namespace;
  readonly #ttl: number;
  readonly #expiry: BigInt64Array;
  #extraKeepalive: NodeJS.Timeout | null = null;
  /** The lease whose extra keep-alive is in flight (one per lease: a replaced lease's hung one does not block). */
  #keepaliveInFlight: Lease | null = null;
  readonly #emit: (m: FromEtcdThread) => void;
  #node: NodeRecord | null = null;
  #lease: Lease | null = null;
  #stopped = false;
  #watchdog: NodeJS.Timeout | null = null;
  /** A registration's put is in flight (it has its own deadline). */
  #registering = false;
  /** The node's last status report (status/<id>): bound to the lease, so written again under each new one. */
  #status: string | null = null;
  #statusWrite: Promise<void> = Promise.resolve();
  #removedWatch: Watcher | null = null;
  #removed = false;

  constructor(ns: Namespace, ttlSeconds: number, expiry: BigInt64Array, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#ttl = ttlSeconds;
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
        const r = await this.#ns.get(removedKey(id)).exec();
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
   * etcd3 keeps a lease alive every TTL/3, so an etcd leader election (no keep-alive answered until
   * it ends: about 1-2 s here) left only 2/3 of the TTL before this node's expiry passed and it
   * refused requests, although etcd's new leader renews every lease. One more keep-alive every
   * TTL/8, each extending from its own send time, leaves 7/8 of it. One in flight at a time, each
   * given up after TTL/4: a frozen member (SIGSTOP, a VM pause) keeps its socket open and never
   * answers, and without the deadline the one call stuck on it held back every later one (the
   * client picks a member at random per call, so the next most likely reaches a live one).
   */
  #keepaliveNow(): void {
    const lease = this.#lease;
    if (lease === null || this.#stopped || this.#registering || this.#keepaliveInFlight === lease) return;
    this.#keepaliveInFlight = lease;
    const at = nowMs();
    lease
      .keepaliveOnce({ deadline: at + Math.max(250, (this.#ttl * 1000) / 4) })
      .then((res) => {
        if (this.#lease === lease) this.#extend(at + Number(res.TTL) * 1000);
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.#keepaliveInFlight === lease) this.#keepaliveInFlight = null;
      });
  }

  /**
   * etcd3's keep-alive can hang for good on a member killed under it (seen with kill -9 of one of
   * three members: no answer, no error, no 'lost'; the node stayed unregistered). A lease whose
   * expiry passed half a TTL ago with no answer is given up here and a new one taken, which the
   * client's pool places on a member that answers.
   */
  #watch(): void {
    const lease = this.#lease;
    if (lease === null || this.#stopped || this.#registering) return;
    const expiry = Number(Atomics.load(this.#expiry, 0));
    if (expiry === 0 || nowMs() < expiry + (this.#ttl * 1000) / 2) return;
    this.#abandon(lease, `no keep-alive answered for ${Math.round(nowMs() - expiry + this.#ttl * 1000)} ms`);
  }

  #abandon(lease: Lease, reason: string): void {
    if (this.#lease !== lease) return;
    Atomics.store(this.#expiry, 0, 0n);
    this.#lease = null;
    lease.release();
    if (this.#stopped) return;
    this.#emit({ type: 'lease-lost', reason });
    setTimeout(() => void this.#attempt(), RETRY_MS);
  }

  async #attempt(): Promise<void> {
    const node = this.#node;
    if (node === null || this.#stopped) return;
    // Not under an id that was removed (at start-up, and at every new lease).
    try {
      const removed = await this.#ns.get(removedKey(node.id)).string();
      if (removed !== null) return this.#onRemoved(removed);
    } catch (e) {
      this.#emit({ type: 'log', level: 'warn', msg: 'cluster registration failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
      if (!this.#stopped) setTimeout(() => void this.#attempt(), RETRY_MS);
      return;
    }
    if (this.#stopped) return;
    const lease = this.#ns.lease(this.#ttl);
    this.#lease = lease;
    // Keep-alives in flight, oldest first: the answer to one extends the lease from its send time.
    const sent: number[] = [];
    lease.on('keepaliveFired', () => sent.push(nowMs()));
    lease.on('keepaliveSucceeded', (res) => {
      const at = sent.shift();
      if (at !== undefined && this.#lease === lease) this.#extend(at + Number(res.TTL) * 1000);
      this.#emit({ type: 'raft', term: res.header.raft_term, commit: res.header.revision, at: new Date().toISOString() });
    });
    lease.on('lost', (err) => {
      if (this.#lease !== lease) return;
      Atomics.store(this.#expiry, 0, 0n);
      this.#lease = null;
      if (this.#stopped) return;
      this.#emit({ type: 'lease-lost', reason: err.message });
      setTimeout(() => void this.#attempt(), RETRY_MS);
    });
    const t0 = nowMs();
    this.#registering = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: a put on a member that vanished may never answer either (see #watch).
      const deadline = new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error(`no answer within ${this.#ttl * 2} s`)), this.#ttl * 2000);
      });
      await Promise.race([lease.put(`nodes/${node.id}`).value(JSON.stringify(node)), deadline]);
      clearTimeout(timer);
      this.#registering = false;
      if (this.#lease !== lease) return;
      this.#extend(t0 + this.#ttl * 1000);
      this.#writeStatus();
      this.#emit({ type: 'registered', lease: await lease.grant() });
    } catch (e) {
      clearTimeout(timer);
      this.#registering = false;
      if (this.#lease !== lease) return; // 'lost' already retries
      this.#lease = null;
      lease.release();
      this.#emit({ type: 'log', level: 'warn', msg: 'cluster registration failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
      if (!this.#stopped) setTimeout(() => void this.#attempt(), RETRY_MS);
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
    // One write at a time, in order: the newest report is the last written.
    this.#statusWrite = this.#statusWrite
      .then(async () => {
        if (this.#lease === lease && this.#status === status) await lease.put(`status/${node.id}`).value(status);
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
    await Promise.all([lease?.revoke().catch(() => undefined), this.#removedWatch?.cancel().catch(() => undefined)]);
  }
}
