// Quiver's own hnswlib binding for graphs over quantized codes (src/native/quantized-hnsw.cc,
// compiled at install by src/native/build-quantized.mjs into native/quantized/). Loaded once per
// thread, on first use; where it is absent (no C++ compiler at install), stale for this CPU, or
// fails to load, quantizedHnsw() answers why, and a quantized collection is refused with that
// reason while float32 collections work as before.
//
// Invariant: the binary is loaded only when its build-info.json lists only CPU flags the running
// CPU has (a tree copied to an older CPU gets the reason, never SIGILL).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readCpuFlags } from '../../shared/cpu.js';
import { nativeDir } from '../../shared/native-addon.js';
import { missingCpuFlags } from './hnswlib-loader.js';

/** The row codes a graph holds: one byte per dimension, or one bit. */
export type QuantizedKind = 'int8' | 'binary';

/** The addon's class (see quantized-hnsw.cc for what each method does). */
export interface QuantizedIndexNative {
  initIndex(maxElements: number, m?: number, efConstruction?: number, seed?: number): void;
  readIndexSync(file: string, maxElements?: number): void;
  writeIndexSync(file: string): void;
  /** readIndexSync and writeIndexSync on a libuv thread (the graph must not change until settled). */
  readIndex(file: string, maxElements?: number): Promise<void>;
  writeIndex(file: string): Promise<void>;
  resizeIndex(maxElements: number): void;
  getMaxElements(): number;
  getCurrentCount(): number;
  setEf(ef: number): void;
  addPoint(vector: Float32Array, label: number, replaceDeleted?: boolean): void;
  markDelete(label: number): void;
  unmarkDelete(label: number): void;
  /** `asymmetric` (binary only): the float32 query against the rows' signs. */
  searchKnn(query: Float32Array, k: number, filter?: (label: number) => boolean, asymmetric?: boolean): { neighbors: Uint32Array; distances: Float32Array };
  encode(vector: Float32Array): Uint8Array;
  getCodes(label: number): Uint8Array;
  readonly bytesPerRow: number;
}

export interface QuantizedModule {
  QuantizedIndex: new (kind: QuantizedKind, metric: 'l2' | 'ip', dim: number, alpha: number, offset: number) => QuantizedIndexNative;
}

const require = createRequire(import.meta.url);

/** Where src/native/build-quantized.mjs put the build (QUIVER_QUANTIZED_DIR moves it, as for tests). */
export const DEFAULT_QUANTIZED_DIR = nativeDir('QUIVER_QUANTIZED_DIR', 'quantized');

/** Loads the binding from `dir`, or says why it cannot be used. */
export function loadQuantized(dir: string, cpu: ReadonlySet<string> | null): { lib: QuantizedModule; tier: string } | { reason: string } {
  const infoFile = join(dir, 'build-info.json');
  const rebuild = 'quantization needs the native build made at install with a C++ compiler (npm run native:build)';
  if (!existsSync(infoFile)) return { reason: `no quantized hnswlib build at ${dir}: ${rebuild}` };
  let info: { tier?: unknown; requiredCpuFlags?: unknown };
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8')) as typeof info;
  } catch (e) {
    return { reason: `${infoFile} is unreadable (${e instanceof Error ? e.message : String(e)}): ${rebuild}` };
  }
  const required = info.requiredCpuFlags;
  if (typeof info.tier !== 'string' || !Array.isArray(required) || !required.every((f): f is string => typeof f === 'string')) return { reason: `${infoFile} is not a build record: ${rebuild}` };
  const missing = missingCpuFlags(required, cpu);
  if (missing.length > 0) return { reason: `the quantized hnswlib build needs CPU flags this CPU lacks (${missing.join(' ')}): ${rebuild}` };
  const file = join(dir, 'build', 'Release', 'quantized.node');
  try {
    const lib = require(file) as QuantizedModule;
    if (typeof lib.QuantizedIndex !== 'function') return { reason: `${file} does not export QuantizedIndex: ${rebuild}` };
    return { lib, tier: info.tier };
  } catch (e) {
    return { reason: `${file} failed to load (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): ${rebuild}` };
  }
}

let loaded: ReturnType<typeof loadQuantized> | null = null;

/** This thread's binding, loaded on first use, or the reason there is none. */
export function quantizedHnsw(): ReturnType<typeof loadQuantized> {
  loaded ??= loadQuantized(DEFAULT_QUANTIZED_DIR, readCpuFlags());
  return loaded;
}
