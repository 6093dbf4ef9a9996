// The etcd thread's mirror of what the main thread needs of the control plane besides the nodes
// (nodes-mirror.ts): the catalog, the assignments and the nodes' status reports, as one set of
// prefix-mirror.ts. One read of the three prefixes (each its own snapshot message, with the
// revision it was read at), then a watch from the next revision, so nothing between the two is
// missed; a watch that fails starts over with new snapshots, which replace what the main thread
// held. Every message carries the etcd revision of the change, so the main thread can tell a stale
// event from its own newer write.

import type { Namespace } from 'etcd3';
import { parseAssignKey, type Assignment, type NodeStatus } from '../shared/cluster/assignments.js';
import { nameOfCatalogKey, parseEntry } from '../shared/cluster/catalog.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';

function nodeOfStatusKey(key: Buffer): number {
  const k = key.toString('utf8');
  return Number(k.slice(k.lastIndexOf('/') + 1));
}

export class ClusterMirror {
  readonly #mirror: PrefixMirror;

  constructor(ns: Namespace, emit: (m: FromEtcdThread) => void) {
    const rev = (h: { revision: string }): number => Number(h.revision);
    this.#mirror = new PrefixMirror(
      ns,
      [
        {
          prefix: 'catalog/',
          snapshot: (cat) => emit({ type: 'catalog-snapshot', rev: rev(cat.header), entries: cat.kvs.map((kv) => ({ name: nameOfCatalogKey(kv.key), entry: parseEntry(kv), rev: Number(kv.mod_revision) })) }),
          watching: (w) => {
            w.on('put', (kv) => emit({ type: 'catalog-put', name: nameOfCatalogKey(kv.key), entry: parseEntry(kv), rev: Number(kv.mod_revision) }));
            w.on('delete', (kv) => emit({ type: 'catalog-delete', name: nameOfCatalogKey(kv.key), rev: Number(kv.mod_revision) }));
          },
        },
        {
          prefix: 'assign/',
          snapshot: (asg) => {
            const assigns: { collection: number; shard: number; assignment: Assignment }[] = [];
            for (const kv of asg.kvs) {
              const k = parseAssignKey(kv.key.toString('utf8'));
              if (k !== null) assigns.push({ ...k, assignment: JSON.parse(kv.value.toString('utf8')) as Assignment });
            }
            emit({ type: 'assign-snapshot', assignments: assigns });
          },
          watching: (w) => {
            w.on('put', (kv) => {
              const k = parseAssignKey(kv.key.toString('utf8'));
              if (k !== null) emit({ type: 'assign-put', ...k, assignment: JSON.parse(kv.value.toString('utf8')) as Assignment });
            });
            w.on('delete', (kv) => {
              const k = parseAssignKey(kv.key.toString('utf8'));
              if (k !== null) emit({ type: 'assign-delete', ...k });
            });
          },
        },
        {
          prefix: 'status/',
          snapshot: (st) => emit({ type: 'status-snapshot', statuses: st.kvs.map((kv) => ({ node: nodeOfStatusKey(kv.key), status: JSON.parse(kv.value.toString('utf8')) as NodeStatus })) }),
          watching: (w) => {
            w.on('put', (kv) => emit({ type: 'status-put', node: nodeOfStatusKey(kv.key), status: JSON.parse(kv.value.toString('utf8')) as NodeStatus }));
            w.on('delete', (kv) => emit({ type: 'status-delete', node: nodeOfStatusKey(kv.key) }));
          },
        },
      ],
      {
        // Etcd cancelling one watcher starts the set over with new snapshots (the watcher's own
        // resume is not relied on for the whole set).
        onLoss: 'restart',
        onRetry: (e) => emit({ type: 'log', level: 'warn', msg: 'cluster catalog watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } }),
      },
    );
  }

  /** Resolves once the three prefixes are watched (or stopped). */
  start(): Promise<void> {
    return this.#mirror.start();
  }

  stop(): Promise<void> {
    return this.#mirror.stop();
  }
}
