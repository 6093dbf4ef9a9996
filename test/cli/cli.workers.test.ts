// The `quiver` binary against a real server: import (JSONL, CSV, --create, interruption and
// resume), export round trip, collections/info, and bad input with exit code and message.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuiverClient } from '../../src/client/index.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let dir: string;
let env: Record<string, string>;
let client: QuiverClient;

function writeJsonl(file: string, n: number, dim: number, seed: number, idBase = 0): void {
  const vs = randomVectors(n, dim, seed);
  writeFileSync(file, vs.map((vector, i) => JSON.stringify({ id: idBase + i, vector, payload: { i: idBase + i, tag: `t${i % 3}` } })).join('\n') + '\n');
}

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  dir = mkdtempSync(join(tmpdir(), 'quiver-cli-'));
  env = { QUIVER_URL: server.url };
  client = new QuiverClient({ url: server.url });
});

afterAll(async () => {
  await server?.stop();
  removeDir(server?.dataDir ?? '');
  removeDir(dir ?? '');
});

describe('quiver import / export', () => {
  it('imports JSONL with --create (size from the first vector), and exports the same points back', async () => {
    const file = join(dir, 'points.jsonl');
    writeJsonl(file, 500, 6, 1);
    const r = await runCli(['import', file, '--collection', 'jl', '--create', '--distance', 'Dot', '--batch-size', '64'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("created collection 'jl'");
    expect(r.stderr).toContain("imported 500 points into 'jl'");
    // Not a terminal: plain progress lines with rate and ETA.
    expect(r.stderr).toMatch(/import jl: 100\.0% 500 points, \d+ points\/s, ETA/);
    expect(existsSync(`${file}.quiver-import.json`)).toBe(false);
    const info = await client.getCollection('jl');
    expect(info.points_count).toBe(500);
    expect(info.config).toMatchObject({ params: { vectors: { size: 6, distance: 'Dot' } } });

    const out = join(dir, 'out.jsonl');
    const e = await runCli(['export', '--collection', 'jl', out, '--batch-size', '100'], env);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).toContain(`exported 500 points from 'jl' to ${out}`);
    const src = new Map(readFileSync(file, 'utf8').trim().split('\n').map((l) => { const p = JSON.parse(l); return [p.id, p]; }));
    const got = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(got).toHaveLength(500);
    for (const p of got) {
      const want = src.get(p.id);
      expect(p.payload).toEqual(want.payload);
      p.vector.forEach((x: number, k: number) => expect(x).toBeCloseTo(want.vector[k], 5));
    }

    // stdout when no FILE; the export re-imports into a new collection unchanged.
    const s = await runCli(['export', '-c', 'jl'], env);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout.trim().split('\n')).toHaveLength(500);
    writeFileSync(join(dir, 'again.ndjson'), s.stdout);
    const again = await runCli(['import', join(dir, 'again.ndjson'), '-c', 'jl2', '--create', '--distance', 'dot'], env);
    expect(again.code, again.stderr).toBe(0);
    expect((await client.count('jl2', { exact: true })).count).toBe(500);
  });

  it('imports CSV (JSON cells, integer and UUID ids) and exports CSV', async () => {
    const file = join(dir, 'points.csv');
    const uuid = '6a2d9c1e-3f4b-4c5d-8e9f-0a1b2c3d4e5f';
    writeFileSync(
      file,
      'id,vector,payload\n' +
        '1,"[0.1,0.2,0.3]","{""city"":""Berlin""}"\n' +
        `${uuid},"[0.4,0.5,0.6]","{""city"":""Paris, France""}"\n` +
        '3,"[0.7,0.8,0.9]",\n',
    );
    const r = await runCli(['import', file, '-c', 'csv', '--create'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("imported 3 points into 'csv'");
    const pts = await client.retrieve('csv', { ids: [1, uuid, 3], with_payload: true });
    expect(pts.map((p) => p.payload)).toEqual([{ city: 'Berlin' }, { city: 'Paris, France' }, {}]);

    const out = join(dir, 'out.csv');
    const e = await runCli(['export', '-c', 'csv', out], env);
    expect(e.code, e.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('id,vector,payload');
    expect(lines).toHaveLength(4);
    expect(lines.some((l) => l.startsWith(`${uuid},`) && l.includes('Paris, France'))).toBe(true);
    // What export wrote, import reads.
    const back = await runCli(['import', out, '-c', 'csv2', '--create'], env);
    expect(back.code, back.stderr).toBe(0);
    expect((await client.count('csv2', { exact: true })).count).toBe(3);
  });

  it('resumes an interrupted import after the last acknowledged batch', async () => {
    const file = join(dir, 'big.jsonl');
    writeJsonl(file, 3000, 16, 7);
    const state = `${file}.quiver-import.json`;
    const proc = spawnCli(['import', file, '-c', 'resume', '--create', '--batch-size', '20'], env);
    // Killed without warning once some batches are acknowledged.
    await new Promise<void>((res, rej) => {
      const t = setInterval(() => {
        if (existsSync(state) && JSON.parse(readFileSync(state, 'utf8')).points >= 200) {
          clearInterval(t);
          proc.kill('SIGKILL');
          res();
        }
        if (proc.exitCode !== null) {
          clearInterval(t);
          rej(new Error('the import finished before it could be interrupted'));
        }
      }, 10);
    });
    await new Promise((r) => proc.once('close', r));
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { points: number; line: number };
    expect(saved.line).toBe(saved.points + 1);
    expect(saved.points).toBeLessThan(3000);
    // Everything the state calls acknowledged is durable on the server.
    expect((await client.count('resume', { exact: true })).count).toBeGreaterThanOrEqual(saved.points);

    const r = await runCli(['import', file, '-c', 'resume', '--create', '--batch-size', '500'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`resuming at line ${saved.line} (${saved.points} points already imported)`);
    expect(r.stderr).not.toContain('created collection');
    expect(r.stderr).toContain("imported 3000 points into 'resume'");
    expect(existsSync(state)).toBe(false);
    expect((await client.count('resume', { exact: true })).count).toBe(3000);
  });

  it('skips a bad line, naming it, imports the rest, and says how many it skipped', async () => {
    const file = join(dir, 'bad.jsonl');
    const good = (id: number): string => JSON.stringify({ id, vector: [id, 1, 2] });
    // Line 3 is not JSON, line 5 not a point, line 6 a point the server refuses (2 dimensions, not 3).
    const lines = [good(1), good(2), '{"id": 3, "vector": [1, 2', good(4), '{"id": -1, "vector": [1, 2, 3]}', JSON.stringify({ id: 9, vector: [1, 2] }), good(10)];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCli(['import', file, '-c', 'badline', '--create', '--batch-size', '4'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${file}:3: not valid JSON \\(.*\\): skipped`));
    expect(r.stderr).toContain(`${file}:5: 'id' must be an unsigned integer or a UUID string: skipped`);
    // The server refused the batch of lines 1, 2, 4 and 6: narrowed down to line 6 alone.
    expect(r.stderr).toMatch(new RegExp(`${file}:6: the server refused the point \\(400: .*[Dd]imension.*\\): skipped`));
    expect(r.stderr).toContain("quiver: imported 4 points into 'badline'; skipped 3 bad lines (3, 5, 6), each named above");
    const ids = (await client.scroll('badline', { limit: 10 })).points.map((p) => p.id);
    expect(ids).toEqual([1, 2, 4, 10]);
    expect(existsSync(`${file}.quiver-import.json`)).toBe(false);
    // A clean file imports with exit 0.
    writeFileSync(file, `${good(11)}\n`);
    const clean = await runCli(['import', file, '-c', 'badline'], env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toContain("imported 1 points into 'badline'");
  });

  it('skips CSV rows it cannot read (a cell too many, a stray quote) and bad cells, naming their lines, and imports the rest', async () => {
    const file = join(dir, 'broken.csv');
    writeFileSync(file, 'id,vector\n1,"[1,2]"\n2,"[2,2]"\n3,"[3,2]",extra\n4,"[4,2"\n5,"[5,2]"x\n6,"[6,2]"\n');
    const r = await runCli(['import', file, '-c', 'brokencsv', '--create', '--batch-size', '1'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:4: 3 cells where the header names 2: skipped`);
    expect(r.stderr).toContain(`${file}:5: the vector cell is not valid JSON: skipped`);
    expect(r.stderr).toMatch(new RegExp(`${file}:6: .*[Qq]uote.*: skipped`));
    expect(r.stderr).toMatch(/quiver: imported \d points into 'brokencsv'; skipped \d bad lines \(4, 5, 6.*\), each named above/);
    // The rows before the trouble are in; every row not imported was named.
    const ids = (await client.scroll('brokencsv', { limit: 10 })).points.map((p) => p.id);
    expect(ids.slice(0, 2)).toEqual([1, 2]);
    const named = [...r.stderr.matchAll(new RegExp(`${file}:(\\d+):`, 'g'))].map((m) => Number(m[1]));
    for (let line = 2; line <= 7; line++) expect(ids.includes(line - 1) || named.includes(line), `line ${line}`).toBe(true);
  });

  it('refuses a state file of a file that changed before the resume point', async () => {
    const file = join(dir, 'changed.jsonl');
    const lines = [JSON.stringify({ id: 1, vector: [1, 2] }), JSON.stringify({ id: 2, vector: [1, 2] })];
    writeFileSync(file, `${lines.join('\n')}\n`);
    // The state an import interrupted after line 1 leaves (its format: src/cli/import.ts).
    const end = Buffer.byteLength(`${lines[0]}\n`);
    const state = { version: 1, file, collection: 'changed', offset: end, line: 2, points: 1, last_start: 0, last_sha256: createHash('sha256').update(`${lines[0]}\n`).digest('hex') };
    await client.createCollection('changed', { vectors: { size: 2, distance: 'Dot' } });
    writeFileSync(`${file}.quiver-import.json`, JSON.stringify(state));
    writeFileSync(file, `${JSON.stringify({ id: 7, vector: [3, 4] })}\n${JSON.stringify({ id: 8, vector: [3, 4] })}\n`);
    const r = await runCli(['import', file, '-c', 'changed'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`quiver: ${file} changed before line 2, where the interrupted import stopped; pass --restart`);
    const restart = await runCli(['import', file, '-c', 'changed', '--restart'], env);
    expect(restart.code, restart.stderr).toBe(0);
    expect(restart.stderr).toContain("imported 2 points into 'changed'");
  });

  it('answers bad input with exit code 1 and a message', async () => {
    const missing = await runCli(['import', join(dir, 'nope.jsonl'), '-c', 'x'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`quiver: ${join(dir, 'nope.jsonl')}: no such file\n`);

    const file = join(dir, 'one.jsonl');
    writeJsonl(file, 3, 4, 3);
    const unknown = await runCli(['import', file, '-c', 'no_such'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("quiver: collection 'no_such' does not exist; pass --create");

    const exp = await runCli(['export', '-c', 'no_such', join(dir, 'never.jsonl')], env);
    expect(exp.code).toBe(1);
    expect(exp.stderr).toMatch(/quiver: the server answered 404: .*no_such/);
    expect(existsSync(join(dir, 'never.jsonl'))).toBe(false);

    const info = await runCli(['info', 'no_such'], env);
    expect(info.code).toBe(1);
    expect(info.stderr).toMatch(/quiver: the server answered 404: .*no_such/);

    const noColl = await runCli(['import', file], env);
    expect(noColl.code).toBe(1);
    expect(noColl.stderr).toContain("required option '-c, --collection <name>' not specified");

    const batch = await runCli(['import', file, '-c', 'x', '--batch-size', 'ten'], env);
    expect(batch.code).toBe(1);
    expect(batch.stderr).toContain('--batch-size must be a non-negative integer');

    const dist = await runCli(['import', file, '-c', 'x', '--create', '--distance', 'Hamming'], env);
    expect(dist.code).toBe(1);
    expect(dist.stderr).toContain('--distance must be one of Cosine, Dot, Euclid, Manhattan');

    const csv = join(dir, 'nohead.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const head = await runCli(['import', csv, '-c', 'x', '--create'], env);
    expect(head.code).toBe(1);
    expect(head.stderr).toContain(`${csv}:1: the CSV header must name the columns id and vector`);

    // A port nobody listens on: one just released.
    const free = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => res(port));
      });
    });
    const down = await runCli(['collections'], { QUIVER_URL: `http://127.0.0.1:${free}` });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`quiver: cannot reach http://127.0.0.1:${free} (ECONNREFUSED)\n`);
  });
});

describe('quiver collections / info', () => {
  it('lists collections and shows one (through --url as well as QUIVER_URL)', async () => {
    await client.createCollection('listed', { vectors: { size: 3, distance: 'Euclid' } });
    const list = await runCli(['--url', server.url, 'collections']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim().split('\n')).toContain('listed');
    const info = await runCli(['info', 'listed'], env);
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ points_count: 0, config: { params: { vectors: { size: 3, distance: 'Euclid' } } } });
  });

  it('has --help on every command', async () => {
    const cmds = [[], ['serve'], ['import'], ['export'], ['backup'], ['restore'], ['collections'], ['info'], ['login'], ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'update'], ['keys', 'delete']];
    const results = await Promise.all(cmds.map((cmd) => runCli([...cmd, '--help'])));
    results.forEach((r, i) => {
      expect(r.code, cmds[i]!.join(' ')).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: quiver ${cmds[i]!.join(' ')}`));
    });
  });
});
