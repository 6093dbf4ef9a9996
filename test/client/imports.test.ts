// The client ships to applications: it may use src/shared (types and leaf helpers shared by
// design) but no server module, so it never drags the server's code or dependencies along.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const clientDir = join(root, 'src/client');

describe('src/client imports', () => {
  it('reach only src/client and src/shared', () => {
    const outside: string[] = [];
    for (const f of readdirSync(clientDir).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(clientDir, f), 'utf8');
      for (const m of text.matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = relative(root, resolve(clientDir, m[1]!));
        if (!target.startsWith('src/client/') && !target.startsWith('src/shared/')) outside.push(`${f}: ${m[1]}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
