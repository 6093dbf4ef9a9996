// The float-text addon's postinstall build never fails an install (skipped on request, a failing
// compile ends in one line and exit 0, leaving no addon); where it builds, float.ts loads it from
// the folder it was built in and writes vectors' JSON with it, the same text as without it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'src', 'native', 'build-float-text.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-float-text-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

/** What float.ts (built, in dist/) reports and writes in a child with QUIVER_FLOAT_TEXT_DIR=dir. */
function probe(dir: string): string {
  const loader = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'shared', 'float.js');
  const script = `import(${JSON.stringify(loader)}).then((m) => console.log(m.FLOAT_TEXT_NATIVE, m.float32ArrayJson(new Float32Array([0.1, -3.86328125, 1e-7, NaN, 2 ** -149]))))`;
  return spawnSync(process.execPath, ['-e', script], { env: { ...process.env, QUIVER_FLOAT_TEXT_DIR: dir }, encoding: 'utf8' }).stdout.trim();
}

describe('src/native/build-float-text.mjs', () => {
  it('QUIVER_SKIP_NATIVE_BUILD=1: one line, exit 0, nothing built, and float.ts writes the text itself', () => {
    const out = join(tmp, 'skipped');
    const r = run({ QUIVER_SKIP_NATIVE_BUILD: '1', QUIVER_FLOAT_TEXT_DIR: out });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('quiver: native float text build skipped (QUIVER_SKIP_NATIVE_BUILD=1)\n');
    expect(existsSync(out)).toBe(false);
    expect(probe(out)).toBe('false [0.1,-3.8632812,1e-7,null,1e-45]');
  });

  it('a failing compile: one line naming the log, exit 0, no addon', () => {
    const out = join(tmp, 'failed');
    const gyp = join(tmp, 'failing-node-gyp.js');
    writeFileSync(gyp, "console.error('gyp ERR! simulated failure'); process.exit(1);\n");
    const r = run({ QUIVER_FLOAT_TEXT_DIR: out, npm_config_node_gyp: gyp });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`quiver: native float text build skipped (node-gyp exited 1; see ${join(out, 'build.log')})\n`);
    expect(readFileSync(join(out, 'build.log'), 'utf8')).toContain('gyp ERR! simulated failure');
    expect(existsSync(join(out, 'build', 'Release', 'float_text.node'))).toBe(false);
  });

  it('builds an addon that float.ts loads from there, writing the same text; bad arguments are refused', () => {
    const out = join(tmp, 'built');
    const r = run({ QUIVER_FLOAT_TEXT_DIR: out });
    expect(r.stderr).toBe('quiver: native float text built\n');
    expect(probe(out)).toBe('true [0.1,-3.8632812,1e-7,null,1e-45]');
    // Too little room, or not a Float32Array: a TypeError, never a write past the buffer.
    const addon = join(out, 'build', 'Release', 'float_text.node');
    const bad = spawnSync(
      process.execPath,
      ['-e', `const a = require(${JSON.stringify(addon)}); for (const args of [[new Float32Array(4), new Uint8Array(97), 0], [[1, 2], new Uint8Array(64), 0], [new Float32Array(1), new Uint8Array(64), -1]]) { try { a.writeArrayJson(...args); console.log('wrote'); } catch (e) { console.log(e.name); } }`],
      { encoding: 'utf8' },
    );
    expect(bad.stdout.trim().split('\n')).toEqual(['TypeError', 'TypeError', 'TypeError']);
  });
});
