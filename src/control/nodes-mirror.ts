// The live nodes, mirrored from /quiver/nodes/ through a watch: one read of the prefix, then a
// watch from the next revision, so no change between the two is missed (etcd3's watcher resumes
// from its last revision after a reconnect). Each change posts the whole list; it is small.

import type { Namespace, Watcher } from 'etcd3';
import type { FromEtcdThread, NodeRecord } from '../shared/cluster/messages.js';

const RETRY_MS = 500;

function parse(value: Buffer): NodeRecord | null {
  try {
    const v = JSON.parse(value.toString('utf8')) as NodeRecord;
    return typeof v.id === 'number' && typeof v.advertise === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The id part of a key, whether or not it still carries the namespace prefix. */
function idOf(key: Buffer): string {
  const k = key.toString('utf8');
  return k.slice(k.lastIndexOf('/') + 1);
}

export class NodesMirror {
  readonly #ns: Namespace;
  readonly #emit: (m: FromEtcdThread) => void;
  readonly #nodes = new Map<string, NodeRecord>();
  #watcher: Watcher | null = null;
  #stopped = false;

  constructor(ns: Namespace, emit: (m: FromEtcdThread) => void) {
    this.#ns = ns;
    this.#emit = emit;
  }

  async start(): Promise<void> {
    while (!this.#stopped) {
      try {
        const all = await this.#ns.getAll().prefix('nodes/').exec();
        this.#nodes.clear();
        for (const kv of all.kvs) {
          const n = parse(kv.value);
          if (n !== null) this.#nodes.set(idOf(kv.key), n);
        }
        this.#publish();
        const next = (BigInt(all.header.revision) + 1n).toString();
        const watcher = await this.#ns.watch().prefix('nodes/').startRevision(next).create();
        this.#watcher = watcher;
        watcher.on('put', (kv) => {
          const n = parse(kv.value);
          if (n === null) return;
          this.#nodes.set(idOf(kv.key), n);
          this.#publish();
        });
        watcher.on('delete', (kv) => {
          if (this.#nodes.delete(idOf(kv.key))) this.#publish();
        });
        watcher.on('data', (res) => {
          this.#emit({ type: 'raft', term: res.header.raft_term, commit: res.header.revision, at: new Date().toISOString() });
        });
        return;
      } catch (e) {
        this.#emit({ type: 'log', level: 'warn', msg: 'cluster node watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } });
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  #publish(): void {
    this.#emit({ type: 'nodes', nodes: [...this.#nodes.values()].sort((a, b) => a.id - b.id) });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#watcher?.cancel().catch(() => undefined);
  }
}
