// The live nodes, mirrored from /quiver/nodes/ (prefix-mirror.ts): one read of the prefix, then a
// watch from the next revision, so no change between the two is missed (etcd3's watcher resumes
// from its last revision after a reconnect). Each change posts the whole list; it is small.

import type { Namespace } from 'etcd3';
import type { FromEtcdThread, NodeRecord } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';

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
  readonly #emit: (m: FromEtcdThread) => void;
  readonly #nodes = new Map<string, NodeRecord>();
  readonly #mirror: PrefixMirror;

  constructor(ns: Namespace, emit: (m: FromEtcdThread) => void) {
    this.#emit = emit;
    this.#mirror = new PrefixMirror(
      ns,
      [
        {
          prefix: 'nodes/',
          snapshot: (all) => {
            this.#nodes.clear();
            for (const kv of all.kvs) {
              const n = parse(kv.value);
              if (n !== null) this.#nodes.set(idOf(kv.key), n);
            }
            this.#publish();
          },
          watching: (watcher) => {
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
          },
        },
      ],
      { onRetry: (e) => this.#emit({ type: 'log', level: 'warn', msg: 'cluster node watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } }) },
    );
  }

  /** Resolves once watching (or stopped); a failed read or watch is retried, reading again. */
  start(): Promise<void> {
    return this.#mirror.start();
  }

  #publish(): void {
    this.#emit({ type: 'nodes', nodes: [...this.#nodes.values()].sort((a, b) => a.id - b.id) });
  }

  stop(): Promise<void> {
    return this.#mirror.stop();
  }
}
