// @ts-check
// The x86-64 microarchitecture levels both vector-instruction builds (build-hnswlib.mjs,
// build-quantized.mjs) compile for, and the running CPU's flags to choose among them. Plain
// JavaScript on Node built-ins only: it runs before `tsc`, and under `npm ci --omit=dev`.
//
// A level instead of -march=native: the loader must know exactly which instructions a binary may
// contain, to check them against /proc/cpuinfo of whatever machine the installed tree is later
// copied to (see build-hnswlib.mjs for the whole argument).

import { readFileSync } from 'node:fs';

// The x86-64 psABI levels, as /proc/cpuinfo names their features (SSE3 is "pni"; LZCNT is
// reported as "abm").
const V2 = ['cx16', 'lahf_lm', 'popcnt', 'pni', 'sse4_1', 'sse4_2', 'ssse3'];
const V3 = [...V2, 'avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave'];
const V4 = [...V3, 'avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl'];

/**
 * Builds to try, best first: a level's -march lets gcc use exactly that level's instructions, and
 * `requires` is the level's definition, so the loader's check is complete.
 * @type {{ name: string, cflags: string[], requires: string[] }[]}
 */
export const X86_TIERS = [
  { name: 'x86-64-v4', cflags: ['-march=x86-64-v4'], requires: V4 },
  { name: 'x86-64-v3', cflags: ['-march=x86-64-v3'], requires: V3 },
];

/** The compiler's defaults for this architecture: runs on any CPU of it. */
export const PORTABLE_TIER = { name: 'portable', cflags: /** @type {string[]} */ ([]), requires: /** @type {string[]} */ ([]) };

/** @returns {Set<string>} */
export function cpuFlags() {
  const text = readFileSync('/proc/cpuinfo', 'utf8');
  const line = text.split('\n').find((l) => /^flags\s*:/.test(l));
  if (line === undefined) throw new Error('/proc/cpuinfo has no flags line');
  return new Set(line.slice(line.indexOf(':') + 1).trim().split(/\s+/));
}
