// bench/filters.ts's configuration (BENCH_* env variables, listed in its header) and its data's
// shape: the selectivity fields every point carries, their filters, and the two collections.

import { availableParallelism } from 'node:os';
import { envInt } from '../common.js';

export const N = envInt('BENCH_N', 100_000);
export const DIM = envInt('BENCH_DIM', 128);
export const QUERIES = envInt('BENCH_QUERIES', 100);
export const SECONDS = envInt('BENCH_SECONDS', 5);
export const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
export const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
export const SEQ = envInt('BENCH_SEQ_REQUESTS', 200);
export const INGEST_CONCURRENCY = envInt('BENCH_INGEST_CONCURRENCY', 4);
export const BATCH = envInt('BENCH_BATCH', 1000);
export const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 3600);
export const FULL_SCAN_THRESHOLD = process.env.BENCH_FULL_SCAN_THRESHOLD ? envInt('BENCH_FULL_SCAN_THRESHOLD', 0, 0) : null;
export const FIELD_TYPE = ((): 'keyword' | 'integer' => {
  const raw = process.env.BENCH_FIELD_TYPE ?? '';
  if (raw === '' || raw === 'keyword') return 'keyword';
  if (raw === 'integer') return 'integer';
  throw new Error(`BENCH_FIELD_TYPE must be 'keyword' or 'integer', got '${raw}'`);
})();
export const K = 10;
export const SCROLL_LIMIT = 100;
export const DATA_SEED = 1;
export const QUERY_SEED = 2;

/** The selectivity fields: point i matches `field` when i % every === 0. */
export const LEVELS = [
  { field: 'half', label: '50%', every: 2 },
  { field: 'sel10', label: '10%', every: 10 },
  { field: 'sel1', label: '1%', every: 100 },
  { field: 'sel01', label: '0.1%', every: 1000 },
] as const;
export type Level = (typeof LEVELS)[number];

/** The field's value on matching and other points. */
const YES: string | number = FIELD_TYPE === 'keyword' ? 'yes' : 1;
const NO: string | number = FIELD_TYPE === 'keyword' ? 'no' : 0;

export const COLLECTIONS = [
  { name: 'filters_noindex', indexed: false },
  { name: 'filters_indexed', indexed: true },
] as const;
export type CollectionName = (typeof COLLECTIONS)[number]['name'];

export function matches(level: Level, i: number): boolean {
  return i % level.every === 0;
}

export function filterOf(level: Level): { must: { key: string; match: { value: string | number } }[] } {
  return { must: [{ key: level.field, match: { value: YES } }] };
}

export function payloadJson(i: number): string {
  return '{' + LEVELS.map((l) => `${JSON.stringify(l.field)}:${JSON.stringify(matches(l, i) ? YES : NO)}`).join(',') + '}';
}
