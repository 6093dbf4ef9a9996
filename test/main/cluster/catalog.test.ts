// The etcd catalog's primitives against a real etcd: one winner among concurrent creates of a
// name, a delete that marks then removes, and a mirror that sees existing entries and changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3, type Namespace } from 'etcd3';
import { createIfAbsent, markDeleting, mirrorCatalog, removeEntry, type CatalogEntry } from '../../../src/shared/cluster/catalog.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

describe.skipIf(etcdMissing() !== null)('catalog in etcd', () => {
  let etcd: EtcdCluster;
  let clients: Etcd3[];
  let ns: Namespace[];
  beforeAll(async () => {
    etcd = await startEtcd(1);
    clients = [new Etcd3({ hosts: etcd.endpoints }), new Etcd3({ hosts: etcd.endpoints })];
    ns = clients.map((c) => c.namespace('/quiver/'));
  });
  afterAll(async () => {
    for (const c of clients ?? []) c.close();
    await etcd?.stop();
  });

  it('two nodes creating one name at once: one creates, the other gets the existing entry', async () => {
    const [a, b] = await Promise.all([createIfAbsent(ns[0]!, 'docs', { size: 4 }), createIfAbsent(ns[1]!, 'docs', { size: 8 })]);
    const winners = [a, b].filter((r) => r.created);
    expect(winners).toHaveLength(1);
    const loser = [a, b].find((r) => !r.created);
    const won = winners[0]!;
    if (!won.created || loser === undefined || loser.created) throw new Error('unreachable');
    expect(loser.existing).toEqual(won.entry);
    expect(won.entry.id).toBe(1);
    expect(JSON.parse((await clients[0]!.get('/quiver/catalog/docs').string()) ?? 'null')).toEqual(won.entry);
  });

  it('a mirror sees the entries there, then a create, a deleting mark and a removal; the name is then free', async () => {
    const seen: string[] = [];
    const watcher = await mirrorCatalog(ns[1]!, {
      put: (name: string, e: CatalogEntry) => seen.push(`put ${name}${e.deleting ? ' deleting' : ''}`),
      delete: (name: string) => seen.push(`delete ${name}`),
    });
    try {
      expect(seen).toEqual(['put docs']);
      const created = await createIfAbsent(ns[0]!, 'images', { size: 2 });
      if (!created.created) throw new Error('images existed');
      expect(await markDeleting(ns[0]!, 'images')).toBe(true);
      // A removal naming another collection id (a newer collection of the same name) does nothing.
      expect(await removeEntry(ns[0]!, 'images', 999)).toBe(false);
      expect(await removeEntry(ns[0]!, 'images', created.entry.id)).toBe(true);
      expect(await markDeleting(ns[0]!, 'images')).toBe(false);
      for (let i = 0; i < 100 && seen.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual(['put docs', 'put images', 'put images deleting', 'delete images']);
      expect((await createIfAbsent(ns[1]!, 'images', { size: 3 })).created).toBe(true);
    } finally {
      await watcher.cancel();
    }
  });

  it('ids come from the counter: concurrent creates of different names get distinct ids, never reused after a delete', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `n${i}`);
    const results = await Promise.all(names.map((n, i) => createIfAbsent(ns[i % 2]!, n, {})));
    const ids = results.map((r) => (r.created ? r.entry.id : -1));
    expect(new Set(ids).size).toBe(6);
    expect(ids.every((id) => id > 0)).toBe(true);
    const max = Math.max(...ids);
    expect(Number(await clients[0]!.get('/quiver/next-collection-id').string())).toBe(max + 1);
    expect(await markDeleting(ns[0]!, 'n0')).toBe(true);
    expect(await removeEntry(ns[0]!, 'n0', ids[0]!)).toBe(true);
    const again = await createIfAbsent(ns[1]!, 'n0', {});
    expect(again.created && again.entry.id).toBe(max + 1);
  });
});
