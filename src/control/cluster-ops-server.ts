// The cluster operations' path through etcd (docs/cluster.md section 9), on the etcd thread. Three parts:
// - askController (any node): puts /quiver/requests/<uuid>, waits (bounded) for
//   /quiver/requests/<uuid>/result, then deletes both;
// - ClusterOpsServer (the controller only, started when it is elected and stopped when deposed):
//   serves each request by one transaction that holds only while this node is still the
//   controller (its election key's create revision, as fenced.ts) AND every assignment it changes
//   still has the mod revision it read (CAS), and that writes the result in the same commit; it
//   also settles transfers as their targets become Active (the source of a move is dropped only
//   then) and finishes a peer's removal once it holds no replica;
// - TransfersMirror (every node): the transfers in flight, for cluster info's shard_transfers.
// All keys are written with the raw client and full '/quiver/...' keys: the election key of the
// fence token is a full key.

import { randomUUID } from 'node:crypto';
import type { Etcd3, IKeyValue, IOperation, PutBuilder, Watcher } from 'etcd3';
import { within } from '../shared/deadline.js';
import {
  drainMove,
  drainTarget,
  OpRefused,
  parseAssignment,
  parseTransfer,
  plan,
  settle,
  transferId,
  type Assignment,
  type ClusterRequest,
  type ClusterResult,
  type ShardOp,
  type ShardPlan,
  type Transfer,
} from '../shared/cluster/cluster-ops.js';
import type { FenceToken } from './fenced.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';

const P = '/quiver/';
const RETRY_MS = 500;
/** Times a request is planned again after another write changed an assignment it read. */
const CAS_ATTEMPTS = 8;

const assignKey = (id: number, shard: number): string => `${P}assign/${id}/${shard}`;
const transferPrefix = (id: number, shard: number): string => `${P}transfers/${id}/${shard}/`;
const transferKey = (id: number, t: Transfer): string => `${transferPrefix(id, t.shard)}${transferId(t)}`;
const requestPrefix = `${P}requests/`;
const removingPrefix = `${P}removing/`;
/** removed/<id>: a peer whose removal completed; it may never register under that id again (membership.ts). */
const removedKey = (peer: number): string => `${P}removed/${peer}`;

/** Seconds a request's keys outlive its wait, when the asking node dies before deleting them. */
const REQUEST_LEASE_MARGIN_S = 30;

/** Asks the controller; resolves with its result, or a ShardUnavailable result after `timeoutMs`. */
export async function askController(client: Etcd3, req: ClusterRequest, timeoutMs: number): Promise<ClusterResult> {
  const key = `${requestPrefix}${randomUUID()}`;
  // The request and its result live under a lease of their own, so an asker that dies mid-wait
  // leaves nothing behind for long.
  const lease = client.lease(Math.ceil(timeoutMs / 1000) + REQUEST_LEASE_MARGIN_S, { autoKeepAlive: false });
  const leaseId = await lease.grant();
  const watcher = await client.watch().key(`${key}/result`).create();
  try {
    const answered = new Promise<ClusterResult>((res) => {
      watcher.on('put', (kv) => {
        try {
          res(JSON.parse(kv.value.toString('utf8')) as ClusterResult);
        } catch {
          res({ ok: false, code: 'Internal', message: 'the controller answered with an unreadable result' });
        }
      });
    });
    const asked = async (): Promise<ClusterResult> => {
      await client.put(key).value(JSON.stringify({ ...req, lease: leaseId } satisfies Served)).lease(leaseId);
      return answered;
    };
    return await within(asked(), timeoutMs, () => ({
      ok: false,
      code: 'ShardUnavailable',
      message: `No answer from the cluster controller within ${timeoutMs} ms; the operation may still be applied (check the collection's cluster info)`,
    }));
  } finally {
    await watcher.cancel().catch(() => undefined);
    // Revoking the lease deletes both keys.
    await lease.revoke().catch(() => client.delete().prefix(key).catch(() => undefined));
  }
}

/** A request as stored: with the lease its result is written under. */
type Served = ClusterRequest & { lease?: string };

interface Read<T> {
  value: T;
  modRevision: string;
}

export class ClusterOpsServer {
  readonly #client: Etcd3;
  readonly #emit: (m: FromEtcdThread) => void;
  #token: FenceToken | null = null;
  #watchers: Watcher[] = [];
  /** One request or settlement at a time, in arrival order: plans read what the previous one wrote. */
  #chain: Promise<unknown> = Promise.resolve();
  #generation = 0;

  constructor(client: Etcd3, emit: (m: FromEtcdThread) => void) {
    this.#client = client;
    this.#emit = emit;
  }

  /** Starts serving with the token this node was elected with (again after a new election). */
  start(token: FenceToken): void {
    void this.stop().then(() => {
      this.#token = token;
      const gen = ++this.#generation;
      void this.#run(gen);
    });
  }

  async stop(): Promise<void> {
    this.#token = null;
    this.#generation++;
    const ws = this.#watchers;
    this.#watchers = [];
    await Promise.all(ws.map((w) => w.cancel().catch(() => undefined)));
  }

  #log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>): void {
    this.#emit({ type: 'log', level, msg, fields });
  }

  #queue(what: () => Promise<void>): void {
    this.#chain = this.#chain.then(what).catch((e: unknown) => {
      // Deposed: the next controller settles what is left; nothing to report.
      if (!(e instanceof Fenced)) this.#log('error', 'cluster op failed', { err: e instanceof Error ? e.message : String(e) });
    });
  }

  async #run(gen: number): Promise<void> {
    while (gen === this.#generation) {
      try {
        // Watches first, then the pending requests and due settlements: nothing falls between.
        const reqs = await this.#client.watch().prefix(requestPrefix).create();
        const assigns = await this.#client.watch().prefix(`${P}assign/`).create();
        if (gen !== this.#generation) {
          await Promise.all([reqs.cancel(), assigns.cancel()]);
          return;
        }
        this.#watchers.push(reqs, assigns);
        reqs.on('put', (kv) => this.#onRequest(kv, gen));
        assigns.on('put', (kv) => {
          const m = /assign\/(\d+)\/(\d+)$/.exec(kv.key.toString('utf8'));
          if (m !== null) this.#queue(() => this.#settleShard(Number(m[1]), Number(m[2]), gen));
        });
        const pending = await this.#client.getAll().prefix(requestPrefix).exec();
        const answered = new Set(pending.kvs.map((kv) => kv.key.toString('utf8')).filter((k) => k.endsWith('/result')).map((k) => k.slice(0, -'/result'.length)));
        for (const kv of pending.kvs) if (!answered.has(kv.key.toString('utf8'))) this.#onRequest(kv, gen);
        const transfers = await this.#client.getAll().prefix(`${P}transfers/`).keys();
        const shards = new Set(transfers.map((k) => /transfers\/(\d+\/\d+)\//.exec(k)?.[1]).filter((s): s is string => s !== undefined));
        for (const s of shards) {
          const [id, shard] = s.split('/').map(Number) as [number, number];
          this.#queue(() => this.#settleShard(id, shard, gen));
        }
        this.#queue(() => this.#finishRemovals(gen));
        return;
      } catch (e) {
        this.#log('warn', 'cluster ops: watch failed; retrying', { err: e instanceof Error ? e.message : String(e) });
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  #onRequest(kv: IKeyValue, gen: number): void {
    const key = kv.key.toString('utf8');
    if (key.slice(requestPrefix.length).includes('/')) return; // a result
    let req: Served;
    try {
      req = JSON.parse(kv.value.toString('utf8')) as Served;
    } catch {
      return;
    }
    this.#queue(() => this.#serve(key, req, gen));
  }

  /** The result's put, under the request's lease (gone with the asker). */
  #resultPut(key: string, req: Served, result: ClusterResult): PutBuilder {
    const put = this.#client.put(`${key}/result`).value(JSON.stringify(result));
    return req.lease === undefined ? put : put.lease(req.lease);
  }

  async #serve(key: string, req: Served, gen: number): Promise<void> {
    if (gen !== this.#generation) return;
    let result: ClusterResult = { ok: false, code: 'Internal', message: 'not served' };
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      try {
        const done = req.type === 'shard' ? await this.#serveShard(key, req, gen) : await this.#removePeer(key, req, gen);
        if (done) return;
        continue;
      } catch (e) {
        if (e instanceof OpRefused) result = { ok: false, code: e.code, message: e.message };
        else if (e instanceof Fenced) return; // the next controller serves it
        else result = { ok: false, code: 'Internal', message: `Cluster operation failed: ${e instanceof Error ? e.message : String(e)}` };
        break;
      }
    }
    if (result.message === 'not served') result = { ok: false, code: 'ShardUnavailable', message: 'The assignment kept changing while the operation was applied; retry it' };
    // Fenced as well: a deposed controller's refusal (decided on what it read) is not the answer.
    await this.#commit([], [this.#resultPut(key, req, result)]).catch(() => undefined);
  }

  async #readAssign(id: number, shard: number): Promise<Read<Assignment> | null> {
    const kv = (await this.#client.get(assignKey(id, shard)).exec()).kvs[0];
    if (kv === undefined) return null;
    const a = parseAssignment(kv.value);
    return a === null ? null : { value: a, modRevision: kv.mod_revision };
  }

  async #readTransfers(id: number, shard: number): Promise<Transfer[]> {
    const kvs = (await this.#client.getAll().prefix(transferPrefix(id, shard)).exec()).kvs;
    return kvs.map((kv) => parseTransfer(kv.value)).filter((t): t is Transfer => t !== null);
  }

  async #liveNodes(): Promise<number[]> {
    const keys = await this.#client.getAll().prefix(`${P}nodes/`).keys();
    return keys.map((k) => Number(k.slice(k.lastIndexOf('/') + 1))).filter((n) => Number.isInteger(n));
  }

  /** The operations writing one shard's plan, and the compare that makes them a CAS. */
  #writes(id: number, shard: number, read: Read<Assignment>, p: ShardPlan): { ops: IOperation[]; cas: [string, string] } {
    const ops: IOperation[] = [];
    if (p.assignment !== null) ops.push(this.#client.put(assignKey(id, shard)).value(JSON.stringify(p.assignment)));
    for (const t of p.addTransfers) ops.push(this.#client.put(transferKey(id, t)).value(JSON.stringify(t)));
    for (const t of p.removeTransfers) ops.push(this.#client.delete().key(transferKey(id, t)));
    return { ops, cas: [assignKey(id, shard), read.modRevision] };
  }

  /** One fenced transaction; false when an assignment changed since it was read (plan again). */
  async #commit(cas: [string, string][], ops: IOperation[]): Promise<boolean> {
    const token = this.#token;
    if (token === null) throw new Fenced();
    let txn = this.#client.if(token.key, 'Create', '==', token.revision);
    for (const [k, rev] of cas) txn = txn.and(k, 'Mod', '==', rev);
    const r = await txn.then(...ops).else(this.#client.get(token.key)).commit();
    if (r.succeeded) return true;
    const kv = r.responses[0]?.response_range?.kvs[0];
    if (kv === undefined || kv.create_revision !== token.revision) {
      await this.stop();
      throw new Fenced();
    }
    return false;
  }

  async #serveShard(key: string, req: Extract<Served, { type: 'shard' }>, gen: number): Promise<boolean> {
    const op: ShardOp = req.op;
    if (op.shard >= req.shardCount) throw new OpRefused('NotFound', `Shard ${op.shard} of collection ${req.collection} does not exist (it has ${req.shardCount})`);
    const [read, transfers, live] = await Promise.all([this.#readAssign(req.collectionId, op.shard), this.#readTransfers(req.collectionId, op.shard), this.#liveNodes()]);
    if (gen !== this.#generation) throw new Fenced();
    if (read === null) throw new OpRefused('NotFound', `Shard ${op.shard} of collection ${req.collection} has no assignment yet`);
    const p = plan(op, req.collection, read.value, transfers, (n) => live.includes(n));
    const { ops, cas } = this.#writes(req.collectionId, op.shard, read, p);
    ops.push(this.#resultPut(key, req, { ok: true }));
    const ok = await this.#commit([cas], ops);
    if (ok) this.#log('info', 'cluster op applied', { collection: req.collection, op, epoch: p.assignment?.epoch ?? read.value.epoch });
    return ok;
  }

  async #allAssignments(): Promise<{ id: number; shard: number; read: Read<Assignment> }[]> {
    const kvs = (await this.#client.getAll().prefix(`${P}assign/`).exec()).kvs;
    const out: { id: number; shard: number; read: Read<Assignment> }[] = [];
    for (const kv of kvs) {
      const m = /assign\/(\d+)\/(\d+)$/.exec(kv.key.toString('utf8'));
      const a = parseAssignment(kv.value);
      if (m !== null && a !== null) out.push({ id: Number(m[1]), shard: Number(m[2]), read: { value: a, modRevision: kv.mod_revision } });
    }
    return out;
  }

  /**
   * DELETE /cluster/peer/<id>. Without force its replicas are moved away first (a move each,
   * make-before-break), and the node is removed (its nodes/ key deleted) once it holds none;
   * with force they are dropped at once, except a shard's only replica. A node holding nothing
   * is removed at once.
   */
  async #removePeer(key: string, req: Extract<Served, { type: 'remove_peer' }>, gen: number): Promise<boolean> {
    const { peer, force } = req;
    const [all, live] = await Promise.all([this.#allAssignments(), this.#liveNodes()]);
    if (gen !== this.#generation) throw new Fenced();
    const held = all.filter((s) => s.read.value.replicas.some((r) => r.node === peer));
    if (held.length === 0 && !live.includes(peer)) throw new OpRefused('NotFound', `Peer ${peer} does not exist`);
    const load = new Map<number, number>();
    for (const s of all) for (const r of s.read.value.replicas) load.set(r.node, (load.get(r.node) ?? 0) + 1);
    const ops: IOperation[] = [];
    const cas: [string, string][] = [];
    for (const s of held) {
      const transfers = await this.#readTransfers(s.id, s.shard);
      let p: ShardPlan;
      if (force) {
        if (s.read.value.replicas.length === 1) throw new OpRefused('BadInput', `Peer ${peer} holds the only replica of shard ${s.shard} of collection id ${s.id}; replicate it elsewhere first`);
        const left = s.read.value.replicas.filter((r) => r.node !== peer);
        p = { assignment: { ...s.read.value, epoch: s.read.value.epoch + 1, replicas: left, target: Math.max(1, left.filter((r) => r.state !== 'Dead').length) }, addTransfers: [], removeTransfers: transfers.filter((t) => t.from === peer || t.to === peer) };
      } else {
        if (transfers.some((t) => t.from === peer && !t.sync)) continue; // already being moved away
        const to = drainTarget(s.read.value, live, load, peer);
        if (to === null) throw new OpRefused('BadInput', `No other live peer can take shard ${s.shard} of collection id ${s.id} from peer ${peer}`);
        load.set(to, (load.get(to) ?? 0) + 1);
        // The target catches up from the shard's log, so a source that is not Active (or not live) still drains.
        p = drainMove(s.read.value, s.shard, peer, to);
      }
      const w = this.#writes(s.id, s.shard, s.read, p);
      ops.push(...w.ops);
      cas.push(w.cas);
    }
    if (force || held.length === 0) ops.push(...this.#removeOps(peer));
    else ops.push(this.#client.put(`${removingPrefix}${peer}`).value(JSON.stringify({ at: new Date().toISOString() })));
    ops.push(this.#resultPut(key, req, { ok: true }));
    const ok = await this.#commit(cas, ops);
    if (ok) this.#log('info', 'cluster: peer removal started', { peer, force, replicas: held.length });
    return ok;
  }

  async #settleShard(id: number, shard: number, gen: number): Promise<void> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS && gen === this.#generation; attempt++) {
      const [read, transfers] = await Promise.all([this.#readAssign(id, shard), this.#readTransfers(id, shard)]);
      if (transfers.length === 0) break;
      if (read === null) {
        // The shard is gone (its collection deleted): its transfers go with it.
        await this.#commit([], transfers.map((t) => this.#client.delete().key(transferKey(id, t))));
        break;
      }
      const p = settle(read.value, transfers);
      if (p === null) break;
      const { ops, cas } = this.#writes(id, shard, read, p);
      if (await this.#commit([cas], ops)) {
        this.#log('info', 'cluster: transfers finished', { collection_id: id, shard, transfers: p.removeTransfers });
        break;
      }
    }
    await this.#finishRemovals(gen);
  }

  /** A peer's removal: it leaves the live nodes, and its id is remembered as removed. */
  #removeOps(peer: number): IOperation[] {
    return [this.#client.delete().key(`${P}nodes/${peer}`), this.#client.put(removedKey(peer)).value(JSON.stringify({ at: new Date().toISOString() }))];
  }

  /** Removes the peers being drained that hold no replica any more. */
  async #finishRemovals(gen: number): Promise<void> {
    const removing = await this.#client.getAll().prefix(removingPrefix).keys();
    if (removing.length === 0 || gen !== this.#generation) return;
    const all = await this.#allAssignments();
    let live: number[] | null = null;
    for (const k of removing) {
      const peer = Number(k.slice(k.lastIndexOf('/') + 1));
      const held = all.filter((s) => s.read.value.replicas.some((r) => r.node === peer));
      if (held.length === 0) {
        await this.#commit([], [...this.#removeOps(peer), this.#client.delete().key(k)]);
        this.#log('info', 'cluster: peer removed', { peer });
        continue;
      }
      // A drain move whose target died was ended by the controller (assignments.ts): the replica
      // still on the leaving peer is moved again, to another live node, when one can take it.
      live ??= await this.#liveNodes();
      const load = new Map<number, number>();
      for (const s of all) for (const r of s.read.value.replicas) load.set(r.node, (load.get(r.node) ?? 0) + 1);
      for (const s of held) {
        if ((await this.#readTransfers(s.id, s.shard)).some((t) => t.from === peer && !t.sync)) continue;
        const to = drainTarget(s.read.value, live, load, peer);
        if (to === null || gen !== this.#generation) continue;
        load.set(to, (load.get(to) ?? 0) + 1);
        const w = this.#writes(s.id, s.shard, s.read, drainMove(s.read.value, s.shard, peer, to));
        if (await this.#commit([w.cas], w.ops)) this.#log('info', 'cluster: drain move started again', { peer, collection_id: s.id, shard: s.shard, to });
      }
    }
  }
}

class Fenced extends Error {
  constructor() {
    super('not the controller any more');
  }
}

/** The transfers in flight, mirrored on every node (prefix-mirror.ts: one read, then a watch from the next revision). */
export class TransfersMirror {
  readonly #emit: (m: FromEtcdThread) => void;
  readonly #byKey = new Map<string, { collectionId: number } & Transfer>();
  readonly #mirror: PrefixMirror;

  constructor(client: Etcd3, emit: (m: FromEtcdThread) => void) {
    this.#emit = emit;
    const prefix = `${P}transfers/`;
    const idOf = (key: string): number => Number(key.slice(prefix.length).split('/')[0]);
    this.#mirror = new PrefixMirror(
      client,
      [
        {
          prefix,
          snapshot: (all) => {
            this.#byKey.clear();
            for (const kv of all.kvs) this.#put(kv.key.toString('utf8'), kv.value, idOf);
            this.#publish();
          },
          watching: (watcher) => {
            watcher.on('put', (kv) => {
              this.#put(kv.key.toString('utf8'), kv.value, idOf);
              this.#publish();
            });
            watcher.on('delete', (kv) => {
              if (this.#byKey.delete(kv.key.toString('utf8'))) this.#publish();
            });
          },
        },
      ],
      { onRetry: (e) => this.#emit({ type: 'log', level: 'warn', msg: 'cluster transfers watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } }), retryMs: RETRY_MS },
    );
  }

  /** Resolves once watching (or stopped); a failed read or watch is retried, reading again. */
  start(): Promise<void> {
    return this.#mirror.start();
  }

  #put(key: string, value: Buffer, idOf: (key: string) => number): void {
    const t = parseTransfer(value);
    if (t !== null) this.#byKey.set(key, { collectionId: idOf(key), ...t });
  }

  #publish(): void {
    this.#emit({ type: 'transfers', transfers: [...this.#byKey.values()] });
  }

  stop(): Promise<void> {
    return this.#mirror.stop();
  }
}
