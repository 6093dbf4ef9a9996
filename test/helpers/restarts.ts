// Restart tests on the real server: servers over data dirs that outlive them (each stopped and its
// dir removed after the file), the per-collection load record of the start-up log, and an ingest
// killed mid-way.

import type { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll } from 'vitest';
import { removeDir, startServer, tempDataDir, type TestServer } from './server.js';

/** Servers of 2 workers over data dirs made here; afterAll kills what is left and removes the dirs. */
export function restarts(): { start(dataDir: string, env?: Record<string, string>, waitReady?: boolean): Promise<TestServer>; newDir(): string } {
  const running: TestServer[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of running) await s.stop('SIGKILL');
    for (const d of dirs) removeDir(d);
  });
  return {
    async start(dataDir, env = {}, waitReady = true) {
      const s = await startServer({ dataDir, shards: 2, waitReady, env });
      running.push(s);
      return s;
    },
    newDir() {
      const d = tempDataDir();
      dirs.push(d);
      return d;
    },
  };
}

/** Every JSON line the server logged. */
export function records(s: TestServer): Record<string, unknown>[] {
  return s.logs.flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** The start-up log's 'collection loaded' record of `collection` (graphs loaded and rebuilt, writes replayed). */
export const loaded = (s: TestServer, collection: string): Record<string, unknown> | undefined => records(s).find((r) => r.msg === 'collection loaded' && r.collection === collection);

/**
 * Mean recall@10 of the default search (with `params`) against exact search on the same server:
 * one ground-truth method, whatever the graph is built over.
 */
export async function recallAgainstExact(client: QdrantClient, name: string, queries: number[][], params: { hnsw_ef?: number } = {}): Promise<number> {
  let hit = 0;
  for (const q of queries) {
    const truth = (await client.query(name, { query: q, limit: 10, params: { exact: true } })).points.map((p) => p.id);
    const got = new Set((await client.query(name, { query: q, limit: 10, params })).points.map((p) => p.id));
    hit += truth.filter((id) => got.has(id)).length;
  }
  return hit / (queries.length * 10);
}

/**
 * Four writers at once, two waiting for the flush (wait=true) and two not, each sending batches of
 * 50 points; the server is killed (kill -9) once `killAfter` wait=true batches are acknowledged.
 * Answers the ids acknowledged with wait=true: every one must be back after the restart.
 */
export async function killDuringIngest(server: TestServer, client: QdrantClient, collection: string, rows: number[][], base: number, killAfter = 30): Promise<number[]> {
  const acked: number[] = [];
  let ackedBatches = 0;
  let killed: Promise<number | null> | null = null;
  const writer = async (w: number): Promise<void> => {
    for (let b = w; b * 50 < rows.length; b += 4) {
      const ids = Array.from({ length: 50 }, (_, j) => base + b * 50 + j).filter((id) => id - base < rows.length);
      const wait = w % 2 === 0;
      try {
        await client.upsert(collection, { wait, points: ids.map((id) => ({ id, vector: rows[id - base]!, payload: { i: id, w } })) });
      } catch {
        return; // the server is gone
      }
      if (wait) {
        acked.push(...ids);
        if (++ackedBatches === killAfter) killed = server.stop('SIGKILL');
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(writer));
  if (killed === null) throw new Error(`the ingest ended before ${killAfter} wait=true batches were acknowledged: nothing was killed`);
  await killed;
  return acked;
}
