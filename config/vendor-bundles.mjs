// Run by `npm run build` after tsc: bundles the packages named in BUNDLED, as dist/ imports them,
// into dist/vendor/ and points those imports there. Node resolves, reads and links a package's
// modules one file at a time, which at start costs each importing thread far more than the code
// itself, on the way to /readyz. Measured here, CPU of a fresh import, package vs bundle:
// TypeBox (~700 ES modules; `typebox`, `typebox/compile` and `typebox/value`) 420 -> 28 ms,
// jose 58-70 -> 12-14 ms. The bundle is the packages' own code, built from node_modules on every
// build (never committed), so it cannot go stale; sources and tests (vitest on src/) still import
// the packages themselves.
//
// Invariant: after this script, no .js file under dist/src imports a BUNDLED specifier (checked by
// test/main/vendor-bundles.test.ts); every specifier becomes one entry of one bundle, with the
// code entries share in common chunks, so each keeps the package's own exports and identity.

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

/** ES-module packages only: their entries re-export the package's own export list. */
const BUNDLED = ['typebox', 'jose'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const vendor = join(dist, 'vendor', 'bundle');

const names = BUNDLED.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
/** `from 'typebox'`, `from "typebox/compile"`, `import('jose')`: the quote and the specifier. */
const SPECIFIER = new RegExp(`(?<=\\bfrom\\s*|\\bimport\\s*\\(\\s*)(['"])((?:${names})(?:/[a-z-]+)?)\\1`, 'g');
/** An import this script already rewrote (a second run without tsc in between): its entry stays. */
const VENDORED = /vendor\/bundle\/([a-z0-9_-]+)\.js(?=['"])/g;

function* jsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== join(dist, 'vendor')) yield* jsFiles(p);
    } else if (e.name.endsWith('.js')) yield p;
  }
}

/** The bundle entry's file name for a specifier: `typebox` -> typebox.js, `typebox/compile` -> typebox__compile.js. */
const entryName = (specifier) => specifier.replace(/\//g, '__');
const specifierOf = (entry) => entry.replace(/__/g, '/');

const files = [];
const specifiers = new Set();
for (const file of jsFiles(dist)) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(VENDORED)) specifiers.add(specifierOf(m[1]));
  const found = [...text.matchAll(SPECIFIER)].map((m) => m[2]);
  if (found.length === 0) continue;
  files.push([file, text]);
  for (const s of found) specifiers.add(s);
}

rmSync(vendor, { recursive: true, force: true });
if (specifiers.size > 0) {
  const input = Object.fromEntries([...specifiers].map((s) => [entryName(s), s]));
  await build({
    input,
    cwd: root,
    platform: 'node',
    logLevel: 'warn',
    output: { dir: vendor, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
  });
}

for (const [file, text] of files) {
  const rewritten = text.replace(SPECIFIER, (_m, quote, specifier) => {
    let path = relative(dirname(file), join(vendor, `${entryName(specifier)}.js`)).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    return `${quote}${path}${quote}`;
  });
  writeFileSync(file, rewritten);
}
