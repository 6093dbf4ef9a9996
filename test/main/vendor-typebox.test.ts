// config/vendor-typebox.mjs (run by `npm run build`) bundles the TypeBox entry points dist/
// imports and rewrites those imports to the bundle: the rewritten files still work, a second run
// (no tsc in between) keeps them working, and the real build leaves no bare `typebox` import.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'config', 'vendor-typebox.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-vendor-typebox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BARE = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]typebox(?:\/[a-z]+)?['"]/;

function* jsFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

describe('vendor-typebox', () => {
  it('rewrites static and dynamic typebox imports to a bundle that keeps each entry point working', () => {
    mkdirSync(join(tmp, 'config'));
    copyFileSync(SCRIPT, join(tmp, 'config', 'vendor-typebox.mjs'));
    symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'));
    mkdirSync(join(tmp, 'dist', 'src', 'deep'), { recursive: true });
    const file = join(tmp, 'dist', 'src', 'deep', 'schema.js');
    writeFileSync(
      file,
      [
        "import Type from 'typebox';",
        'import { Compile } from "typebox/compile";',
        "const { Value } = await import('typebox/value');",
        'const S = Type.Object({ a: Type.Integer({ minimum: 1 }) });',
        'process.stdout.write(JSON.stringify([Compile(S).Check({ a: 2 }), Compile(S).Check({ a: 0 }), Value.Check(S, { a: 3 })]));',
        '',
      ].join('\n'),
    );
    const run = (): string => execFileSync(process.execPath, [file], { encoding: 'utf8' });
    execFileSync(process.execPath, [join(tmp, 'config', 'vendor-typebox.mjs')]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(BARE);
    expect(text).toContain("from '../../vendor/typebox/typebox.js'");
    expect(text).toContain('from "../../vendor/typebox/typebox-compile.js"');
    expect(text).toContain("import('../../vendor/typebox/typebox-value.js')");
    expect(run()).toBe('[true,false,true]');
    // Again without a compile in between: the entries the rewritten files name are still built.
    execFileSync(process.execPath, [join(tmp, 'config', 'vendor-typebox.mjs')]);
    expect(run()).toBe('[true,false,true]');
  });

  it('left no bare typebox import in the build', () => {
    const dist = join(ROOT, 'dist');
    if (!existsSync(join(dist, 'src'))) return; // no build here (the *.workers tests need one anyway)
    const bare = [...jsFiles(join(dist, 'src'))].filter((f) => BARE.test(readFileSync(f, 'utf8')));
    expect(bare).toEqual([]);
    expect(existsSync(join(dist, 'vendor', 'typebox', 'typebox.js'))).toBe(true);
  });
});
