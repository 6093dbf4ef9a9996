// No source file under src/ takes part in an import cycle (issue 12). The graph is read from the
// files themselves: every relative `import … from`, `export … from`, side-effect `import '…'`
// and dynamic `import('…')`. Type-only imports count too: a cycle through types still ties the
// modules' meaning together, and none is needed today. The one exception is
// src/shared/grpc/generated/: types generated from the .proto files, where recursive messages
// (Filter and Condition, Value and ListValue, PrefetchQuery) refer to each other by type only.
// Each strongly connected component of more than one file (or a file importing itself) is a
// cycle, listed with one loop through it.

import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, importsOf, ROOT, srcGraph } from '../helpers/import-graph.js';

/** Tarjan's strongly connected components; those with a cycle, each as one loop of files. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (;;) {
      const w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
      if (w === v) break;
    }
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(loopThrough(graph, new Set(scc)));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One loop inside a component, from its first file (sorted) back to it: a shortest one, by BFS. */
function loopThrough(graph: Map<string, string[]>, scc: Set<string>): string[] {
  const start = [...scc].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!scc.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...scc].sort();
}

const rel = (p: string): string => relative(ROOT, p);

describe('import cycles', () => {
  it('the checker finds a cycle, a self-import, and none in a tree', () => {
    const g = new Map([
      ['/a', ['/b']],
      ['/b', ['/c', '/d']],
      ['/c', ['/a']],
      ['/d', []],
      ['/e', ['/e']],
    ]);
    expect(cycles(g)).toEqual([['/a', '/b', '/c', '/a'], ['/e', '/e']]);
    expect(cycles(new Map([['/a', ['/b']], ['/b', []]]))).toEqual([]);
    const text = "import type { A } from './a.js';\nimport {\n  B,\n} from '../b.js';\nexport * from './c.js';\nimport './d.js';\nconst e = await import('./e.js');\nimport x from 'node:fs';";
    expect(importsOf('/p/q/f.ts', text).sort()).toEqual(['/p/b.ts', '/p/q/a.ts', '/p/q/c.ts', '/p/q/d.ts', '/p/q/e.ts']);
  });

  it('every relative import under src/ names a source file', () => {
    const graph = srcGraph();
    const dangling = [...graph].flatMap(([f, deps]) => deps.filter((d) => !graph.has(d) && !d.startsWith(GENERATED)).map((d) => `${rel(f)} -> ${rel(d)}`));
    expect(dangling).toEqual([]);
  });

  it('no source file under src/ takes part in an import cycle', () => {
    const found = cycles(srcGraph()).map((loop) => loop.map(rel).join(' -> '));
    expect(found).toEqual([]);
  });
});
