// Run by `npm run build` after tsc: bundles the TypeBox entry points that dist/ imports into
// dist/vendor/ and points those imports there. TypeBox ships about 700 small ES modules; resolving
// and linking them cost each thread that imports it 250-450 ms of CPU at start (measured here:
// `typebox`, `typebox/compile` and `typebox/value` together 420 ms, the same code bundled 28 ms),
// on the path to /readyz. The bundle is the package's own code, built from node_modules on every
// build (never committed), so it cannot go stale; sources and tests (vitest on src/) still import
// the package itself.
//
// Invariant: after this script, no .js file under dist/ imports a `typebox` specifier (checked by
// test/main/vendor-typebox.test.ts); every specifier becomes one entry of the bundle, with the
// code they share in common chunks, so each entry keeps the package's own exports and identity.

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const vendor = join(dist, 'vendor', 'typebox');

/** `from 'typebox'`, `from "typebox/compile"`, `import('typebox/value')`: the quote and the specifier. */
const SPECIFIER = /(?<=\bfrom\s*|\bimport\s*\(\s*)(['"])(typebox(?:\/[a-z]+)?)\1/g;

function* jsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p !== join(dist, 'vendor')) yield* jsFiles(p);
    } else if (e.name.endsWith('.js')) yield p;
  }
}

/** The bundle entry's file name for a specifier: `typebox` -> typebox.js, `typebox/compile` -> typebox-compile.js. */
const entryName = (specifier) => specifier.replace('/', '-');

/** An import this script already rewrote (a second run without tsc in between): its entry stays. */
const VENDORED = /vendor\/typebox\/typebox(-[a-z]+)?\.js(?=['"])/g;

const files = [];
const specifiers = new Set();
for (const file of jsFiles(dist)) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(VENDORED)) specifiers.add(`typebox${m[1] === undefined ? '' : `/${m[1].slice(1)}`}`);
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
