// Which hnswlib-node build a thread loads: the CPU-flag check, every fallback to the portable
// build (with its reason), mode 'native' turning those into errors, and, where the install
// built one, that the native build finds the same neighbours as the portable one.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCpuFlags } from '../../src/shared/cpu.js';
import { DEFAULT_NATIVE_DIR, loadHnswlib, missingCpuFlags, type HnswlibModule } from '../../src/workers/index/hnswlib-loader.js';
import { rng } from '../helpers/random.js';

const require = createRequire(import.meta.url);
const portableLib = require('hnswlib-node') as HnswlibModule;
const VERSION = (require('hnswlib-node/package.json') as { version: string }).version;
const AVX2 = ['avx2', 'fma', 'avx'];

const tmp = mkdtempSync(join(tmpdir(), 'quiver-hnswlib-loader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A native build folder as build-hnswlib.mjs leaves it, with `addon` as its .node file. */
function nativeDir(opts: { info?: unknown; addon?: 'real' | 'corrupt' | 'none' } = {}): string {
  const dir = join(tmp, `native-${n++}`);
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  const info = opts.info ?? { hnswlibVersion: VERSION, tier: 'avx2', cflags: ['-O3', '-mavx2', '-mfma'], requiredCpuFlags: AVX2 };
  writeFileSync(join(dir, 'build-info.json'), typeof info === 'string' ? info : JSON.stringify(info));
  const addon = join(dir, 'build', 'Release', 'addon.node');
  // The portable addon stands in for a native one: the loader cannot tell them apart by content.
  if (opts.addon === 'real' || opts.addon === undefined) copyFileSync(require.resolve('hnswlib-node/build/Release/addon.node'), addon);
  if (opts.addon === 'corrupt') writeFileSync(addon, 'this is not an ELF shared object');
  return dir;
}

describe('CPU flags', () => {
  it('reads the flags line of /proc/cpuinfo', () => {
    const f = join(tmp, 'cpuinfo');
    writeFileSync(f, 'processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse sse2 avx avx2 fma\n\nprocessor\t: 1\nflags\t\t: fpu\n');
    expect([...(readCpuFlags(f) ?? [])]).toEqual(['fpu', 'sse', 'sse2', 'avx', 'avx2', 'fma']);
  });

  it('is null where the CPU flags cannot be read', () => {
    expect(readCpuFlags(join(tmp, 'no-such-cpuinfo'))).toBeNull();
    const f = join(tmp, 'cpuinfo-without-flags');
    writeFileSync(f, 'processor\t: 0\n');
    expect(readCpuFlags(f)).toBeNull();
  });

  it('names the required flags the CPU lacks, and all of them when its flags are unknown', () => {
    expect(missingCpuFlags(AVX2, new Set(['sse2', 'avx', 'avx2', 'fma']))).toEqual([]);
    expect(missingCpuFlags(AVX2, new Set(['sse2', 'avx']))).toEqual(['avx2', 'fma']);
    expect(missingCpuFlags(AVX2, null)).toEqual(AVX2);
  });
});

describe('loadHnswlib', () => {
  const cpu = new Set(['sse2', 'avx', 'avx2', 'fma']);

  it('loads the native build when the CPU has every flag it was compiled for', () => {
    const { lib, build } = loadHnswlib({ mode: 'auto', nativeDir: nativeDir(), cpuFlags: cpu });
    expect(build).toEqual({ kind: 'native', description: 'native (avx2: -O3 -mavx2 -mfma)', flags: '-O3 -mavx2 -mfma', fallbackReason: null });
    expect(typeof lib.HierarchicalNSW).toBe('function');
  });

  it('falls back to the portable build, saying why, when the CPU lacks a required flag', () => {
    const { lib, build } = loadHnswlib({ mode: 'auto', nativeDir: nativeDir(), cpuFlags: new Set(['sse2', 'avx']) });
    expect(build.kind).toBe('portable');
    expect(build.description).toBe('portable (npm)');
    expect(build.fallbackReason).toBe('this CPU lacks avx2 fma');
    expect(lib).toBe(portableLib);
  });

  it('falls back when the CPU flags cannot be read', () => {
    expect(loadHnswlib({ mode: 'auto', nativeDir: nativeDir(), cpuFlags: null }).build.fallbackReason).toBe('the CPU flags cannot be read (no /proc/cpuinfo)');
  });

  it('falls back when there is no native build', () => {
    const dir = join(tmp, 'never-built');
    const { build } = loadHnswlib({ mode: 'auto', nativeDir: dir, cpuFlags: cpu });
    expect(build.kind).toBe('portable');
    expect(build.fallbackReason).toBe(`no native build at ${dir} (run npm run native:build)`);
  });

  it('falls back when the .node file is missing or corrupt', () => {
    const missing = loadHnswlib({ mode: 'auto', nativeDir: nativeDir({ addon: 'none' }), cpuFlags: cpu }).build;
    expect(missing.kind).toBe('portable');
    expect(missing.fallbackReason).toMatch(/addon\.node failed to load: Cannot find module/);
    const corrupt = loadHnswlib({ mode: 'auto', nativeDir: nativeDir({ addon: 'corrupt' }), cpuFlags: cpu }).build;
    expect(corrupt.kind).toBe('portable');
    expect(corrupt.fallbackReason).toMatch(/addon\.node failed to load: .*(invalid ELF header|file too short)/);
  });

  it('falls back when the native build is of another hnswlib-node version', () => {
    const dir = nativeDir({ info: { hnswlibVersion: '2.9.9', tier: 'avx2', cflags: [], requiredCpuFlags: [] } });
    expect(loadHnswlib({ mode: 'auto', nativeDir: dir, cpuFlags: cpu }).build.fallbackReason).toBe(
      `the native build is of hnswlib-node 2.9.9, ${VERSION} is installed (run npm run native:build)`,
    );
  });

  it('falls back when the build record is unreadable or not a record', () => {
    expect(loadHnswlib({ mode: 'auto', nativeDir: nativeDir({ info: '{ half' }), cpuFlags: cpu }).build.fallbackReason).toMatch(/build-info\.json is unreadable: /);
    expect(loadHnswlib({ mode: 'auto', nativeDir: nativeDir({ info: { tier: 'avx2' } }), cpuFlags: cpu }).build.fallbackReason).toMatch(
      /build-info\.json is not a build record$/,
    );
  });

  it('portable mode loads the portable build without looking for the native one', () => {
    const { lib, build } = loadHnswlib({ mode: 'portable', nativeDir: nativeDir(), cpuFlags: cpu });
    expect(build).toEqual({ kind: 'portable', description: 'portable (npm)', flags: '', fallbackReason: null });
    expect(lib).toBe(portableLib);
  });

  it('native mode turns every reason to fall back into an error naming the setting', () => {
    expect(() => loadHnswlib({ mode: 'native', nativeDir: nativeDir(), cpuFlags: new Set(['sse2']) })).toThrow(
      'SERVICE_HNSW_BUILD=native, but the native hnswlib build cannot be used: this CPU lacks avx2 fma avx',
    );
    expect(() => loadHnswlib({ mode: 'native', nativeDir: nativeDir({ addon: 'corrupt' }), cpuFlags: cpu })).toThrow(/cannot be used: .*failed to load/);
    expect(() => loadHnswlib({ mode: 'native', nativeDir: join(tmp, 'never-built'), cpuFlags: cpu })).toThrow(/cannot be used: no native build at/);
    expect(loadHnswlib({ mode: 'native', nativeDir: nativeDir(), cpuFlags: cpu }).build.kind).toBe('native');
  });
});

// The install's own native build: present wherever postinstall could compile it (CI included).
const built = existsSync(join(DEFAULT_NATIVE_DIR, 'build-info.json'));

describe.skipIf(!built)('the native build made at install', () => {
  it('records flags this CPU has, so auto mode loads it here', () => {
    const info = JSON.parse(readFileSync(join(DEFAULT_NATIVE_DIR, 'build-info.json'), 'utf8')) as { requiredCpuFlags: string[]; cflags: string[] };
    expect(info.cflags.some((f) => /^-march=x86-64-v[34]$/.test(f))).toBe(true);
    expect(missingCpuFlags(info.requiredCpuFlags, readCpuFlags())).toEqual([]);
    expect(loadHnswlib({ mode: 'auto' }).build.kind).toBe('native');
  });

  it('finds the same neighbours as the portable build', () => {
    const native = loadHnswlib({ mode: 'native' }).lib;
    const dim = 32;
    const count = 2000;
    const rand = rng(7);
    const points = Array.from({ length: count }, () => Array.from({ length: dim }, () => rand() * 2 - 1));
    const queries = Array.from({ length: 50 }, () => Array.from({ length: dim }, () => rand() * 2 - 1));
    const build = (lib: HnswlibModule) => {
      const ix = new lib.HierarchicalNSW('l2', dim);
      ix.initIndex(count, 16, 200, 100);
      points.forEach((p, i) => ix.addPoint(p, i));
      ix.setEf(200);
      return ix;
    };
    const a = build(native);
    const b = build(portableLib);
    const exact = (q: number[]) =>
      points
        .map((p, i) => [p.reduce((s, x, j) => s + (x - q[j]!) ** 2, 0), i] as const)
        .sort((x, y) => x[0] - y[0])
        .slice(0, 10)
        .map(([, i]) => i);
    for (const q of queries) {
      const want = exact(q);
      // Same graph parameters and seed: both builds find the exact top 10 at this ef.
      expect(a.searchKnn(q, 10).neighbors.sort((x, y) => x - y)).toEqual([...want].sort((x, y) => x - y));
      expect(b.searchKnn(q, 10).neighbors.sort((x, y) => x - y)).toEqual([...want].sort((x, y) => x - y));
    }
  });
});
