// The postinstall build of Quiver's quantized hnswlib binding (src/native/build-quantized.mjs)
// never fails an install: skipped on request; a compile failing at every level ends in one line
// naming each level's log and exit code 0, leaving no build record; a real build records its
// level and loads (the binding's behaviour: test/workers/index/quantized-hnsw.test.ts).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCpuFlags } from '../../src/shared/cpu.js';
import { loadQuantized } from '../../src/workers/index/quantized-loader.js';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'src', 'native', 'build-quantized.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-quantized-build-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('src/native/build-quantized.mjs', () => {
  it('QUIVER_SKIP_NATIVE_BUILD=1: one line, exit 0, nothing built', () => {
    const out = join(tmp, 'skipped');
    const r = run({ QUIVER_SKIP_NATIVE_BUILD: '1', QUIVER_QUANTIZED_DIR: out });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('quiver: quantized hnswlib build skipped (QUIVER_SKIP_NATIVE_BUILD=1); collections with quantization_config will be refused\n');
    expect(existsSync(out)).toBe(false);
  });

  it('a compile failing at every level: one line naming each, exit 0, no build record, and the loader says why', () => {
    const out = join(tmp, 'failed');
    const gyp = join(tmp, 'failing-node-gyp.js');
    writeFileSync(gyp, "console.error('gyp ERR! simulated failure'); process.exit(1);\n");
    const r = run({ QUIVER_QUANTIZED_DIR: out, npm_config_node_gyp: gyp });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^quiver: quantized hnswlib build skipped \(.*portable: node-gyp exited 1; see .*build\.log\); collections with quantization_config will be refused\n$/);
    expect(readFileSync(join(out, 'build.log'), 'utf8')).toContain('gyp ERR! simulated failure');
    expect(existsSync(join(out, 'build-info.json'))).toBe(false);
    expect(loadQuantized(out, readCpuFlags())).toEqual({ reason: expect.stringContaining('no quantized hnswlib build at') });
  });

  it('builds for the best level this CPU runs, records it, and the loader loads it', { timeout: 120_000 }, () => {
    const out = join(tmp, 'built');
    const r = run({ QUIVER_QUANTIZED_DIR: out });
    expect(r.status).toBe(0);
    const info = JSON.parse(readFileSync(join(out, 'build-info.json'), 'utf8')) as { tier: string; requiredCpuFlags: string[] };
    expect(r.stderr).toMatch(new RegExp(`^quiver: quantized hnswlib built for ${info.tier}`));
    const cpu = readCpuFlags();
    expect(info.requiredCpuFlags.every((f) => cpu?.has(f))).toBe(true);
    expect(loadQuantized(out, cpu)).toMatchObject({ tier: info.tier });
  });
});
