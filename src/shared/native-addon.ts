// Where the addons that src/native/build-*.mjs compile at install live, and loading the small
// ones (malloc-trim, float-text): each is optional, so a missing or unloadable file means null and
// the caller's JavaScript path, never an error.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './paths.js';

/** native/<folder>, or the folder the environment variable names (tests build elsewhere). */
export function nativeDir(envVar: string, folder: string): string {
  const moved = process.env[envVar];
  return moved ? resolve(moved) : join(PROJECT_ROOT, 'native', folder);
}

/** The exports of <dir>/build/Release/<target>.node, or null where it was not built or does not load. */
export function loadSmallAddon(envVar: string, folder: string, target: string): Record<string, unknown> | null {
  const file = join(nativeDir(envVar, folder), 'build', 'Release', `${target}.node`);
  if (!existsSync(file)) return null;
  try {
    return createRequire(import.meta.url)(file) as Record<string, unknown>;
  } catch {
    return null;
  }
}
