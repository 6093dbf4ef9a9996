#!/usr/bin/env node
// @ts-check
// postinstall: compile hnswlib-node's own sources again for this CPU's vector instructions
// (x86-64-v3: AVX2+FMA; x86-64-v4: AVX-512 where the CPU has it) into native/hnswlib/ (git-ignored), beside the
// portable npm build, which stays installed and is what the loader uses whenever this build is
// absent, stale, unloadable or needs instructions the running CPU lacks
// (src/workers/index/hnswlib-loader.ts).
//
// Plain JavaScript on Node built-ins only: it runs before `tsc`, and under `npm ci --omit=dev`.
// It never fails the install: every problem ends in one line on stderr and exit code 0.
// QUIVER_SKIP_NATIVE_BUILD=1 skips it.
//
// An x86-64 microarchitecture level instead of -march=native: the loader must know exactly
// which instructions the binary may contain, to check them against /proc/cpuinfo of whatever
// machine the installed tree is later copied to. A level is a fixed, published feature list;
// -march=native pulls in whatever this CPU has (some, like MONITOR/MWAIT, hidden from cpuinfo in
// VMs), each a way to die of SIGILL or fall back for nothing. hnswlib's distance kernels only use
// AVX/AVX-512 and FMA anyway. (gcc also turns on -mmwait with SSE3, but MONITOR/MWAIT are only
// ever emitted through their intrinsics, which hnswlib does not call.) -mtune=native changes
// instruction scheduling only, never the set.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuFlags, X86_TIERS as TIERS } from './cpu-tiers.mjs';
import { runNodeGyp, writeBindingGyp } from './node-gyp.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = process.env.QUIVER_NATIVE_DIR ? resolve(process.env.QUIVER_NATIVE_DIR) : join(ROOT, 'native', 'hnswlib');
const BUILD_TIMEOUT_MS = 5 * 60_000;

/**
 * @param {string} msg
 * @returns {never}
 */
function skip(msg) {
  process.stderr.write(`quiver: native hnswlib build skipped (${msg}); the portable npm build will be used\n`);
  process.exit(0);
}

function main() {
  if (process.env.QUIVER_SKIP_NATIVE_BUILD === '1') skip('QUIVER_SKIP_NATIVE_BUILD=1');
  if (process.platform !== 'linux' || process.arch !== 'x64') skip(`only built on linux x64, this is ${process.platform} ${process.arch}`);
  const flags = cpuFlags();
  const tier = TIERS.find((t) => t.requires.every((f) => flags.has(f)));
  if (tier === undefined) skip('this CPU is below x86-64-v3 (AVX2, FMA), where the npm build is as fast');

  const require = createRequire(join(ROOT, 'package.json'));
  const pkgFile = require.resolve('hnswlib-node/package.json');
  const pkgDir = dirname(pkgFile);
  const version = /** @type {{ version: string }} */ (JSON.parse(readFileSync(pkgFile, 'utf8'))).version;
  // include_dir is relative to the cwd at the time it is required.
  const addonApi = resolve(/** @type {{ include_dir: string }} */ (createRequire(pkgFile)('node-addon-api')).include_dir);

  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  cpSync(join(pkgDir, 'src'), join(OUT, 'src'), { recursive: true });
  // hnswlib-node's binding.gyp with absolute include paths (the copy has no node_modules beside
  // it) and our flags; -O3 is node-gyp's release default already, stated for clarity.
  const cflags = ['-O3', ...tier.cflags, '-mtune=native'];
  writeBindingGyp(OUT, { target: 'addon', source: 'src/addon.cc', includes: [addonApi], defines: ['NAPI_DISABLE_CPP_EXCEPTIONS'], cflags });

  const t0 = Date.now();
  const addon = join(OUT, 'build', 'Release', 'addon.node');
  const failed = runNodeGyp(OUT, addon, BUILD_TIMEOUT_MS);
  if (failed !== null) skip(failed);

  // Smoke-test in a child process, so a bad binary costs the child, not the install.
  const smoke = spawnSync(
    process.execPath,
    [
      '-e',
      `const { HierarchicalNSW } = require(${JSON.stringify(addon)});
       const ix = new HierarchicalNSW('l2', 16); ix.initIndex(64);
       for (let i = 0; i < 64; i++) ix.addPoint(Array.from({ length: 16 }, (_, j) => i + j), i);
       const r = ix.searchKnn(Array.from({ length: 16 }, (_, j) => 5 + j), 1);
       if (r.neighbors[0] !== 5) throw new Error('wrong neighbour ' + r.neighbors[0]);`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (smoke.status !== 0) {
    rmSync(join(OUT, 'build'), { recursive: true, force: true });
    skip(`the built addon failed its smoke test (${smoke.signal ?? (smoke.stderr.trim().split('\n').pop() || `exit ${smoke.status}`)})`);
  }

  const info = {
    hnswlibVersion: version,
    tier: tier.name,
    cflags,
    requiredCpuFlags: tier.requires,
    node: process.version,
    builtAt: new Date().toISOString(),
    buildSeconds: Math.round((Date.now() - t0) / 1000),
  };
  writeFileSync(join(OUT, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  process.stderr.write(`quiver: native hnswlib ${version} built for ${tier.name} (${cflags.join(' ')}) in ${info.buildSeconds}s\n`);
}

try {
  main();
} catch (e) {
  skip(e instanceof Error ? e.message : String(e));
}
