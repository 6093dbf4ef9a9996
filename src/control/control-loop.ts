// The controller's loop (etcd thread; docs/cluster.md section 7, decisions 4 and 5): while this node
// holds the controller election, it reads the whole /quiver/ state in one range (a consistent
// snapshot), decides the assignments with assignments.ts's reconcile, and writes each change with
// writeAssignment: fenced by the election token and conditioned on the key's mod revision (CAS),
// so a deposed controller writes nothing and two writers never lose each other's change.
// It keeps no state of its own between runs: a new controller resumes from etcd (a Dead
// replica's grace counts from the `since` written in its assignment). Runs on every change under
// /quiver/ (debounced: one run at a time) and every second (graces expire without a change).

import type { Etcd3, Namespace, Watcher } from 'etcd3';
import { assignKey, parseAssignKey, reconcile, shardKey, type Assignment, type NodeStatus } from '../shared/cluster/assignments.js';
import { nameOfCatalogKey, parseEntry, removeEntry, type CatalogEntry } from '../shared/cluster/catalog.js';
import { parseTransfer } from '../shared/cluster/cluster-ops.js';
import type { ControllerElection } from './controller.js';
import { fencedCas, FencedOutError, type FenceToken } from './fenced.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';
import { Rerun } from '../shared/cluster/rerun.js';

/** An entry left marked deleting this long (its deleting node died mid-delete) is removed by the controller. */
const STALE_DELETE_MS = 30_000;
const TICK_MS = 1000;

/**
 * Writes one assignment (null: removes it) as the controller: fenced by `token` and conditioned
 * on the key's mod revision as read (`mod` '0': the key must be absent). True when written, false
 * when the key changed since read; FencedOutError when `token` is no longer the controller's.
 * C3's cluster operations write the same format through this function.
 */
export async function writeAssignment(client: Etcd3, prefix: string, token: FenceToken, collection: number, shard: number, next: Assignment | null, mod: string): Promise<boolean> {
  const key = `${prefix}${assignKey(collection, shard)}`;
  const op = next === null ? client.delete().key(key) : client.put(key).value(JSON.stringify(next));
  return fencedCas(client, token, [{ key, mod }], op);
}

export class ControlLoop {
  readonly #client: Etcd3;
  readonly #ns: Namespace;
  readonly #election: ControllerElection;
  readonly #graceMs: number;
  readonly #emit: (m: FromEtcdThread) => void;
  readonly #rerun = new Rerun(
    () => this.#run(),
    (e) => {
      if (!(e instanceof FencedOutError)) this.#emit({ type: 'log', level: 'warn', msg: 'cluster controller: run failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
    },
    () => !this.#stopped && this.#election.token !== null,
  );
  /**
   * Every change under /quiver/ kicks a run. No snapshot (each run reads for itself) and no resume:
   * a watch etcd cancels is made again from etcd's revision then, after a pause; the timer's runs
   * cover what changed meanwhile, and while etcd is unreachable.
   */
  readonly #watch: PrefixMirror;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(client: Etcd3, ns: Namespace, election: ControllerElection, graceMs: number, emit: (m: FromEtcdThread) => void) {
    this.#client = client;
    this.#ns = ns;
    this.#election = election;
    this.#graceMs = graceMs;
    this.#emit = emit;
    const watching = (w: Watcher): void => {
      w.on('data', () => this.kick());
    };
    this.#watch = new PrefixMirror(ns, [{ prefix: '', read: null, watching }], { onLoss: 'restart-after-pause' });
  }

  start(): void {
    this.#timer = setInterval(() => this.kick(), TICK_MS);
    void this.#watch.start();
  }

  /** Runs the loop soon (once more after the current run when one is in progress). */
  kick(): void {
    this.#rerun.kick();
  }

  async #run(): Promise<void> {
    const token = this.#election.token;
    if (token === null) return;
    const all = await this.#ns.getAll().prefix('').exec();
    const now = Date.now();
    const live = new Set<number>();
    const catalog = new Map<string, CatalogEntry>();
    const assignments = new Map<string, Assignment>();
    const mods = new Map<string, string>();
    const statuses = new Map<number, NodeStatus>();
    const transfers = new Map<string, { from: number; to: number }[]>();
    const leaving = new Set<number>();
    for (const kv of all.kvs) {
      const full = kv.key.toString('utf8');
      const prefix = this.#ns.prefix.toString('utf8');
      const key = full.startsWith(prefix) ? full.slice(prefix.length) : full;
      try {
        if (key.startsWith('nodes/')) live.add(Number(key.slice('nodes/'.length)));
        else if (key.startsWith('removing/')) leaving.add(Number(key.slice('removing/'.length)));
        else if (key.startsWith('catalog/')) catalog.set(nameOfCatalogKey(kv.key), parseEntry(kv));
        else if (key.startsWith('status/')) statuses.set(Number(key.slice('status/'.length)), JSON.parse(kv.value.toString('utf8')) as NodeStatus);
        else if (key.startsWith('assign/')) {
          const k = parseAssignKey(key);
          if (k === null) continue;
          assignments.set(shardKey(k.collection, k.shard), JSON.parse(kv.value.toString('utf8')) as Assignment);
          mods.set(shardKey(k.collection, k.shard), kv.mod_revision);
        } else if (key.startsWith('transfers/')) {
          // transfers/<id>/<shard>/<from>-<to>: a target that dies ends its transfer (reconcile).
          const m = /^transfers\/(\d+)\/(\d+)\//.exec(key);
          const t = parseTransfer(kv.value);
          if (m === null || t === null) continue;
          const sk = shardKey(Number(m[1]), Number(m[2]));
          transfers.set(sk, [...(transfers.get(sk) ?? []), { from: t.from, to: t.to }]);
        }
      } catch {
        // A malformed value is skipped; the write that made it is not this loop's
      }
    }
    for (const ch of reconcile({ now, live, catalog, assignments, statuses, graceMs: this.#graceMs, transfers, leaving })) {
      const key = shardKey(ch.collection, ch.shard);
      const ok = await writeAssignment(this.#client, this.#ns.prefix.toString(), token, ch.collection, ch.shard, ch.next, mods.get(key) ?? '0');
      if (!ok) this.#rerun.again();
      else this.#emit({ type: 'log', level: 'info', msg: 'cluster controller: assignment written', fields: { collection: ch.collection, shard: ch.shard, assignment: ch.next } });
    }
    for (const [name, e] of catalog) {
      if (e.deleting && now - (e.deleting_since ?? now) > STALE_DELETE_MS) await removeEntry(this.#ns, name, e.id);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#watch.stop();
  }
}
