// The coordinating workers' catalog mirror answers lookups exactly as Engine.collection does,
// and never lets an older snapshot replace a newer one; the operation id counter is one counter
// for every view of its buffer, and seeding never moves it back.

import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../src/shared/db.js';
import { OpIdCounter } from '../../../src/shared/op-ids.js';
import type { ReplicaTable } from '../../../src/shared/placement.js';
import type { CatalogSnapshot } from '../../../src/shared/coordination.js';
import { CatalogMirror } from '../../../src/workers/coordinator/catalog-mirror.js';

const entry = (id: number, name: string, deleting = false): CatalogEntry =>
  ({ id, name, created_at: '2026-01-01T00:00:00Z', config: { shard_number: 1 }, ...(deleting ? { deleting: true } : {}) }) as unknown as CatalogEntry;

const snap = (version: number, ready: boolean, entries: CatalogEntry[]): CatalogSnapshot => ({
  version,
  ready,
  collections: Object.fromEntries(entries.map((e) => [e.name, { entry: e }])),
});

describe('CatalogMirror', () => {
  it('answers 412 before ready, 404 for an unknown name, 412 while a DELETE runs', () => {
    const m = new CatalogMirror();
    expect(() => m.collection('a')).toThrow('Engine not initialized');
    m.apply(snap(1, true, [entry(1, 'a'), entry(2, 'b', true)]));
    expect(m.collection('a').id).toBe(1);
    expect(() => m.collection('nope')).toThrow('Collection not found: nope');
    expect(() => m.collection('constructor')).toThrow('Collection not found: constructor');
    expect(() => m.collection('b')).toThrowError(expect.objectContaining({ code: 'PreconditionFailed' }));
  });

  it('gives the replica table of the collection the request looked up, not of one recreated under its name', () => {
    const m = new CatalogMirror();
    const table: ReplicaTable = { collection: 1, shards: [[{ worker: 1, state: 'Active' }, { worker: 0, state: 'Partial' }]] };
    m.apply({ version: 1, ready: true, collections: { a: { entry: entry(1, 'a'), replicas: table }, b: { entry: entry(2, 'b') } } });
    const a = m.collection('a');
    expect(m.replicas(a)).toEqual(table);
    expect(m.replicas(m.collection('b'))).toBeUndefined();
    m.apply(snap(2, true, [entry(3, 'a')]));
    expect(m.replicas(a)).toBeUndefined();
  });

  it('keeps the newest snapshot when pushes cross', () => {
    const m = new CatalogMirror();
    m.apply(snap(3, true, [entry(1, 'a')]));
    m.apply(snap(2, true, []));
    expect(m.collection('a').id).toBe(1);
    m.apply(snap(4, true, []));
    expect(() => m.collection('a')).toThrow('Collection not found: a');
  });
});

describe('OpIdCounter', () => {
  it('is one counter for every view of its buffer, and seeding only moves it up', () => {
    const a = new OpIdCounter();
    const b = new OpIdCounter(a.buffer);
    a.seed(41);
    expect(b.next()).toBe(42);
    expect(a.next()).toBe(43);
    a.seed(10);
    expect(b.next()).toBe(44);
  });
});
