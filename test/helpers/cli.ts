// Runs the built `quiver` binary (dist/src/cli/index.js) as a child process, as a user would.

import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `quiver ...args`; the environment has no QUIVER_* variables unless `env` gives them. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('QUIVER_')));
  return spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const proc = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  proc.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  proc.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((res) => proc.once('close', (code) => res({ code, stdout, stderr })));
}
