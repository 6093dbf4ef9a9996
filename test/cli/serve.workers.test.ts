// `quiver serve`: the server of `npm start`, with flags that win over SERVICE_* variables.

import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { call, removeDir, tempDataDir } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('quiver serve', () => {
  it('runs the server with flags over SERVICE_* variables, and stops on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const envDir = tempDataDir();
    dirs.push(dataDir, envDir);
    const proc = spawnCli(['serve', '--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--shards', '1', '--host', '127.0.0.1'], {
      SERVICE_DATA_DIR: envDir,
      SERVICE_SHARDS: '3',
      SERVICE_REST_PORT: '1',
    });
    const rec = await new Promise<{ rest_port: number; workers: number; data_dir: string }>((res, rej) => {
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        const r = JSON.parse(line) as { msg?: string; rest_port: number; workers: number; data_dir: string };
        if (r.msg === 'REST listening') res(r);
      });
      proc.once('exit', (code) => rej(new Error(`serve exited with ${code}`)));
    });
    expect(rec.workers).toBe(1);
    expect(rec.data_dir).toBe(dataDir);
    expect((await call(`http://127.0.0.1:${rec.rest_port}`, 'GET', '/')).status).toBe(200);
    proc.kill('SIGTERM');
    expect(await new Promise((r) => proc.once('exit', r))).toBe(0);
  });

  it('names the flag of a bad value and exits 2', async () => {
    const r = await runCli(['serve', '--log-level', 'loud', '--data-dir', tempDataDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^quiver: invalid configuration 'log_level' \(--log-level\): /);
    const port = await runCli(['serve', '--rest-port', '70000', '--data-dir', tempDataDir()]);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/^quiver: invalid configuration 'rest_port' \(--rest-port\): /);
    const notInt = await runCli(['serve', '--shards', 'many']);
    expect(notInt.code).toBe(1);
    expect(notInt.stderr).toContain('--shards must be a non-negative integer');
  });
});
