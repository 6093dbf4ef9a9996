// package.json's engines must be the truth for what `npm ci --omit=dev` installs: every runtime
// package in the lockfile accepts every Node that Quiver says it runs on (checked at the range's
// floor, at this Node, and at the next majors), so a production install on Node 20 warns of none.
// Packages that declare a newer Node are overridden (package.json "overrides") to versions that
// declare Node 20 and keep the API their parents call.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }> };

describe('Node engines', () => {
  it('package.json states a range this Node satisfies', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('every runtime package in the lockfile accepts the Nodes package.json states', () => {
    const floor = semver.minVersion(pkg.engines.node)!.version;
    const nodes = [floor, process.version, '22.0.0', '24.0.0'].filter((v) => semver.satisfies(v, pkg.engines.node));
    const refusing: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.dev === true || entry.engines === undefined || Array.isArray(entry.engines) || entry.engines.node === undefined) continue;
      checked++;
      const range = entry.engines.node;
      for (const v of nodes) if (!semver.satisfies(v, range)) refusing.push(`${path}@${entry.version} wants node ${range}, not ${v}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(refusing).toEqual([]);
  });
});
