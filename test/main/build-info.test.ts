// scripts/build-info.mjs (run by `npm run build`) records the git commit GET / reports: HEAD in a
// git checkout, forty zeros in a tree without .git, even one that sits inside another repository.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'build-info.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-build-info-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A project tree holding only the script; returns the commit the script wrote. */
function build(dir: string): string {
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(SCRIPT, join(dir, 'scripts', 'build-info.mjs'));
  execFileSync(process.execPath, [join(dir, 'scripts', 'build-info.mjs')]);
  return (JSON.parse(readFileSync(join(dir, 'dist', 'build-info.json'), 'utf8')) as { commit: string }).commit;
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

describe('build-info', () => {
  it('writes forty zeros in a tree without git', () => {
    expect(build(join(tmp, 'plain'))).toBe('0'.repeat(40));
  });

  it('writes the HEAD commit of a git checkout, and zeros for a copy nested in another repository', () => {
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'scripts'));
    copyFileSync(SCRIPT, join(repo, 'scripts', 'build-info.mjs'));
    git(repo, 'add', 'scripts');
    git(repo, 'commit', '-q', '-m', 'first');
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(build(repo)).toBe(head);
    expect(build(join(repo, 'vendored', 'quiver'))).toBe('0'.repeat(40));
  });
});
