// config/vendor-bundles.mjs (run by `npm run build`) bundles the packages it names (TypeBox, jose)
// as dist/ imports them and rewrites those imports to the bundle: the rewritten files still work,
// a second run (no tsc in between) keeps them working, and the real build leaves no bare import
// of a bundled package.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'config', 'vendor-bundles.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-vendor-bundles-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BARE = /(?:\bfrom\s*|\bimport\s*\(\s*)['"](?:typebox|jose)(?:\/[a-z-]+)?['"]/;

function* jsFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}

describe('vendor-bundles', () => {
  it('rewrites static and dynamic imports to a bundle that keeps each entry point working', () => {
    mkdirSync(join(tmp, 'config'));
    copyFileSync(SCRIPT, join(tmp, 'config', 'vendor-bundles.mjs'));
    symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'));
    mkdirSync(join(tmp, 'dist', 'src', 'deep'), { recursive: true });
    const file = join(tmp, 'dist', 'src', 'deep', 'schema.js');
    writeFileSync(
      file,
      [
        "import Type from 'typebox';",
        'import { Compile } from "typebox/compile";',
        "const { Value } = await import('typebox/value');",
        "import { SignJWT, jwtVerify } from 'jose';",
        'const S = Type.Object({ a: Type.Integer({ minimum: 1 }) });',
        "const key = new Uint8Array(32).fill(7);",
        "const jwt = await new SignJWT({ role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).sign(key);",
        'const { payload } = await jwtVerify(jwt, key);',
        'process.stdout.write(JSON.stringify([Compile(S).Check({ a: 2 }), Compile(S).Check({ a: 0 }), Value.Check(S, { a: 3 }), payload.role]));',
        '',
      ].join('\n'),
    );
    const run = (): string => execFileSync(process.execPath, [file], { encoding: 'utf8' });
    execFileSync(process.execPath, [join(tmp, 'config', 'vendor-bundles.mjs')]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(BARE);
    expect(text).toContain("from '../../vendor/bundle/typebox.js'");
    expect(text).toContain('from "../../vendor/bundle/typebox__compile.js"');
    expect(text).toContain("import('../../vendor/bundle/typebox__value.js')");
    expect(text).toContain("from '../../vendor/bundle/jose.js'");
    expect(run()).toBe('[true,false,true,"admin"]');
    // Again without a compile in between: the entries the rewritten files name are still built.
    execFileSync(process.execPath, [join(tmp, 'config', 'vendor-bundles.mjs')]);
    expect(run()).toBe('[true,false,true,"admin"]');
  });

  it('left no bare import of a bundled package in the build', () => {
    const dist = join(ROOT, 'dist');
    if (!existsSync(join(dist, 'src'))) return; // no build here (the *.workers tests need one anyway)
    const bare = [...jsFiles(join(dist, 'src'))].filter((f) => BARE.test(readFileSync(f, 'utf8')));
    expect(bare).toEqual([]);
    expect(existsSync(join(dist, 'vendor', 'bundle', 'typebox.js'))).toBe(true);
    expect(existsSync(join(dist, 'vendor', 'bundle', 'jose.js'))).toBe(true);
  });
});
