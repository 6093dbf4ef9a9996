// glibc's malloc_trim(0), through the tiny addon that src/native/build-malloc-trim.mjs compiles
// at install into native/malloc-trim/ (QUIVER_MALLOC_TRIM_DIR moves it, as for tests). glibc
// keeps the free chunks an ingest leaves in its arenas (hnswlib's per-insert buffers, the
// backing stores of request bodies): measured at 100k x 128 after an ingest, 85 MiB of the
// arenas were free, and malloc_trim gave 72 MiB of RssAnon back. Absent (not built, not glibc),
// mallocTrim is null and nothing else changes.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function load(): (() => boolean) | null {
  const dir = process.env.QUIVER_MALLOC_TRIM_DIR ? resolve(process.env.QUIVER_MALLOC_TRIM_DIR) : join(projectRoot(), 'native', 'malloc-trim');
  const file = join(dir, 'build', 'Release', 'malloc_trim.node');
  if (!existsSync(file)) return null;
  try {
    const addon = createRequire(import.meta.url)(file) as { trim?: unknown };
    return typeof addon.trim === 'function' ? (addon.trim as () => boolean) : null;
  } catch {
    return null;
  }
}

/** Hands glibc's free arena pages back to the system (every arena: the whole process); null when the addon is absent. */
export const mallocTrim: (() => boolean) | null = load();
