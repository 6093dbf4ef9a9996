// The source tree's floor plan, checked (docs/architecture.md, "The source tree"): each folder
// under src/ holds the code of one set of threads, and imports only go down the layers:
// - src/shared: what every thread runs; it imports nothing from another folder of src/;
// - src/workers: what shard workers run; it may import src/shared only;
// - src/control: the etcd thread's control plane (cluster mode); src/shared only;
// - src/main: the main thread; it may import src/shared and src/workers (a module both
//   could run belongs in src/shared, but the main thread may start what workers run in-process).
// And no hand-written file, source, test or bench, is over 500 lines: a file past it is split by
// concern in the change that grows it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, ROOT, SRC, srcGraph } from '../helpers/import-graph.js';

/** For each folder of src/ with rules: the other folders of src/ it may import. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  shared: [],
  workers: ['shared'],
  control: ['shared'],
  main: ['shared', 'workers'],
};

/** The folder of src/ a path lies in (`main`, `shared`, ...), or null outside src/. */
function roomOf(path: string): string | null {
  const r = relative(SRC, path);
  if (r.startsWith('..')) return null;
  return r.split(sep)[0] ?? null;
}

/** `from -> to` for every import that breaks MAY_IMPORT. */
function violations(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    const from = roomOf(file);
    const allowed = from === null ? undefined : MAY_IMPORT[from];
    if (allowed === undefined) continue;
    for (const dep of deps) {
      const to = roomOf(dep);
      if (to === null || to === from || allowed.includes(to)) continue;
      out.push(`${relative(ROOT, file)} -> ${relative(ROOT, dep)}`);
    }
  }
  return out.sort();
}

const MAX_LINES = 500;

/** Hand-written files under the given folders (generated gRPC types and build output aside). */
function handWritten(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === GENERATED || e.name === 'node_modules' || e.name === 'results' ? [] : handWritten(p);
    return /\.(ts|mts|mjs|js|cc|h|css|html)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('layering', () => {
  it('the checker sees a forbidden import and lets allowed ones pass', () => {
    const g = new Map([
      [join(SRC, 'workers', 'a.ts'), [join(SRC, 'main', 'b.ts'), join(SRC, 'shared', 'c.ts')]],
      [join(SRC, 'shared', 'c.ts'), [join(SRC, 'workers', 'a.ts')]],
      [join(SRC, 'main', 'b.ts'), [join(SRC, 'workers', 'a.ts'), join(SRC, 'shared', 'c.ts')]],
      [join(SRC, 'control', 'd.ts'), [join(SRC, 'workers', 'a.ts')]],
    ]);
    expect(violations(g)).toEqual(['src/control/d.ts -> src/workers/a.ts', 'src/shared/c.ts -> src/workers/a.ts', 'src/workers/a.ts -> src/main/b.ts']);
  });

  it('src/shared, src/workers and src/control import only the folders below them', () => {
    expect(violations(srcGraph())).toEqual([]);
  });

  it('every folder with rules exists (a rename would silently empty a rule)', () => {
    for (const room of Object.keys(MAY_IMPORT)) expect(statSync(join(SRC, room)).isDirectory(), room).toBe(true);
  });

  it(`no hand-written file in src/, test/ or bench/ is over ${MAX_LINES} lines`, () => {
    const long = ['src', 'test', 'bench']
      .flatMap((d) => handWritten(join(ROOT, d)))
      .map((f) => ({ f: relative(ROOT, f), n: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n} lines`);
    expect(long).toEqual([]);
  });
});
