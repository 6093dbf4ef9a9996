// This process's memory as Linux reports it (/proc/self/status): RssAnon is the anonymous
// resident memory (JS heaps of every thread, native allocations such as hnswlib's graphs,
// SharedArrayBuffers), without the file-mapped LMDB pages that VmRSS also counts. Issue 14's
// memory targets are in RssAnon. Elsewhere (no /proc) RssAnon is null.

import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  rss_anon_bytes: number | null;
  rss_bytes: number;
}

export function processMemory(): ProcessMemory {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: only Node's own RSS figure.
  }
  const kb = (field: string): number | null => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return m === null ? null : Number(m[1]) * 1024;
  };
  return { rss_anon_bytes: kb('RssAnon'), rss_bytes: kb('VmRSS') ?? process.memoryUsage.rss() };
}
