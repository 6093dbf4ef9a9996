#!/usr/bin/env node
// @ts-check
// postinstall: compile src/native/malloc-trim.c (glibc's malloc_trim for JavaScript; see
// src/shared/malloc-trim.ts) into native/malloc-trim/ (git-ignored). Plain JavaScript on Node
// built-ins only, like build-hnswlib.mjs. It never fails the install: without it (not Linux with
// glibc, no toolchain, QUIVER_SKIP_NATIVE_BUILD=1) the server runs as before, only without
// handing glibc's free arena pages back after a burst.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNodeGyp } from './node-gyp.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const OUT = process.env.QUIVER_MALLOC_TRIM_DIR ? resolve(process.env.QUIVER_MALLOC_TRIM_DIR) : join(ROOT, 'native', 'malloc-trim');

/** @param {string} msg */
function skip(msg) {
  process.stderr.write(`quiver: native malloc_trim build skipped (${msg})\n`);
  process.exit(0);
}

function main() {
  if (process.env.QUIVER_SKIP_NATIVE_BUILD === '1') skip('QUIVER_SKIP_NATIVE_BUILD=1');
  if (process.platform !== 'linux') skip(`glibc only, this is ${process.platform}`);
  const report = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report?.getReport() ?? {});
  if (report.header?.glibcVersionRuntime === undefined) skip('not glibc');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  copyFileSync(join(HERE, 'malloc-trim.c'), join(OUT, 'malloc-trim.c'));
  const gyp = { targets: [{ target_name: 'malloc_trim', sources: ['malloc-trim.c'] }] };
  writeFileSync(join(OUT, 'binding.gyp'), JSON.stringify(gyp, null, 2));
  const addon = join(OUT, 'build', 'Release', 'malloc_trim.node');
  const failed = runNodeGyp(OUT, addon, 120_000);
  if (failed !== null) skip(failed);
  const smoke = spawnSync(process.execPath, ['-e', `if (typeof require(${JSON.stringify(addon)}).trim() !== 'boolean') throw new Error('trim() gave no boolean')`], { encoding: 'utf8', timeout: 30_000 });
  if (smoke.status !== 0) {
    rmSync(join(OUT, 'build'), { recursive: true, force: true });
    skip(`the built addon failed its smoke test (${smoke.stderr.trim().split('\n').pop() ?? `exit ${smoke.status}`})`);
  }
  process.stderr.write('quiver: native malloc_trim built\n');
}

try {
  main();
} catch (e) {
  skip(e instanceof Error ? e.message : String(e));
}
