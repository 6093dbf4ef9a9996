// Start-ups that cannot serve, through the real built server: a REST or gRPC port another process
// listens on, a data dir that is a file, or one this process may not write; each stops with one
// line on stderr naming the cause and the setting, exit 2, and leaves nothing behind (a data dir
// it would have created is not there, an empty one stays empty). A server that starts on the
// same dir afterwards serves.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY, removeDir, startServer, tempDataDir } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Runs the server to its exit: its code and what it wrote to stderr. */
function run(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [ENTRY], {
      env: { ...process.env, SERVICE_HOST: '127.0.0.1', SERVICE_REST_PORT: '0', SERVICE_GRPC_PORT: '0', SERVICE_CLUSTER_PORT: '0', SERVICE_SHARDS: '1', SERVICE_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A port another process listens on. */
async function taken(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0 }, r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

describe('start-up failures', () => {
  it('a REST or gRPC port in use: one line naming it, exit 2, and no data dir left behind', async () => {
    const { port, server } = await taken();
    try {
      const parent = tempDataDir();
      dirs.push(parent);
      const dataDir = join(parent, 'new');
      const rest = await run({ SERVICE_DATA_DIR: dataDir, SERVICE_REST_PORT: String(port) });
      expect(rest.code).toBe(2);
      expect(rest.stderr).toBe(`quiver: cannot listen on 127.0.0.1:${port} for REST (SERVICE_REST_PORT): the address is in use (another process listens on it)\n`);
      expect(existsSync(dataDir)).toBe(false);
      const empty = tempDataDir();
      dirs.push(empty);
      const grpc = await run({ SERVICE_DATA_DIR: empty, SERVICE_GRPC_PORT: String(port) });
      expect(grpc.code).toBe(2);
      expect(grpc.stderr).toBe(`quiver: cannot listen on 127.0.0.1:${port} for gRPC (SERVICE_GRPC_PORT): the address is in use (another process listens on it)\n`);
      expect(readdirSync(empty)).toEqual([]);
      // The same dir serves once the port is free to choose.
      const ok = await startServer({ dataDir: empty, shards: 1 });
      expect(await ok.stop()).toBe(0);
    } finally {
      server.close();
    }
  });

  it('a data dir that is a file, or under one: one line naming it, exit 2, the file untouched', async () => {
    const parent = tempDataDir();
    dirs.push(parent);
    const file = join(parent, 'file');
    writeFileSync(file, 'not a dir');
    const r = await run({ SERVICE_DATA_DIR: file });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`quiver: data dir ${file} is not a directory (SERVICE_DATA_DIR)\n`);
    const under = await run({ SERVICE_DATA_DIR: join(file, 'data') });
    expect(under.code).toBe(2);
    expect(under.stderr).toBe(`quiver: data dir ${join(file, 'data')} cannot be created: ${file} is not a directory (SERVICE_DATA_DIR)\n`);
    expect(readdirSync(parent)).toEqual(['file']);
  });

  // Root may read and write any dir whatever its mode: only another user can be refused one.
  it.skipIf(process.getuid?.() === 0)('a data dir this process may not write: one line naming it, exit 2', async () => {
    const parent = tempDataDir();
    dirs.push(parent);
    const ro = join(parent, 'ro');
    mkdirSync(ro, { mode: 0o500 });
    const r = await run({ SERVICE_DATA_DIR: ro });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`quiver: data dir ${ro} is not readable and writable by this process (SERVICE_DATA_DIR)\n`);
  });
});
