// The etcd thread's mirror of what the main thread needs of the control plane besides the nodes
// (nodes-mirror.ts): the catalog, the assignments and the nodes' status reports. One read of the
// three prefixes (each its own snapshot message, with the revision it was read at), then a watch
// from the next revision, so nothing between the two is missed; a watch that fails starts over
// with new snapshots, which replace what the main thread held. Every message carries the etcd
// revision of the change, so the main thread can tell a stale event from its own newer write.

import type { Namespace, Watcher } from 'etcd3';
import { parseAssignKey, type Assignment, type NodeStatus } from '../shared/cluster/assignments.js';
import { nameOfCatalogKey, parseEntry } from '../shared/cluster/catalog.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';

const RETRY_MS = 500;

function nodeOfStatusKey(key: Buffer): number {
  const k = key.toString('utf8');
  return Number(k.slice(k.lastIndexOf('/') + 1));
}

export class ClusterMirror {
  readonly #ns: Namespace;
  readonly #emit: (m: FromEtcdThread) => void;
  readonly #watchers: Watcher[] = [];
  #stopped = false;
  /** The current watch set: an error of an older one (or a second error) starts nothing. */
  #gen = 0;

  constructor(ns: Namespace, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#emit = emit;
  }

  async start(): Promise<void> {
    while (!this.#stopped) {
      try {
        await this.#once();
        return;
      } catch (e) {
        this.#emit({ type: 'log', level: 'warn', msg: 'cluster catalog watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
        await this.#cancel();
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  async #once(): Promise<void> {
    const gen = ++this.#gen;
    const [cat, asg, st] = await Promise.all(['catalog/', 'assign/', 'status/'].map((p) => this.#ns.getAll().prefix(p).exec()));
    const rev = (h: { revision: string }): number => Number(h.revision);
    this.#emit({ type: 'catalog-snapshot', rev: rev(cat!.header), entries: cat!.kvs.map((kv) => ({ name: nameOfCatalogKey(kv.key), entry: parseEntry(kv), rev: Number(kv.mod_revision) })) });
    const assigns: { collection: number; shard: number; assignment: Assignment }[] = [];
    for (const kv of asg!.kvs) {
      const k = parseAssignKey(kv.key.toString('utf8'));
      if (k !== null) assigns.push({ ...k, assignment: JSON.parse(kv.value.toString('utf8')) as Assignment });
    }
    this.#emit({ type: 'assign-snapshot', assignments: assigns });
    this.#emit({ type: 'status-snapshot', statuses: st!.kvs.map((kv) => ({ node: nodeOfStatusKey(kv.key), status: JSON.parse(kv.value.toString('utf8')) as NodeStatus })) });
    const watch = async (prefix: string, from: string, on: (w: Watcher) => void): Promise<void> => {
      const w = await this.#ns.watch().prefix(prefix).startRevision((BigInt(from) + 1n).toString()).create();
      this.#watchers.push(w);
      on(w);
      w.on('error', () => {
        // Start over with new snapshots (the watcher's own resume is not relied on for the whole set).
        if (this.#stopped || gen !== this.#gen) return;
        this.#gen++;
        void this.#cancel().then(() => this.start());
      });
    };
    await watch('catalog/', cat!.header.revision, (w) => {
      w.on('put', (kv) => this.#emit({ type: 'catalog-put', name: nameOfCatalogKey(kv.key), entry: parseEntry(kv), rev: Number(kv.mod_revision) }));
      w.on('delete', (kv) => this.#emit({ type: 'catalog-delete', name: nameOfCatalogKey(kv.key), rev: Number(kv.mod_revision) }));
    });
    await watch('assign/', asg!.header.revision, (w) => {
      w.on('put', (kv) => {
        const k = parseAssignKey(kv.key.toString('utf8'));
        if (k !== null) this.#emit({ type: 'assign-put', ...k, assignment: JSON.parse(kv.value.toString('utf8')) as Assignment });
      });
      w.on('delete', (kv) => {
        const k = parseAssignKey(kv.key.toString('utf8'));
        if (k !== null) this.#emit({ type: 'assign-delete', ...k });
      });
    });
    await watch('status/', st!.header.revision, (w) => {
      w.on('put', (kv) => this.#emit({ type: 'status-put', node: nodeOfStatusKey(kv.key), status: JSON.parse(kv.value.toString('utf8')) as NodeStatus }));
      w.on('delete', (kv) => this.#emit({ type: 'status-delete', node: nodeOfStatusKey(kv.key) }));
    });
  }

  async #cancel(): Promise<void> {
    const ws = this.#watchers.splice(0);
    await Promise.all(ws.map((w) => w.cancel().catch(() => undefined)));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#cancel();
  }
}
