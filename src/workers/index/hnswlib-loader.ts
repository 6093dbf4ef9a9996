// Which hnswlib-node build a thread uses: the one compiled at install for this machine's vector
// instructions (native/hnswlib/, made by src/native/build-hnswlib.mjs), or the portable npm build.
//
// Invariants: the native build is loaded only when its build-info.json is present, names the
// installed hnswlib-node version, and lists only CPU flags the running CPU has (Linux
// /proc/cpuinfo), so a tree copied to an older CPU falls back instead of dying of SIGILL.
// Everything else falls back to the portable build with the reason, except mode 'native', which
// turns each of those reasons into a start-up error. Both builds share one API (same sources).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type hnswlibPortable from 'hnswlib-node';
import { readCpuFlags } from '../../shared/cpu.js';
import { nativeDir } from '../../shared/native-addon.js';
import type { HnswBuild, HnswBuildMode } from '../../shared/protocol.js';

export type HnswlibModule = typeof hnswlibPortable;

/** What src/native/build-hnswlib.mjs writes beside the addon. */
interface BuildInfo {
  hnswlibVersion: string;
  tier: string;
  cflags: string[];
  requiredCpuFlags: string[];
}

const require = createRequire(import.meta.url);
const PORTABLE_VERSION = (require('hnswlib-node/package.json') as { version: string }).version;

/** Where src/native/build-hnswlib.mjs put the build (QUIVER_NATIVE_DIR moves both, as for tests). */
export const DEFAULT_NATIVE_DIR = nativeDir('QUIVER_NATIVE_DIR', 'hnswlib');

/** The flags `required` names that `cpu` lacks (all of them when the CPU's flags are unknown). */
export function missingCpuFlags(required: readonly string[], cpu: ReadonlySet<string> | null): string[] {
  return required.filter((f) => cpu === null || !cpu.has(f));
}

function isBuildInfo(v: unknown): v is BuildInfo {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const strings = (a: unknown): boolean => Array.isArray(a) && a.every((s) => typeof s === 'string');
  return typeof o.hnswlibVersion === 'string' && typeof o.tier === 'string' && strings(o.cflags) && strings(o.requiredCpuFlags);
}

export interface LoadOptions {
  mode: HnswBuildMode;
  nativeDir?: string;
  /** The running CPU's flags; read from /proc/cpuinfo when left out. */
  cpuFlags?: ReadonlySet<string> | null;
}

const PORTABLE: Omit<HnswBuild, 'fallbackReason'> = { kind: 'portable', description: 'portable (npm)', flags: '' };

/** Chooses and loads a build. Throws only in mode 'native' when the native build cannot be used. */
export function loadHnswlib(opts: LoadOptions): { lib: HnswlibModule; build: HnswBuild } {
  if (opts.mode === 'portable') return { lib: portable(), build: { ...PORTABLE, fallbackReason: null } };
  const dir = opts.nativeDir ?? DEFAULT_NATIVE_DIR;
  const native = tryNative(dir, opts.cpuFlags === undefined ? readCpuFlags() : opts.cpuFlags);
  if ('lib' in native) return native;
  if (opts.mode === 'native') throw new Error(`SERVICE_HNSW_BUILD=native, but the native hnswlib build cannot be used: ${native.reason}`);
  return { lib: portable(), build: { ...PORTABLE, fallbackReason: native.reason } };
}

/** Required only when chosen, so a thread using the native build never loads both. */
function portable(): HnswlibModule {
  return require('hnswlib-node') as HnswlibModule;
}

function tryNative(dir: string, cpu: ReadonlySet<string> | null): { lib: HnswlibModule; build: HnswBuild } | { reason: string } {
  const infoFile = join(dir, 'build-info.json');
  if (!existsSync(infoFile)) return { reason: `no native build at ${dir} (run npm run native:build)` };
  let info: unknown;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8'));
  } catch (e) {
    return { reason: `${infoFile} is unreadable: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isBuildInfo(info)) return { reason: `${infoFile} is not a build record` };
  if (info.hnswlibVersion !== PORTABLE_VERSION) {
    return { reason: `the native build is of hnswlib-node ${info.hnswlibVersion}, ${PORTABLE_VERSION} is installed (run npm run native:build)` };
  }
  const missing = missingCpuFlags(info.requiredCpuFlags, cpu);
  if (missing.length > 0) {
    return { reason: cpu === null ? 'the CPU flags cannot be read (no /proc/cpuinfo)' : `this CPU lacks ${missing.join(' ')}` };
  }
  const file = join(dir, 'build', 'Release', 'addon.node');
  let lib: HnswlibModule;
  try {
    lib = require(file) as HnswlibModule;
    if (typeof lib.HierarchicalNSW !== 'function') return { reason: `${file} does not export HierarchicalNSW` };
  } catch (e) {
    return { reason: `${file} failed to load: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
  }
  const flags = info.cflags.join(' ');
  return { lib, build: { kind: 'native', description: `native (${info.tier}: ${flags})`, flags, fallbackReason: null } };
}

let selected: { lib: HnswlibModule; build: HnswBuild } | null = null;

/** Chooses this thread's build once (a worker does it at start from its init data). */
export function selectHnswlib(mode: HnswBuildMode): HnswBuild {
  selected ??= loadHnswlib({ mode });
  return selected.build;
}

/** This thread's hnswlib: the chosen build, or auto's choice when nothing chose one. */
export function hnswlib(): HnswlibModule {
  selected ??= loadHnswlib({ mode: 'auto' });
  return selected.lib;
}

/** Which build hnswlib() gives. */
export function hnswBuild(): HnswBuild {
  selected ??= loadHnswlib({ mode: 'auto' });
  return selected.build;
}
