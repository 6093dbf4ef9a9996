// The running CPU's instruction-set flags, as Linux names them in /proc/cpuinfo (avx2, fma, ...).
// Read by the hnswlib loader in each worker and by GET /telemetry.

import { readFileSync } from 'node:fs';

/** The flags of the first CPU listed, or null where they cannot be read (not Linux). */
export function readCpuFlags(cpuinfo = '/proc/cpuinfo'): Set<string> | null {
  try {
    const line = readFileSync(cpuinfo, 'utf8')
      .split('\n')
      .find((l) => /^(flags|Features)\s*:/.test(l));
    return line === undefined ? null : new Set(line.slice(line.indexOf(':') + 1).trim().split(/\s+/));
  } catch {
    return null;
  }
}
