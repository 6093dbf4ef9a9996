// The Engine built with its collaborators as constructor options, over in-process workers: the
// events sink gets the copy transitions, a copy added by a PATCH waits for the handed-off writes
// tracker before it loads, and the point mode given at construction takes every point call (its
// write log's streams made and deleted with the collection, closed with the engine).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { WriteLog } from '../../../src/shared/cluster/logged-writes.js';
import { Engine, HandedOffWrites, loggedPoints, type EngineEvents, type EngineOptions } from '../../../src/main/engine.js';
import { InProcessDispatcher } from '../../../src/main/router/in-process-dispatcher.js';
import { buildConfig } from '../../../src/main/service/collections.js';
import { openDb } from '../../../src/shared/db.js';
import type { CollectionMeta } from '../../../src/shared/types.js';
import type { ShardCall, ShardOp } from '../../../src/shared/shard-router.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function started(opts: EngineOptions): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-engine-'));
  dirs.push(dir);
  const engine = new Engine(openDb(dir), new InProcessDispatcher(2, dir), opts);
  await engine.start();
  return engine;
}

function recordingEvents() {
  const replica: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const background: string[] = [];
  const events: EngineEvents = {
    backgroundError: (_err, what) => void background.push(what),
    replicaEvent: (level, msg, fields) => void replica.push({ level, msg, fields }),
  };
  return { events, replica, background };
}

const config = (replication_factor: number) => buildConfig({ vectors: { size: 2, distance: 'Dot' }, replication_factor }, { shard_number: 1, replication_factor: 1 });
const flush = () => new Promise((r) => setTimeout(r, 20));

describe('Engine constructor options', () => {
  it('reports copy transitions to the events it was built with', async () => {
    const { events, replica } = recordingEvents();
    const engine = await started({ events });
    try {
      await engine.createCollection('r', config(2));
      expect(replica).toEqual([{ level: 'info', msg: 'shard copies created', fields: { collection: 'r', replication_factor: 2, copies_per_shard: 2, workers: 2 } }]);
    } finally {
      await engine.close();
    }
  });

  it('builds a copy added by a PATCH only once the handed-off writes of its collection have answered', async () => {
    const { events, replica } = recordingEvents();
    const asked: string[] = [];
    let release!: () => void;
    const handed = new HandedOffWrites();
    const handedOffWrites = {
      settled: (name: string) => {
        asked.push(name);
        return new Promise<void>((res) => (release = res)).then(() => handed.settled(name));
      },
    };
    const engine = await started({ events, handedOffWrites });
    try {
      await engine.createCollection('p', config(1));
      const meta: CollectionMeta = engine.collection('p');
      await engine.updateCollection({ ...meta, config: { ...meta.config, replication_factor: 2 } });
      expect(asked).toEqual(['p']);
      await flush();
      expect(engine.replicas(meta).shards[0]?.map((c) => c.state)).toEqual(['Active', 'Partial']);
      release();
      await vi.waitFor(() => expect(engine.replicas(meta).shards[0]?.map((c) => c.state)).toEqual(['Active', 'Active']));
      expect(replica.map((e) => e.msg)).toEqual(['shard copies raised', 'shard copy built: serving reads']);
    } finally {
      await engine.close();
    }
  });
});

/** A write log that records its streams and the writes it takes (upserts), answering them itself. */
class StreamsLog implements WriteLog {
  readonly seen: string[] = [];
  write(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>): Promise<unknown> | null {
    if (req.op !== 'upsert') return null;
    this.seen.push(`write ${meta.name}/${shard}`);
    return Promise.resolve({ logged: true });
  }
  operationId(opId: number): number {
    return opId + 100;
  }
  async createStreams(meta: CollectionMeta): Promise<void> {
    this.seen.push(`create ${meta.name}`);
  }
  async lastSeq(): Promise<number> {
    return 0;
  }
  async deleteStreams(meta: CollectionMeta): Promise<void> {
    this.seen.push(`delete ${meta.name}`);
  }
  setLog(): void {}
  async close(): Promise<void> {
    this.seen.push('close');
  }
}

describe('Engine point modes', () => {
  it('defaults to the local mode: no log-end view, operation ids as given', async () => {
    const engine = await started({});
    try {
      expect(engine.atLogEnd).toBeUndefined();
      expect(engine.operationId(3)).toBe(3);
    } finally {
      await engine.close();
    }
  });

  it("takes point calls through the mode it was built with, and its write log's streams with the collection", async () => {
    const log = new StreamsLog();
    const engine = await started({ points: loggedPoints(log) });
    const meta = await engine.createCollection('l', config(1)).then(() => engine.collection('l'));
    const upsert: ShardCall<'upsert'> = { op: 'upsert', opId: 1, wait: true, batch: { ids: [1], payloads: [null], vectors: {}, sparse: {} }, condition: { mode: 'upsert', updateFilter: null } };
    expect(await engine.call(meta, 0, upsert)).toEqual({ logged: true });
    // Reads go to the workers (which never saw the logged upsert).
    expect(await engine.call(meta, 0, { op: 'count', filter: null, exact: true })).toBe(0);
    expect(engine.operationId(3)).toBe(103);
    expect(await engine.deleteCollection('l')).toBe(true);
    await engine.close();
    expect(log.seen).toEqual(['create l', 'write l/0', 'delete l', 'close']);
  });
});
