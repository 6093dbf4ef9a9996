// glibc's malloc_trim(0), through the tiny addon that src/native/build-malloc-trim.mjs compiles
// at install into native/malloc-trim/ (QUIVER_MALLOC_TRIM_DIR moves it, as for tests). glibc
// keeps the free chunks an ingest leaves in its arenas (hnswlib's per-insert buffers, the
// backing stores of request bodies): measured at 100k x 128 after an ingest, 85 MiB of the
// arenas were free, and malloc_trim gave 72 MiB of RssAnon back. Absent (not built, not glibc),
// mallocTrim is null and nothing else changes.

import { loadSmallAddon } from './native-addon.js';

interface Addon {
  trim: () => boolean;
  /** Absent from an addon built before it was added (a tree not rebuilt since). */
  mmapThreshold?: (bytes: number) => boolean;
}

function load(): Addon | null {
  const addon = loadSmallAddon('QUIVER_MALLOC_TRIM_DIR', 'malloc-trim', 'malloc_trim');
  if (addon === null || typeof addon.trim !== 'function') return null;
  const out: Addon = { trim: addon.trim as () => boolean };
  if (typeof addon.mmapThreshold === 'function') out.mmapThreshold = addon.mmapThreshold as (bytes: number) => boolean;
  return out;
}

const addon = load();

/** Hands glibc's free arena pages back to the system (every arena: the whole process); null when the addon is absent. */
export const mallocTrim: (() => boolean) | null = addon?.trim ?? null;

/**
 * glibc's initial mmap threshold, which it would otherwise raise: blocks from this size up are
 * mapped on their own and unmapped when freed.
 */
export const MMAP_THRESHOLD_BYTES = 128 * 1024;

/**
 * Fixes glibc's mmap threshold for the whole process (every thread, every arena), so that large
 * blocks go back to the system when freed. Without it glibc raises the threshold to each mmapped
 * block freed, and from then on the megabyte blocks of an ingest (request bodies, packed vector
 * columns, their copies in each thread) are carved from the arenas, which keep the holes:
 * measured at 100k x 128 on 2 workers, arenas at 111 MiB during an ingest against 36 MiB with the
 * threshold fixed. True when set; false without the addon (or an addon built before this call).
 */
export function fixMmapThreshold(bytes = MMAP_THRESHOLD_BYTES): boolean {
  return addon?.mmapThreshold?.(bytes) ?? false;
}
