// One server per data dir: a second server on a dir in use refuses to start, naming the dir and
// the first server's pid; a server killed with SIGKILL leaves nothing that blocks the next start.

import { cpSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, tempDataDir } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('data dir lock', () => {
  it('refuses a second server on a data dir in use, and frees the dir on kill -9', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const first = await startServer({ dataDir, shards: 1, waitReady: false });
    await expect(startServer({ dataDir, shards: 1, waitReady: false })).rejects.toThrow(
      `quiver: data dir ${realpathSync(dataDir)} is in use by another Quiver server (pid ${first.proc.pid}); stop it or choose another SERVICE_DATA_DIR`,
    );
    // The refused server changed nothing: the first one still serves.
    expect((await call(first.url, 'GET', '/')).status).toBe(200);

    expect(await first.stop('SIGKILL')).toBe(null);
    const next = await startServer({ dataDir, shards: 1 });
    expect((await call(next.url, 'GET', '/readyz')).status).toBe(200);
    // A clean stop releases it too.
    expect(await next.stop()).toBe(0);
    const third = await startServer({ dataDir, shards: 1 });
    expect(await third.stop()).toBe(0);
  });

  it('says how to build when npm start finds no build', () => {
    // npm start's prestart check, in a copy of the project without dist/.
    const root = mkdtempSync(join(tmpdir(), 'quiver-nobuild-'));
    dirs.push(root);
    cpSync(join(import.meta.dirname, '..', '..', 'config'), join(root, 'config'), { recursive: true });
    const r = spawnSync(process.execPath, [join(root, 'config', 'check-build.mjs')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('quiver: no build in dist/; run `npm run build` (or `npm install`, which builds), then `npm start`\n');
  });
});
