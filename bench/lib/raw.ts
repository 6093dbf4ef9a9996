// Raw hnswlib-node in this process, one thread, on the bench's data: the baseline every ratio is
// taken against. Each available build (the portable npm one, and the one compiled for this CPU
// when src/workers/index/hnswlib-loader.ts can use it) builds its own index (insert rate) and
// searches it at each ef (recall@10 and queries per second over a fixed window).

import { progress } from '../common.js';
import { loadHnswlib, type HnswlibModule } from '../../src/workers/index/hnswlib-loader.js';
import { recallAtK, rowOf, type Dataset } from './dataset.js';
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
  /** RssAnon growth of this process while the index was built (vectors + graph + overhead) */
  rssAnonGrowth: number;
  search: RawEf[];
}

export interface RawOptions {
  m: number;
  efConstruction: number;
  efs: number[];
  k: number;
  windowS: number;
  /** first build only: later builds in the same process reuse freed memory, so their growth means little */
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

/** The portable build, then the native one when it loads here (else the reason it does not). */
export function rawHnswlib(ds: Dataset, truth: number[][], o: RawOptions): { builds: RawBuild[]; nativeUnavailable: string | null } {
  const builds: RawBuild[] = [];
  const portable = loadHnswlib({ mode: 'portable' });
  builds.push(measure(portable.lib, 'portable', portable.build.description, ds, truth, o));
  const native = loadHnswlib({ mode: 'auto' });
  if (native.build.kind !== 'native') return { builds, nativeUnavailable: native.build.fallbackReason ?? 'not available' };
  global.gc?.();
  builds.push(measure(native.lib, 'native', native.build.description, ds, truth, o));
  return { builds, nativeUnavailable: null };
}
