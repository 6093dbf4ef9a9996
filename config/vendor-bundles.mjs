// Run by `npm run build` after tsc: bundles the packages named in BUNDLED, as dist/ imports them,
// into dist/vendor/ and points those imports there. Node resolves, reads and links a package's
// modules one file at a time, which at start costs each importing thread far more than the code
// itself, on the way to /readyz. Measured here, CPU of a fresh import, package vs bundle:
// TypeBox (~700 ES modules; `typebox`, `typebox/compile` and `typebox/value`) 420 -> 28 ms,
// jose 58-70 -> 12-14 ms, fastify 144-169 -> 92-94 ms, prom-client 68-77 -> 9 ms. The bundle is the packages' own code, built from node_modules on every
// build (never committed), so it cannot go stale; sources and tests (vitest on src/) still import
// the packages themselves.
//
// Invariant: after this script, no .js file under dist/src imports a BUNDLED specifier (checked by
// test/main/vendor-bundles.test.ts); every specifier becomes one entry of one bundle, with the
// code entries share in common chunks, so each keeps the package's own exports and identity.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

/**
 * The packages bundled, by module kind. An ES module entry re-exports the package's own export
 * list; a CommonJS one exports `module.exports` as the default and, by name, the keys Node itself
 * offers an ES module importer (read at build time), taken once at load as Node takes them.
 */
const BUNDLED = { typebox: 'esm', jose: 'esm', fastify: 'cjs', 'prom-client': 'cjs' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const vendor = join(dist, 'vendor', 'bundle');

const names = Object.keys(BUNDLED).map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
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

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** What rolldown bundles for a specifier: the specifier itself (ES module), or an entry file naming a CommonJS package's exports. */
async function entryOf(specifier, entries) {
  const pkg = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
  if (BUNDLED[pkg] !== 'cjs') return specifier;
  const keys = Object.keys(await import(specifier)).filter((k) => k !== 'default' && IDENTIFIER.test(k));
  const file = join(entries, `${entryName(specifier)}.mjs`);
  const lines = [`import m from '${specifier}';`, 'export default m;'];
  if (keys.length > 0) lines.push(`export const { ${keys.join(', ')} } = m;`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

rmSync(vendor, { recursive: true, force: true });
if (specifiers.size > 0) {
  const entries = join(dist, 'vendor', '.entries');
  rmSync(entries, { recursive: true, force: true });
  mkdirSync(entries, { recursive: true });
  const input = {};
  for (const s of specifiers) input[entryName(s)] = await entryOf(s, entries);
  await build({
    input,
    cwd: root,
    platform: 'node',
    logLevel: 'warn',
    output: { dir: vendor, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'shared-[hash].js' },
  });
  rmSync(entries, { recursive: true, force: true });
}

for (const [file, text] of files) {
  const rewritten = text.replace(SPECIFIER, (_m, quote, specifier) => {
    let path = relative(dirname(file), join(vendor, `${entryName(specifier)}.js`)).split(sep).join('/');
    if (!path.startsWith('.')) path = `./${path}`;
    return `${quote}${path}${quote}`;
  });
  writeFileSync(file, rewritten);
}
