// `quiver backup` of a running server under write load, `quiver restore` into a fresh dir, and a
// server started on it that holds every point acknowledged before the backup began; then
// restore's refusals. And `quiver keys` / `quiver login` with auth on.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QuiverClient } from '../../src/client/index.js';
import { ADMIN_PASSWORD, createAdmin, login, setEnabled } from '../helpers/auth.js';
import { runCli } from '../helpers/cli.js';
import { randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dirs: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.forEach(removeDir);
});

describe('quiver backup / restore', () => {
  it('backs up a server under write load; the restored copy has every point acknowledged before the backup', async () => {
    const server = await startServer({ shards: 2 });
    servers.push(server);
    dirs.push(server.dataDir);
    const client = new QuiverClient({ url: server.url });
    await client.createCollection('live', { vectors: { size: 8, distance: 'Cosine' } });
    await client.createIndex('live', { field_name: 'n', field_schema: 'integer' });
    const acked: number[] = [];
    let next = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const ids = Array.from({ length: 50 }, () => next++);
        const vs = randomVectors(ids.length, 8, ids[0]!);
        await client.upsert('live', { points: ids.map((id, i) => ({ id, vector: vs[i]!, payload: { n: id } })) }, true);
        acked.push(...ids);
      }
    })();
    while (acked.length < 1000) await new Promise((r) => setTimeout(r, 20));
    const before = [...acked];
    const work = tempDataDir();
    dirs.push(work);
    const file = join(work, 'quiver.backup');
    const b = await runCli(['backup', server.dataDir, file]);
    const afterBackup = acked.length;
    writing = false;
    await writer;
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/backed up .* \(\d+ bytes, \d+ ms\); HNSW graphs are rebuilt at the first start after a restore/);
    // The writes went on while the copy was made.
    expect(afterBackup).toBeGreaterThan(before.length);

    const restored = join(work, 'restored');
    const r = await runCli(['restore', file, restored]);
    expect(r.code, r.stderr).toBe(0);
    const copy = await startServer({ dataDir: restored, shards: 2 });
    servers.push(copy);
    const c2 = new QuiverClient({ url: copy.url });
    const found = await c2.retrieve('live', { ids: before, with_payload: true });
    expect(found).toHaveLength(before.length);
    expect(found.every((p) => (p.payload as { n: number }).n === p.id)).toBe(true);
    const count = (await c2.count('live', { exact: true })).count;
    expect(count).toBeGreaterThanOrEqual(before.length);
    expect(count).toBeLessThanOrEqual(acked.length);
    // Indexes and HNSW search work on the restored data (the graphs were rebuilt at start).
    expect(Object.keys((await c2.getCollection('live')).payload_schema)).toEqual(['n']);
    const probe = randomVectors(1, 8, 0)[0]!;
    const hit = await c2.query('live', { query: probe, limit: 1 });
    expect(hit.points[0]?.id).toBe(0);
  });

  it('restore refuses a missing file, a file that is no backup, a non-empty dir without --force, and a dir in use', async () => {
    const work = tempDataDir();
    dirs.push(work);
    const missing = await runCli(['restore', join(work, 'nope'), join(work, 'd1')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`quiver: ${join(work, 'nope')}: no such file\n`);

    const junk = join(work, 'junk.backup');
    writeFileSync(junk, 'not lmdb at all '.repeat(1000));
    const bad = await runCli(['restore', junk, join(work, 'd2')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`quiver: ${junk} is not a Quiver backup (not an LMDB file)\n`);
    expect(existsSync(join(work, 'd2'))).toBe(false);

    const noData = await runCli(['backup', join(work, 'empty'), join(work, 'x.backup')]);
    expect(noData.code).toBe(1);
    expect(noData.stderr).toBe(`quiver: ${join(work, 'empty')} is not a Quiver data dir (no quiver.mdb in it)\n`);

    // A real backup of a small server, restored over a non-empty dir.
    const server = await startServer({ shards: 1 });
    servers.push(server);
    dirs.push(server.dataDir);
    const client = new QuiverClient({ url: server.url });
    await client.createCollection('small', { vectors: { size: 2, distance: 'Dot' } });
    await client.upsert('small', { points: [{ id: 1, vector: [1, 2] }] });
    const file = join(work, 'small.backup');
    expect((await runCli(['backup', server.dataDir, file])).code).toBe(0);

    const full = join(work, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'x');
    const refused = await runCli(['restore', file, full]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`quiver: ${full} is not empty; pass --force to replace its contents\n`);
    expect(existsSync(join(full, 'keep.txt'))).toBe(true);

    const inUse = await runCli(['restore', file, server.dataDir, '--force']);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toBe(`quiver: ${server.dataDir} is in use by a running Quiver server (pid ${server.proc.pid}); stop it first\n`);

    // --force replaces a Quiver data dir only, never an arbitrary folder.
    const notQuiver = await runCli(['restore', file, full, '--force']);
    expect(notQuiver.code).toBe(1);
    expect(notQuiver.stderr).toBe(`quiver: ${full} is not empty and holds no quiver.mdb: --force only replaces a Quiver data dir\n`);
    expect(existsSync(join(full, 'keep.txt'))).toBe(true);

    const old = join(work, 'old');
    expect((await runCli(['restore', file, old])).code).toBe(0);
    mkdirSync(join(old, 'hnsw'));
    writeFileSync(join(old, 'hnsw', 'stale.bin'), 'graph of other data');
    writeFileSync(join(old, 'notes.txt'), 'x');
    const forced = await runCli(['restore', file, old, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(old, 'hnsw', 'stale.bin'))).toBe(false);
    expect(existsSync(join(old, 'notes.txt'))).toBe(true);
    const copy = await startServer({ dataDir: old, shards: 1 });
    servers.push(copy);
    expect((await new QuiverClient({ url: copy.url }).getPoint('small', 1)).id).toBe(1);
  });
});

describe('quiver keys / login with auth on', () => {
  it('creates, lists and deletes API keys with an admin credential', async () => {
    const server = await startServer({ shards: 1 });
    servers.push(server);
    dirs.push(server.dataDir);
    await createAdmin(server.url);
    await setEnabled(server.url, await login(server.url), true);
    const env = { QUIVER_URL: server.url };

    const badLogin = await runCli(['login', '--password', 'wrong-Password-1'], env);
    expect(badLogin.code).toBe(1);
    expect(badLogin.stderr).toMatch(/^quiver: the server answered 401: /);
    const lg = await runCli(['login'], { ...env, QUIVER_ADMIN_PASSWORD: ADMIN_PASSWORD });
    expect(lg.code, lg.stderr).toBe(0);
    const jwt = lg.stdout.trim();
    expect(jwt.split('.')).toHaveLength(3);

    const anonymous = await runCli(['keys', 'list'], env);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/^quiver: the server answered 401: /);

    const admin = { ...env, QUIVER_API_KEY: jwt };
    const created = await runCli(['keys', 'create', '--name', 'ingest', '--permission', 'read,write', '--description', 'for the importer'], admin);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: number; api_key: string; permission: string; name: string };
    expect(key).toMatchObject({ name: 'ingest', permission: 'read,write', description: 'for the importer', will_expire: false });

    const badPerm = await runCli(['keys', 'create', '--name', 'x', '--permission', 'root'], admin);
    expect(badPerm.code).toBe(1);
    expect(badPerm.stderr).toMatch(/^quiver: the server answered 400: /);

    // A scoped key: only the collections named, narrowed later by `keys update`.
    const scoped = await runCli(['keys', 'create', '--name', 'docs-only', '--scope', '[{"collection": "docs*", "permission": "read,write"}]'], admin);
    expect(scoped.code, scoped.stderr).toBe(0);
    const sk = JSON.parse(scoped.stdout) as { id: number; api_key: string; permission: string; scope: unknown };
    expect(sk).toMatchObject({ permission: '', scope: [{ collection: 'docs*', permission: 'read,write' }] });
    const narrowed = await runCli(['keys', 'update', String(sk.id), '--scope', '[{"collection": "docs", "permission": "read"}]'], admin);
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect(JSON.parse(narrowed.stdout)).toMatchObject({ id: sk.id, scope: [{ collection: 'docs', permission: 'read' }] });
    const badScope = await runCli(['keys', 'update', String(sk.id), '--scope', '{"collection": "docs"}'], admin);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain('--scope must be a list of {collection, permission, filter?}, or null');
    const refused = await runCli(['keys', 'update', String(sk.id), '--scope', '[{"collection": "docs", "permission": "admin"}]'], admin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("quiver: the server answered 400: scope[0].permission: admin is not given per collection; give it in the key's own permission\n");
    expect((await runCli(['keys', 'delete', String(sk.id)], admin)).code).toBe(0);

    const list = await runCli(['keys', 'list'], admin);
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout) as { id: number; name: string }[];
    expect(listed.map((k) => k.name)).toEqual(['ingest']);
    expect(list.stdout).not.toContain(key.api_key);

    // The new key works for data (--api-key flag), and a read/write key cannot manage keys.
    const data = await runCli(['--api-key', key.api_key, 'collections'], env);
    expect(data.code, data.stderr).toBe(0);
    const noAdmin = await runCli(['--api-key', key.api_key, 'keys', 'list'], env);
    expect(noAdmin.code).toBe(1);
    expect(noAdmin.stderr).toMatch(/^quiver: the server answered 403: /);

    const del = await runCli(['keys', 'delete', String(key.id)], admin);
    expect(del.code, del.stderr).toBe(0);
    const gone = await runCli(['--api-key', key.api_key, 'collections'], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^quiver: the server answered 401: /);
    const again = await runCli(['keys', 'delete', String(key.id)], admin);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^quiver: the server answered 404: /);
    const badId = await runCli(['keys', 'delete', 'abc'], admin);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain('id must be a non-negative integer');
  });
});
