// Every design reference in the code resolves inside the repository (docs/README.md): a file
// under docs/ that exists, a numbered section it has (`docs/cluster.md section 6` needs a
// heading `## 6. ...`, `section 7.3` a `### 7.3 ...`), and a heading quoted after the name
// (`docs/architecture.md, "The source tree"`) that it has. And nothing cites the design notes the
// project started from, which live outside the repository.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/import-graph.js';

const DOCS = join(ROOT, 'docs');

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' || e.name === 'results' ? [] : textFiles(p);
    return /\.(ts|mts|mjs|js|sh|proto|md|json|yml)$|^run$/.test(e.name) ? [p] : [];
  });
}

const CITING = [...['src', 'test', 'bench', 'config', '.ci', 'proto'].flatMap((d) => textFiles(join(ROOT, d))), join(ROOT, 'README.md')];

/** `docs/x.md`, then optionally ` section N[.M]` (or `sections N[.M]`), or `, "Heading"`. */
const REF = /docs\/([a-z-]+\.md)(?: sections? (\d+(?:\.\d+)?)|, "([^"]+)")?/g;

/** The section numbers and heading titles of one docs file. */
function outline(file: string): { numbers: Set<string>; titles: Set<string> } {
  const numbers = new Set<string>();
  const titles = new Set<string>();
  for (const line of readFileSync(join(DOCS, file), 'utf8').split('\n')) {
    const h = /^#{1,4} (.+)$/.exec(line);
    if (h === null) continue;
    const title = h[1]!.trim();
    const n = /^(\d+(?:\.\d+)?)\.? /.exec(title);
    if (n !== null) numbers.add(n[1]!);
    titles.add(title.replace(/^\d+(?:\.\d+)?\.? /, ''));
  }
  return { numbers, titles };
}

/** Every reference that does not resolve, as `file:line: reference (why)`. */
function unresolved(docs: ReadonlySet<string>, files: readonly string[]): string[] {
  const outlines = new Map<string, ReturnType<typeof outline>>();
  const out: string[] = [];
  for (const f of files) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(REF)) {
          const [ref, doc, section, heading] = m as unknown as [string, string, string | undefined, string | undefined];
          const where = `${relative(ROOT, f)}:${i + 1}: ${ref}`;
          if (!docs.has(doc)) {
            out.push(`${where} (no such file)`);
            continue;
          }
          let o = outlines.get(doc);
          if (o === undefined) outlines.set(doc, (o = outline(doc)));
          if (section !== undefined && !o.numbers.has(section)) out.push(`${where} (no section ${section})`);
          if (heading !== undefined && !o.titles.has(heading)) out.push(`${where} (no heading "${heading}")`);
        }
      });
  }
  return out;
}

describe('design references', () => {
  const docs = new Set(readdirSync(DOCS).filter((f) => f.endsWith('.md')));

  it('docs/ holds the design and its index names every file', () => {
    for (const f of ['README.md', 'architecture.md', 'request-path.md', 'storage.md', 'cluster.md', 'fault-model.md', 'decisions.md', 'interface.md']) expect(docs.has(f), f).toBe(true);
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    for (const f of docs) if (f !== 'README.md') expect(index, f).toContain(`(${f})`);
  });

  it('the checker finds a missing file, section and heading', () => {
    const probe = join(ROOT, 'test', 'shared', 'docs-refs.test.ts');
    const fake = new Set(['cluster.md', 'architecture.md']);
    // This file's own text holds examples of each kind; only the bad ones are reported.
    expect(unresolved(fake, [probe]).some((r) => r.includes('docs/x.md (no such file)'))).toBe(true);
    expect(unresolved(new Set(['cluster.md']), [probe]).filter((r) => r.includes('docs/cluster.md section 6'))).toEqual([]);
    const bad = 'docs/cluster.md section 99 and docs/architecture.md, "No such heading"';
    expect(bad.length).toBeGreaterThan(0);
    expect(unresolved(fake, [probe]).some((r) => r.includes('(no section 99)'))).toBe(true);
    expect(unresolved(fake, [probe]).some((r) => r.includes('(no heading "No such heading")'))).toBe(true);
  });

  it('every docs/ reference in the code, tests, scripts and README resolves', () => {
    expect(unresolved(docs, CITING.filter((f) => !f.endsWith('docs-refs.test.ts')))).toEqual([]);
  });

  it('nothing cites the design notes outside the repository', () => {
    const outside = /\b(CLUSTER|DESIGN|STYLE)\.md\b|shared\/spec\/|\.\.\/shared\/(DESIGN|CLUSTER|STYLE|spec|reference)/;
    const hits = CITING.filter((f) => !f.endsWith('docs-refs.test.ts')).flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${relative(ROOT, f)}:${i + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
