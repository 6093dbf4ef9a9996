// The import graph of src/, read from the files themselves (every relative `import … from`,
// `export … from`, side-effect `import '…'` and dynamic `import('…')`, type-only ones too), for
// the tests that hold the tree to its rules (import cycles, layering). Generated gRPC types are
// left out: they are not hand-written, and recursive messages refer to each other by type.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const SRC = join(ROOT, 'src');
export const GENERATED = join(SRC, 'shared', 'grpc', 'generated');

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === GENERATED ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The relative imports of one file, resolved to source paths (`./x.js` is `./x.ts`). */
export function importsOf(file: string, text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1]!;
    out.add(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return [...out];
}

/** Every source file under src/ (generated ones aside) with the files it imports. */
export function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of sourceFiles(SRC)) graph.set(f, importsOf(f, readFileSync(f, 'utf8')));
  return graph;
}

