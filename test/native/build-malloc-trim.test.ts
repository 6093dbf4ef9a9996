// The malloc_trim addon's postinstall build never fails an install (skipped on request, a failing
// compile ends in one line and exit 0, leaving no addon), and where it builds (a few seconds),
// its trim() answers and src/shared/malloc-trim.ts loads it from the folder it was built in, where
// fixMmapThreshold sets glibc's mmap threshold.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'src', 'native', 'build-malloc-trim.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-malloc-trim-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

const glibc = process.platform === 'linux' && (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;

describe('src/native/build-malloc-trim.mjs', () => {
  it('QUIVER_SKIP_NATIVE_BUILD=1: one line, exit 0, nothing built', () => {
    const out = join(tmp, 'skipped');
    const r = run({ QUIVER_SKIP_NATIVE_BUILD: '1', QUIVER_MALLOC_TRIM_DIR: out });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('quiver: native malloc_trim build skipped (QUIVER_SKIP_NATIVE_BUILD=1)\n');
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(!glibc)('a failing compile: one line naming the log, exit 0, no addon', () => {
    const out = join(tmp, 'failed');
    const gyp = join(tmp, 'failing-node-gyp.js');
    writeFileSync(gyp, "console.error('gyp ERR! simulated failure'); process.exit(1);\n");
    const r = run({ QUIVER_MALLOC_TRIM_DIR: out, npm_config_node_gyp: gyp });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`quiver: native malloc_trim build skipped (node-gyp exited 1; see ${join(out, 'build.log')})\n`);
    expect(readFileSync(join(out, 'build.log'), 'utf8')).toContain('gyp ERR! simulated failure');
    expect(existsSync(join(out, 'build', 'Release', 'malloc_trim.node'))).toBe(false);
  });

  it.skipIf(!glibc)('builds an addon whose trim() answers, and the loader finds it there', () => {
    const out = join(tmp, 'built');
    const r = run({ QUIVER_MALLOC_TRIM_DIR: out });
    expect(r.stderr).toBe('quiver: native malloc_trim built\n');
    // The loader reads QUIVER_MALLOC_TRIM_DIR once, at import: a child process with it set.
    const loader = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'shared', 'malloc-trim.js');
    // fixMmapThreshold: set (true) with the addon, nothing (false) without.
    const probe = `import(${JSON.stringify(loader)}).then((m) => console.log(typeof m.mallocTrim, typeof m.mallocTrim?.(), m.fixMmapThreshold()))`;
    const withAddon = spawnSync(process.execPath, ['-e', probe], { env: { ...process.env, QUIVER_MALLOC_TRIM_DIR: out }, encoding: 'utf8' });
    expect(withAddon.stdout.trim()).toBe('function boolean true');
    const without = spawnSync(process.execPath, ['-e', probe], { env: { ...process.env, QUIVER_MALLOC_TRIM_DIR: join(tmp, 'skipped') }, encoding: 'utf8' });
    expect(without.stdout.trim()).toBe('object undefined false');
    // A threshold out of glibc's range is refused, not passed on.
    const addon = join(out, 'build', 'Release', 'malloc_trim.node');
    const range = spawnSync(process.execPath, ['-e', `try { require(${JSON.stringify(addon)}).mmapThreshold(64 * 1024 * 1024) } catch (e) { console.log(e.name, e.message) }`], { encoding: 'utf8' });
    expect(range.stdout.trim()).toBe('RangeError mmapThreshold takes a byte count from 0 to 32 MiB');
  });
});
