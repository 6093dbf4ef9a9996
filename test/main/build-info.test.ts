// config/build-info.mjs (run by `npm run build`) records the git commit GET / reports: HEAD in a
// git checkout, forty zeros in a tree without .git, even one that sits inside another repository.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'config', 'build-info.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'quiver-build-info-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A project tree holding only the script; returns the commit the script wrote. */
function build(dir: string, env: Record<string, string> = {}): string {
  mkdirSync(join(dir, 'config'), { recursive: true });
  copyFileSync(SCRIPT, join(dir, 'config', 'build-info.mjs'));
  const { QUIVER_COMMIT: _, ...clean } = process.env;
  execFileSync(process.execPath, [join(dir, 'config', 'build-info.mjs')], { env: { ...clean, ...env } });
  return (JSON.parse(readFileSync(join(dir, 'dist', 'build-info.json'), 'utf8')) as { commit: string }).commit;
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();

describe('build-info', () => {
  it('writes forty zeros in a tree without git', () => {
    expect(build(join(tmp, 'plain'))).toBe('0'.repeat(40));
  });

  it('takes the commit from QUIVER_COMMIT when it is 40 hex digits, and ignores anything else', () => {
    expect(build(join(tmp, 'told'), { QUIVER_COMMIT: 'ab'.repeat(20) })).toBe('ab'.repeat(20));
    expect(build(join(tmp, 'told-bad'), { QUIVER_COMMIT: 'not-a-commit' })).toBe('0'.repeat(40));
  });

  it('writes the HEAD commit of a git checkout, and zeros for a copy nested in another repository', () => {
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'config'));
    copyFileSync(SCRIPT, join(repo, 'config', 'build-info.mjs'));
    git(repo, 'add', 'config');
    git(repo, 'commit', '-q', '-m', 'first');
    const head = git(repo, 'rev-parse', 'HEAD');
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(build(repo)).toBe(head);
    expect(build(join(repo, 'vendored', 'quiver'))).toBe('0'.repeat(40));
  });
});
