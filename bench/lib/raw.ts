// Raw hnswlib-node, one thread in a child process of its own, on the bench's data: the baseline
// every ratio is taken against. Each available build (the portable npm one, and the one compiled for this CPU
// when src/workers/index/hnswlib-loader.ts can use it) builds its own index (insert rate) and
// searches it at each ef (recall@10 and queries per second over a fixed window).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { progress, trackChild } from '../common.js';
import { loadHnswlib, type HnswlibModule } from '../../src/workers/index/hnswlib-loader.js';
import { recallAtK, rowOf, type Dataset, type DatasetSpec } from './dataset.js';
import { memoryOf } from './proc.js';

export interface RawEf {
  ef: number;
  recall: number;
  qps: number;
  /** CPU microseconds per search (this thread: process CPU over the window) */
  cpuUsPerQuery: number;
}

export interface RawBuild {
  build: 'portable' | 'native';
  description: string;
  insertRate: number;
  buildS: number;
  /** RssAnon growth of its process while the index was built (vectors + graph + overhead) */
  rssAnonGrowth: number;
  search: RawEf[];
}

export interface RawOptions {
  m: number;
  efConstruction: number;
  efs: number[];
  k: number;
  windowS: number;
  seed: number;
}

type Index = InstanceType<HnswlibModule['HierarchicalNSW']>;

function measure(lib: HnswlibModule, kind: 'portable' | 'native', description: string, ds: Dataset, truth: number[][], o: RawOptions): RawBuild {
  const { n, dim, queries } = ds.spec;
  const before = memoryOf(process.pid).rssAnon;
  const ix: Index = new lib.HierarchicalNSW('l2', dim);
  ix.initIndex(n, o.m, o.efConstruction, o.seed);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    ix.addPoint(rowOf(ds.points, i, dim), i);
    if (i > 0 && i % 25_000 === 0) progress(`raw ${kind}: ${i} / ${n} inserted`);
  }
  const buildS = (performance.now() - t0) / 1000;
  const rssAnonGrowth = memoryOf(process.pid).rssAnon - before;
  const qrows = Array.from({ length: queries }, (_, q) => rowOf(ds.queries, q, dim));
  const search: RawEf[] = [];
  for (const ef of o.efs) {
    ix.setEf(ef);
    const found = qrows.map((q) => ix.searchKnn(q, o.k).neighbors);
    const recall = recallAtK(found, truth);
    let done = 0;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    while (performance.now() - w0 < o.windowS * 1000) {
      for (const q of qrows) ix.searchKnn(q, o.k);
      done += qrows.length;
    }
    const wall = (performance.now() - w0) / 1000;
    const c = process.cpuUsage(c0);
    search.push({ ef, recall, qps: done / wall, cpuUsPerQuery: (c.user + c.system) / done });
  }
  progress(`raw ${kind}: insert ${(n / buildS).toFixed(0)}/s; ${search.map((s) => `ef ${s.ef}: ${s.qps.toFixed(0)} QPS recall ${s.recall.toFixed(3)}`).join(', ')}`);
  return { build: kind, description, insertRate: n / buildS, buildS, rssAnonGrowth, search };
}

/**
 * Runs in bench/lib/raw-child.ts, one process per build: the bench stays responsive to signals
 * and its timeout while an index builds, and each build's RssAnon growth is its own.
 */
export function measureBuild(kind: 'portable' | 'native', ds: Dataset, truth: number[][], o: RawOptions): RawBuild | { unavailable: string } {
  const loaded = loadHnswlib({ mode: kind === 'portable' ? 'portable' : 'auto' });
  if (loaded.build.kind !== kind) return { unavailable: loaded.build.fallbackReason ?? 'not available' };
  return measure(loaded.lib, kind, loaded.build.description, ds, truth, o);
}

export interface RawChildConfig {
  kind: 'portable' | 'native';
  spec: DatasetSpec;
  truth: number[][];
  opts: RawOptions;
}

function runRawChild(config: RawChildConfig, scratch: string): Promise<RawBuild | { unavailable: string }> {
  const file = join(scratch, `raw-${config.kind}.json`);
  writeFileSync(file, JSON.stringify(config));
  const proc = spawn(process.execPath, [join(import.meta.dirname, 'raw-child.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  trackChild(proc);
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((res, rej) =>
    proc.once('exit', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('result '));
      if (code !== 0 || line === undefined) rej(new Error(`raw ${config.kind} child exited with ${code ?? signal}`));
      else res(JSON.parse(line.slice(7)) as RawBuild | { unavailable: string });
    }),
  );
}

/** The portable build, then the native one when it loads here (else the reason it does not). */
export async function rawHnswlib(ds: Dataset, truth: number[][], o: RawOptions, scratch: string): Promise<{ builds: RawBuild[]; nativeUnavailable: string | null }> {
  const builds: RawBuild[] = [];
  let nativeUnavailable: string | null = null;
  for (const kind of ['portable', 'native'] as const) {
    const r = await runRawChild({ kind, spec: ds.spec, truth, opts: o }, scratch);
    if ('unavailable' in r) {
      if (kind === 'portable') throw new Error(`the portable hnswlib-node build did not load: ${r.unavailable}`);
      nativeUnavailable = r.unavailable;
    } else builds.push(r);
  }
  return { builds, nativeUnavailable };
}
