// catalog-sync.ts without etcd: the etcd thread's messages (snapshots, puts, deletes, each with
// its revision) brought into a fake Engine. A node's own create is never undone by an older
// delete event of the same name; a snapshot deletes here what etcd no longer has; a failed local
// step is tried again without a new event; a create that etcd refuses answers 409 (or 412 while
// the name is being deleted). A create answers once every live peer reports the catalog applied
// up to it, or after its deadline (logged); the revision a node applied is what it reports.

import { describe, expect, it, vi } from 'vitest';
import { CatalogSync, type MirrorTarget } from '../../../src/main/cluster/catalog-sync.js';
import type { CatalogReply, CatalogRequest, FromEtcdThread } from '../../../src/shared/cluster/messages.js';
import type { ClusterNode } from '../../../src/main/cluster/node.js';
import type { CatalogEntry as LocalEntry } from '../../../src/shared/db.js';
import type { CollectionConfig, CollectionMeta } from '../../../src/shared/types.js';
import type { CatalogEntry } from '../../../src/shared/cluster/catalog.js';
import type { NodeStatus } from '../../../src/shared/cluster/assignments.js';

type CatalogMessage = Extract<FromEtcdThread, { type: 'catalog-snapshot' | 'catalog-put' | 'catalog-delete' }>;

const config = (size: number): CollectionConfig => ({ vectors: { '': { size } }, payload_schema: {} }) as unknown as CollectionConfig;

/** The peers and their status reports, as the main thread's mirror of etcd has them. */
class FakeState {
  readonly nodeId = 1;
  readonly statuses = new Map<number, NodeStatus>();
  live = [1, 2, 3];
  readonly #listeners = new Set<() => void>();
  peers(): { id: number }[] {
    return this.live.map((id) => ({ id }));
  }
  status(node: number): NodeStatus | undefined {
    return this.statuses.get(node);
  }
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  report(node: number, catalogRev?: number): void {
    this.statuses.set(node, { at: '', shards: {}, ...(catalogRev === undefined ? {} : { catalog_rev: catalogRev }) });
    for (const l of [...this.#listeners]) l();
  }
  get listeners(): number {
    return this.#listeners.size;
  }
}

class FakeNode {
  onCatalog: (m: CatalogMessage) => void = () => undefined;
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly state = new FakeState();
  log = {
    info: () => undefined,
    warn: (f: Record<string, unknown>, msg: string) => this.warnings.push(`${msg}: ${JSON.stringify(f.nodes)}`),
    error: (f: Record<string, unknown>, msg: string) => this.errors.push(`${msg}: ${String(f.collection)}`),
  };
  answer: (req: CatalogRequest) => CatalogReply = () => {
    throw new Error('no answer set');
  };
  request(req: CatalogRequest): Promise<CatalogReply> {
    return Promise.resolve(this.answer(req));
  }
}

class FakeEngine implements MirrorTarget {
  readonly local = new Map<string, LocalEntry>();
  failCreates = 0;
  list(): CollectionMeta[] {
    return [...this.local.values()];
  }
  mirrorCollection(entry: LocalEntry): Promise<void> {
    if (this.local.get(entry.name)?.id === entry.id && JSON.stringify(this.local.get(entry.name)?.config) === JSON.stringify(entry.config)) return Promise.resolve();
    if (!this.local.has(entry.name) && this.failCreates > 0) {
      this.failCreates--;
      return Promise.reject(new Error('streams timed out'));
    }
    this.local.set(entry.name, entry);
    return Promise.resolve();
  }
  mirrorDelete(name: string, id: number): Promise<void> {
    if (this.local.get(name)?.id === id) this.local.delete(name);
    return Promise.resolve();
  }
}

const entry = (id: number, size = 4, deleting = false): CatalogEntry => ({ id, config: config(size), deleting, created_at: '2026-01-01T00:00:00.000Z' });

async function settle(sync: CatalogSync): Promise<void> {
  await sync.serialize(() => Promise.resolve());
  await sync.serialize(() => Promise.resolve());
}

/**
 * Creates 'x' at catalog revision `rev` with nodes 2 and 3 reporting `reports`, and starts waiting
 * for it to be placed: `answered()` says whether the create has answered yet.
 */
async function createWithPeersAt(node: FakeNode, sync: CatalogSync, rev: number, reports: [number, number]): Promise<{ placed: Promise<unknown>; answered: () => boolean }> {
  node.answer = () => ({ op: 'create', created: true, entry: entry(8, 3), rev });
  const meta = await sync.create('x', config(3));
  node.state.report(2, reports[0]);
  node.state.report(3, reports[1]);
  let answered = false;
  const placed = sync.placed(meta).then(() => (answered = true));
  return { placed, answered: () => answered };
}

function setup(): { node: FakeNode; engine: FakeEngine; sync: CatalogSync } {
  const node = new FakeNode();
  const engine = new FakeEngine();
  const sync = new CatalogSync(node as unknown as ClusterNode, () => Promise.resolve());
  sync.attach(engine);
  return { node, engine, sync };
}

describe('catalog mirror', () => {
  it('nothing is applied before the first snapshot; the snapshot then creates what etcd has and deletes what it does not', async () => {
    const { node, engine, sync } = setup();
    engine.local.set('stale', { id: 3, name: 'stale', config: config(2), created_at: '' });
    node.onCatalog({ type: 'catalog-put', name: 'a', entry: entry(5), rev: 10 });
    await settle(sync);
    expect([...engine.local.keys()]).toEqual(['stale']);
    node.onCatalog({ type: 'catalog-snapshot', rev: 12, entries: [{ name: 'a', entry: entry(5), rev: 10 }, { name: 'b', entry: entry(6), rev: 11 }] });
    await sync.synced;
    expect([...engine.local.keys()].sort()).toEqual(['a', 'b']);
    expect(engine.local.get('b')?.id).toBe(6);
  });

  it("this node's own create is not undone by an older delete of the same name arriving after it", async () => {
    const { node, engine, sync } = setup();
    node.onCatalog({ type: 'catalog-snapshot', rev: 20, entries: [{ name: 'x', entry: entry(7), rev: 15 }] });
    await sync.synced;
    expect(engine.local.get('x')?.id).toBe(7);
    // Another node deleted x (rev 21) and this node created it again (rev 22) before the delete event came.
    node.answer = () => ({ op: 'create', created: true, entry: entry(8, 3), rev: 22 });
    const mine = await sync.create('x', config(3));
    expect(mine.id).toBe(8);
    await sync.serialize(() => engine.mirrorDelete('x', 7).then(() => engine.mirrorCollection(mine)));
    node.onCatalog({ type: 'catalog-delete', name: 'x', rev: 21 });
    node.onCatalog({ type: 'catalog-put', name: 'x', entry: entry(7, 4, true), rev: 19 });
    await settle(sync);
    expect(engine.local.get('x')?.id).toBe(8);
    // A newer delete does remove it.
    node.onCatalog({ type: 'catalog-delete', name: 'x', rev: 30 });
    await settle(sync);
    expect(engine.local.has('x')).toBe(false);
  });

  it('a collection marked deleting in etcd is deleted here at once; a config change is applied', async () => {
    const { node, engine, sync } = setup();
    node.onCatalog({ type: 'catalog-snapshot', rev: 5, entries: [{ name: 'p', entry: entry(1), rev: 3 }, { name: 'q', entry: entry(2), rev: 4 }] });
    await sync.synced;
    node.onCatalog({ type: 'catalog-put', name: 'p', entry: entry(1, 4, true), rev: 6 });
    node.onCatalog({ type: 'catalog-put', name: 'q', entry: entry(2, 9), rev: 7 });
    await settle(sync);
    expect(engine.local.has('p')).toBe(false);
    expect(engine.local.get('q')?.config).toEqual(config(9));
  });

  it('a local copy that failed is tried again without a new event', async () => {
    const { node, engine, sync } = setup();
    engine.failCreates = 1;
    node.onCatalog({ type: 'catalog-snapshot', rev: 5, entries: [{ name: 'r', entry: entry(4), rev: 3 }] });
    await sync.synced;
    expect(engine.local.has('r')).toBe(false);
    expect(node.errors).toEqual(['cluster: local copy of a collection from etcd failed; retrying: r']);
    for (let i = 0; i < 50 && !engine.local.has('r'); i++) await new Promise((res) => setTimeout(res, 100));
    expect(engine.local.get('r')?.id).toBe(4);
  });

  it('a create etcd refuses: 409 naming the collection, or 412 while it is being deleted; a PATCH of a gone collection: 404', async () => {
    const { node, sync } = setup();
    node.answer = () => ({ op: 'create', created: false, existing: entry(9) });
    await expect(sync.create('dup', config(2))).rejects.toMatchObject({ message: 'Collection already exists: dup' });
    node.answer = () => ({ op: 'create', created: false, existing: entry(9, 2, true) });
    await expect(sync.create('dup', config(2))).rejects.toMatchObject({ message: 'Collection dup is being deleted' });
    node.answer = () => ({ op: 'update', rev: null });
    await expect(sync.update('gone', 3, config(2))).rejects.toMatchObject({ message: expect.stringContaining('gone') });
    node.answer = () => ({ op: 'markDeleting', entry: null, rev: 0 });
    expect(await sync.markDeleting('gone')).toBeNull();
  });

  it('the revision applied here: what every pass applied in full, not what failed or is only heard of', async () => {
    const { node, engine, sync } = setup();
    let told = 0;
    sync.onApplied(() => told++);
    expect(sync.appliedRev).toBe(0);
    node.onCatalog({ type: 'catalog-snapshot', rev: 12, entries: [{ name: 'a', entry: entry(5), rev: 10 }] });
    await sync.synced;
    expect([sync.appliedRev, told]).toEqual([12, 1]);
    engine.failCreates = 1;
    node.onCatalog({ type: 'catalog-put', name: 'b', entry: entry(6), rev: 14 });
    await settle(sync);
    // Failed: still at 12 until the retry (1 s later) copies it.
    expect(sync.appliedRev).toBe(12);
    await vi.waitFor(() => expect(sync.appliedRev).toBe(14), { timeout: 5000 });
    expect(told).toBe(2);
  });

  it('a create answers once every live peer has applied the catalog up to it; a peer that reports no revision is not waited for', async () => {
    const { node, sync } = setup();
    const { placed, answered } = await createWithPeersAt(node, sync, 22, [21, 20]);
    await new Promise((res) => setTimeout(res, 20));
    expect(answered()).toBe(false);
    node.state.report(2, 22);
    await new Promise((res) => setTimeout(res, 20));
    expect(answered()).toBe(false);
    // Node 3 leaves (its lease lapsed): nobody is left to wait for.
    node.state.live = [1, 2];
    node.state.report(2, 22);
    await placed;
    expect(node.state.listeners).toBe(0);
    // A second create: node 3 is back, reporting no revision (an older version): not waited for.
    node.state.live = [1, 2, 3];
    node.state.report(3);
    node.answer = () => ({ op: 'create', created: true, entry: entry(9, 3), rev: 30 });
    const second = await sync.create('y', config(3));
    const done = sync.placed(second);
    node.state.report(2, 30);
    await done;
    expect(node.warnings).toEqual([]);
  });

  it('a peer that does not apply the create in time is logged, and the create answers anyway', async () => {
    vi.useFakeTimers();
    try {
      const { node, sync } = setup();
      const { placed, answered } = await createWithPeersAt(node, sync, 22, [22, 5]);
      await vi.advanceTimersByTimeAsync(9_900);
      expect(answered()).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      await placed;
      expect(node.warnings).toEqual(['cluster: collection created, but not every node has it yet; answering anyway: [3]']);
      expect(node.state.listeners).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
