#!/usr/bin/env node
// @ts-check
// postinstall: compile Quiver's own binding over hnswlib's C++ core (src/native/quantized-hnsw.cc,
// with the hnswlib headers the hnswlib-node package ships) into native/quantized/ (git-ignored):
// HNSW graphs over int8 and binary codes, which hnswlib-node's float32-only API cannot build.
// The best x86-64 level this CPU runs, else the compiler's portable defaults, so every machine
// with a C++ compiler gets it; without one, quantized collections are refused with a message
// naming this build (src/workers/index/quantized-loader.ts), and float32 collections work.
//
// Plain JavaScript on Node built-ins only: it runs before `tsc`, and under `npm ci --omit=dev`.
// It never fails the install: every problem ends in one line on stderr and exit code 0.
// QUIVER_SKIP_NATIVE_BUILD=1 skips it.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuFlags, PORTABLE_TIER, X86_TIERS } from './cpu-tiers.mjs';
import { runNodeGyp, writeBindingGyp } from './node-gyp.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const OUT = process.env.QUIVER_QUANTIZED_DIR ? resolve(process.env.QUIVER_QUANTIZED_DIR) : join(ROOT, 'native', 'quantized');
const BUILD_TIMEOUT_MS = 5 * 60_000;

/**
 * @param {string} msg
 * @returns {never}
 */
function skip(msg) {
  process.stderr.write(`quiver: quantized hnswlib build skipped (${msg}); collections with quantization_config will be refused\n`);
  process.exit(0);
}

/**
 * @param {{ name: string, cflags: string[], requires: string[] }} tier
 * @param {string} addonApi node-addon-api's include folder
 * @param {string} hnswlibSrc the folder holding hnswlib/hnswlib.h
 * @returns {string | null} why the build failed, or null
 */
function build(tier, addonApi, hnswlibSrc) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'src'), { recursive: true });
  copyFileSync(join(HERE, 'quantized-hnsw.cc'), join(OUT, 'src', 'quantized-hnsw.cc'));
  const cflags = ['-O3', ...tier.cflags, ...(tier.cflags.length > 0 ? ['-mtune=native'] : [])];
  writeBindingGyp(OUT, { target: 'quantized', source: 'src/quantized-hnsw.cc', includes: [addonApi, hnswlibSrc], defines: ['NAPI_CPP_EXCEPTIONS'], cflags });
  const t0 = Date.now();
  const addon = join(OUT, 'build', 'Release', 'quantized.node');
  const failed = runNodeGyp(OUT, addon, BUILD_TIMEOUT_MS);
  if (failed !== null) return failed;
  // Smoke-test in a child process, so a bad binary costs the child, not the install.
  const smoke = spawnSync(
    process.execPath,
    [
      '-e',
      `const { QuantizedIndex } = require(${JSON.stringify(addon)});
       for (const kind of ['int8', 'binary']) {
         const ix = new QuantizedIndex(kind, 'l2', 64, 1 / 64, -2); ix.initIndex(64);
         const row = (i) => Float32Array.from({ length: 64 }, (_, j) => Math.sin(i * 7 + j) * (j % 3 ? 1 : -1));
         for (let i = 0; i < 64; i++) ix.addPoint(row(i), i);
         const r = ix.searchKnn(row(5), 1);
         if (r.neighbors[0] !== 5) throw new Error(kind + ': wrong neighbour ' + r.neighbors[0]);
       }`,
    ],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (smoke.status !== 0) {
    rmSync(join(OUT, 'build'), { recursive: true, force: true });
    return `the built addon failed its smoke test (${smoke.signal ?? (smoke.stderr.trim().split('\n').pop() || `exit ${smoke.status}`)})`;
  }
  const info = { tier: tier.name, cflags, requiredCpuFlags: tier.requires, node: process.version, builtAt: new Date().toISOString(), buildSeconds: Math.round((Date.now() - t0) / 1000) };
  writeFileSync(join(OUT, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  process.stderr.write(`quiver: quantized hnswlib built for ${tier.name}${cflags.length > 1 ? ` (${cflags.join(' ')})` : ''} in ${info.buildSeconds}s\n`);
  return null;
}

function main() {
  if (process.env.QUIVER_SKIP_NATIVE_BUILD === '1') skip('QUIVER_SKIP_NATIVE_BUILD=1');
  const require = createRequire(join(ROOT, 'package.json'));
  const pkgFile = require.resolve('hnswlib-node/package.json');
  const hnswlibSrc = join(dirname(pkgFile), 'src');
  // include_dir is relative to the cwd at the time it is required.
  const addonApi = resolve(/** @type {{ include_dir: string }} */ (createRequire(pkgFile)('node-addon-api')).include_dir);
  const flags = process.platform === 'linux' && process.arch === 'x64' ? cpuFlags() : new Set();
  // The best level this CPU runs, then the portable build should that one fail.
  const tiers = [...X86_TIERS.filter((t) => process.arch === 'x64' && t.requires.every((f) => flags.has(f))).slice(0, 1), PORTABLE_TIER];
  const failures = [];
  for (const tier of tiers) {
    const failed = build(tier, addonApi, hnswlibSrc);
    if (failed === null) return;
    failures.push(`${tier.name}: ${failed}`);
  }
  skip(failures.join('; '));
}

try {
  main();
} catch (e) {
  skip(e instanceof Error ? e.message : String(e));
}
