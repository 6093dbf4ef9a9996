// kill -9 in the middle of a shard restore (restoreShard, src/workers/cluster/shard-snapshot.ts)
// leaves either the old shard or the restored one, never a mix: a child process (the compiled
// ShardHost from dist/, as a worker runs it) restores a snapshot of 10,000 points over a shard of
// 300 others and is killed at spread-out moments of its restore; each time the data dir, opened
// again, holds exactly the old records with the old applied_seq or exactly the snapshot's records
// with its seq, and loads (graphs read or rebuilt) with that many points.

import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, shardRange, storedPayload, type QuiverDb, type StoredPoint } from '../../../src/shared/db.js';
import { appliedSeqKey } from '../../../src/shared/log-entry.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import type { CollectionMeta, PointId } from '../../../src/shared/types.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { batch, metaOf } from '../shard/helpers.js';

const DIST = resolve(import.meta.dirname, '..', '..', '..', 'dist', 'src');
const meta: CollectionMeta = { ...metaOf(16, 'Cosine'), config: { ...metaOf(16, 'Cosine').config, payload_schema: { color: { type: 'keyword' } } } };
const at = { collection: meta.id, shard: 0 } as const;
const OLD_SEQ = 17;
const NEW_SEQ = 4242;

/** The restore as a worker runs it, in its own process so that it can be killed -9. */
const CHILD = `
import { join } from 'node:path';
const { openDb } = await import(process.env.QV_DIST + '/shared/db.js');
const { ShardHost } = await import(process.env.QV_DIST + '/workers/shard-host.js');
const dir = process.env.QV_DIR;
const db = openDb(dir);
const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
host.loadAll();
process.stdout.write('restoring\\n');
const t0 = performance.now();
await host.handle({ op: 'restoreShard', collection: ${meta.id}, shard: 0, file: process.env.QV_FILE });
process.stdout.write('restored ' + Math.round(performance.now() - t0) + '\\n');
await db.root.close();
process.exit(0);
`;

function records(db: QuiverDb): Map<PointId, StoredPoint> {
  const { start, end } = shardRange(meta.id, 0);
  const out = new Map<PointId, StoredPoint>();
  for (const { key, value } of db.points.getRange({ start, end })) out.set(key[2], value);
  return out;
}

let opId = 0;
async function upsert(host: ShardHost, ids: number[], seed: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    const part = ids.slice(i, i + 1000);
    const vectors = part.map((id) => Array.from({ length: 16 }, (_, d) => Math.sin(id * (d + 1) + seed)));
    const b = batch(part, vectors);
    b.payloads = part.map((id) => ({ color: `c${id % 13}`, n: id + seed }));
    await host.handle({ op: 'upsert', ...at, opId: ++opId, wait: true, batch: b, condition: UNCONDITIONAL });
  }
}

/** A data dir holding the collection, `ids` written with `seed`, applied_seq `seq`; closed. */
async function dataDir(ids: number[], seed: number, seq: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-restore-crash-'));
  const db = openDb(dir);
  db.catalog.putSync(meta.name, meta);
  const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  host.loadAll();
  await upsert(host, ids, seed);
  await db.meta.put(appliedSeqKey(meta.id, 0), seq);
  await host.handle({ op: 'saveIndexes' });
  await db.root.close();
  return dir;
}

/** Runs the restore on `dir`; kills it -9 `killAfterMs` after it starts (null: lets it finish). */
async function restoreIn(dir: string, file: string, killAfterMs: number | null): Promise<{ finished: boolean; restoreMs: number | null }> {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { env: { ...process.env, QV_DIST: DIST, QV_DIR: dir, QV_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  const errors: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => errors.push(l));
  let restoreMs: number | null = null;
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (line === 'restoring' && killAfterMs !== null) setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    const m = /^restored (\d+)$/.exec(line);
    if (m !== null) restoreMs = Number(m[1]);
  });
  await exited;
  if (proc.signalCode === null && proc.exitCode !== 0) throw new Error(`restore child failed (${proc.exitCode}):\n${errors.join('\n')}`);
  return { finished: proc.signalCode === null, restoreMs };
}

describe('kill -9 during a shard restore', () => {
  const dirs: string[] = [];
  let template: string;
  let file: string;
  let oldRecords: Map<PointId, StoredPoint>;
  let newRecords: Map<PointId, StoredPoint>;

  beforeAll(async () => {
    const source = await dataDir(Array.from({ length: 10_000 }, (_, i) => i), 1, NEW_SEQ);
    dirs.push(source);
    const db = openDb(source);
    const host = new ShardHost(0, 1, db, join(source, 'hnsw'));
    host.loadAll();
    file = join(source, 'snap.qvsnap');
    expect(await host.handle({ op: 'snapshotShard', ...at, file })).toMatchObject({ seq: NEW_SEQ, points: 10_000 });
    newRecords = records(db);
    await db.root.close();
    // The old shard: other ids, and ids the snapshot holds too, with other content.
    template = await dataDir([...Array.from({ length: 150 }, (_, i) => i * 2), ...Array.from({ length: 150 }, (_, i) => 50_000 + i)], 9, OLD_SEQ);
    dirs.push(template);
    const t = openDb(template);
    oldRecords = records(t);
    await t.root.close();
    expect(oldRecords.size).toBe(300);
  }, 180_000);

  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Which whole state the dir holds ('old' or 'new'), checked by loading the shard too; throws on a mix. */
  async function stateOf(dir: string): Promise<'old' | 'new'> {
    const db = openDb(dir);
    try {
      const seq = db.meta.get(appliedSeqKey(meta.id, 0));
      const got = records(db);
      let state: 'old' | 'new';
      if (seq === OLD_SEQ) {
        expect(got).toEqual(oldRecords);
        state = 'old';
      } else {
        expect(seq).toBe(NEW_SEQ);
        expect(got).toEqual(newRecords);
        state = 'new';
      }
      const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
      host.loadAll();
      expect(await host.handle({ op: 'count', ...at, filter: null, exact: true })).toBe(got.size);
      expect(await host.handle({ op: 'count', ...at, filter: { must: [{ key: 'color', match: { value: 'c3' } }] }, exact: true })).toBe([...got.values()].filter((r) => (storedPayload(r.p) as { color?: string } | null)?.color === 'c3').length);
      return state;
    } finally {
      await db.root.close();
    }
  }

  it('leaves the old shard or the restored one, never a mix', { timeout: 300_000 }, async () => {
    // Whole restores first: how long one takes here (the quicker of two: the first runs cold), so
    // that the kills below land inside one.
    let span = Infinity;
    for (let i = 0; i < 2; i++) {
      const whole = mkdtempSync(join(tmpdir(), 'quiver-restore-crash-'));
      dirs.push(whole);
      cpSync(template, whole, { recursive: true });
      const full = await restoreIn(whole, file, null);
      expect(full.finished).toBe(true);
      expect(await stateOf(whole)).toBe('new');
      span = Math.min(span, Math.max(20, full.restoreMs!));
    }

    const outcomes: string[] = [];
    let killedMidway = 0;
    // Kills later and later until one lands after the commit (the restored state) or the restore
    // finishes first: the timer starts when the child says it begins, so the moments drift.
    let killedNew = 0;
    for (let fraction = 0; fraction <= 2 && killedNew < 2; fraction = Math.round((fraction + 0.1) * 10) / 10) {
      const dir = mkdtempSync(join(tmpdir(), 'quiver-restore-crash-'));
      dirs.push(dir);
      cpSync(template, dir, { recursive: true });
      const run = await restoreIn(dir, file, Math.round(fraction * span));
      const state = await stateOf(dir);
      if (!run.finished) killedMidway++;
      if (!run.finished && state === 'new') killedNew++;
      outcomes.push(`${fraction}: ${run.finished ? 'finished' : 'killed'}, ${state}`);
      rmSync(dir, { recursive: true, force: true });
      if (run.finished) break;
    }
    // Printed for the record: which kills found which state.
    console.log(`restore of ${newRecords.size} points took ${span} ms; kill -9 at fractions of it -> ${outcomes.join('; ')}`);
    expect(killedMidway).toBeGreaterThan(0);
  });
});
