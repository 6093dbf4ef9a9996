// The bench's surroundings: sizing from env variables, the repository's paths (the built server,
// bench/results), progress lines on stderr and the commit measured.

import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export function envInt(name: string, def: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return v;
}

// this file runs as dist/bench/lib/env.js: three levels below the repository
export const REPO = resolve(import.meta.dirname, '..', '..', '..');
export const ENTRY = join(REPO, 'dist', 'src', 'main', 'index.js');
export const RESULTS_DIR = join(REPO, 'bench', 'results');

export function progress(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

export function gitCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty === '' ? head : `${head}+dirty`;
  } catch {
    return null;
  }
}
