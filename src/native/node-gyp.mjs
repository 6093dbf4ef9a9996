// @ts-check
// What the install-time builds (build-hnswlib.mjs, build-quantized.mjs, build-malloc-trim.mjs,
// build-float-text.mjs)
// need of node-gyp: where it is, where Node's own headers are, and one way to run it. Plain JavaScript on Node built-ins only: it runs
// before `tsc`, and under `npm ci --omit=dev`.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** npm passes its bundled node-gyp to lifecycle scripts; run by hand, find npm's own copy. */
export function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  for (const c of candidates) if (c && existsSync(c)) return c;
  throw new Error('node-gyp not found (npm bundles it; set npm_config_node_gyp)');
}

/**
 * Node's own headers, so node-gyp never downloads them: npm's nodedir setting, else the
 * include/node folder that Node's distributions install beside bin/node. null lets node-gyp
 * look in its cache (and download there as a last resort).
 * @returns {string | null}
 */
export function nodeHeaders() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}

/**
 * `node-gyp rebuild --release` in `dir` (its binding.gyp written), the output kept in
 * dir/build.log; then `addon` must exist. Never throws for a failed build.
 * @param {string} dir
 * @param {string} addon the file the build must make
 * @param {number} timeoutMs
 * @returns {string | null} why the build failed, naming the log, or null
 */
export function runNodeGyp(dir, addon, timeoutMs) {
  const args = [nodeGyp(), 'rebuild', '--release', '--jobs', '1'];
  const nodedir = nodeHeaders();
  if (nodedir !== null) args.push(`--nodedir=${nodedir}`);
  const built = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: timeoutMs });
  const log = join(dir, 'build.log');
  writeFileSync(log, `${built.stdout ?? ''}\n${built.stderr ?? ''}`);
  if (built.error) return `node-gyp: ${built.error.message}; see ${log}`;
  if (built.status !== 0) return `node-gyp exited ${built.status ?? built.signal}; see ${log}`;
  if (!existsSync(addon)) return `node-gyp made no ${addon}`;
  return null;
}

/**
 * Writes dir/binding.gyp for one C++ addon built with C++ exceptions on (hnswlib throws) and
 * `cflags` added to node-gyp's own.
 * @param {string} dir
 * @param {{ target: string, source: string, includes: string[], defines: string[], cflags: string[] }} t
 */
export function writeBindingGyp(dir, t) {
  const target = {
    target_name: t.target,
    sources: [t.source],
    include_dirs: t.includes,
    defines: t.defines,
    'cflags!': ['-fno-exceptions'],
    'cflags_cc!': ['-fno-exceptions'],
    'cflags+': t.cflags,
    'cflags_cc+': t.cflags,
  };
  writeFileSync(join(dir, 'binding.gyp'), JSON.stringify({ targets: [target] }, null, 2));
}

/**
 * The install-time build of one small addon from sources in src/native, which never fails an
 * install: every way it does not build (QUIVER_SKIP_NATIVE_BUILD=1, a `requires` that answers
 * why not, a failing compile, a smoke test that fails in a child process) ends in one line on
 * stderr, no addon, and exit 0; the code that loads it then runs without it.
 * @param {{ label: string, here: string, out: string, target: string, sources: string[], gyp?: Record<string, unknown>, requires?: () => string | null, smoke: (addon: string) => string }} a
 *   `label` names it in the lines; `gyp` adds to the target; `smoke` is a script for `node -e`
 *   that throws when the addon (the path given) does not work.
 */
export function buildSmallAddon(a) {
  /** @param {string} msg */
  const skip = (msg) => {
    process.stderr.write(`quiver: native ${a.label} build skipped (${msg})\n`);
    process.exit(0);
  };
  try {
    if (process.env.QUIVER_SKIP_NATIVE_BUILD === '1') skip('QUIVER_SKIP_NATIVE_BUILD=1');
    const unmet = a.requires?.() ?? null;
    if (unmet !== null) skip(unmet);
    rmSync(a.out, { recursive: true, force: true });
    mkdirSync(a.out, { recursive: true });
    for (const s of a.sources) copyFileSync(join(a.here, s), join(a.out, s));
    writeFileSync(join(a.out, 'binding.gyp'), JSON.stringify({ targets: [{ target_name: a.target, sources: a.sources, ...(a.gyp ?? {}) }] }, null, 2));
    const addon = join(a.out, 'build', 'Release', `${a.target}.node`);
    const failed = runNodeGyp(a.out, addon, 120_000);
    if (failed !== null) skip(failed);
    const smoke = spawnSync(process.execPath, ['-e', a.smoke(addon)], { encoding: 'utf8', timeout: 30_000 });
    if (smoke.status !== 0) {
      rmSync(join(a.out, 'build'), { recursive: true, force: true });
      // Node ends an uncaught error's output with its own version line: the error's line says why.
      const lines = smoke.stderr.trim().split('\n');
      skip(`the built addon failed its smoke test (${lines.find((l) => /Error\b/.test(l)) ?? lines.pop() ?? `exit ${smoke.status}`})`);
    }
    process.stderr.write(`quiver: native ${a.label} built\n`);
  } catch (e) {
    skip(e instanceof Error ? e.message : String(e));
  }
}
