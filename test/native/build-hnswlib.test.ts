// The postinstall build script never fails an install: skipped on request, and a failing
// compile ends in one line and exit code 0, leaving no build record for the loader to trust.
// (The real compile takes ~30 s, so the suite checks its result instead: the loader tests.)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCpuFlags } from '../../src/shared/cpu.js';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'src', 'native', 'build-hnswlib.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-native-build-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('src/native/build-hnswlib.mjs', () => {
  it('QUIVER_SKIP_NATIVE_BUILD=1: one line, exit 0, nothing built', () => {
    const out = join(tmp, 'skipped');
    const r = run({ QUIVER_SKIP_NATIVE_BUILD: '1', QUIVER_NATIVE_DIR: out });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('quiver: native hnswlib build skipped (QUIVER_SKIP_NATIVE_BUILD=1); the portable npm build will be used\n');
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(!['avx2', 'fma', 'bmi2', 'movbe'].every((f) => readCpuFlags()?.has(f)))('a failing compile: one line naming the log, exit 0, no build record', () => {
    const out = join(tmp, 'failed');
    const gyp = join(tmp, 'failing-node-gyp.js');
    writeFileSync(gyp, "console.error('gyp ERR! simulated failure'); process.exit(1);\n");
    const r = run({ QUIVER_NATIVE_DIR: out, npm_config_node_gyp: gyp });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`quiver: native hnswlib build skipped (node-gyp exited 1; see ${join(out, 'build.log')}); the portable npm build will be used\n`);
    expect(readFileSync(join(out, 'build.log'), 'utf8')).toContain('gyp ERR! simulated failure');
    expect(existsSync(join(out, 'build-info.json'))).toBe(false);
  });
});
