// What the bench asks of a running server over REST: create a collection, ingest the dataset in
// batches (wait=true, several in flight), search every query at an ef (recall), count, retrieve.

import { call, callOk, idsOf } from '../common.js';
import { rowJson, type Dataset } from './dataset.js';

export interface CollectionLayout {
  shardNumber?: number;
  replicationFactor?: number;
}

export async function createCollection(url: string, name: string, dim: number, m: number, efConstruct: number, layout: CollectionLayout): Promise<void> {
  const body: Record<string, unknown> = { vectors: { size: dim, distance: 'Euclid' }, hnsw_config: { m, ef_construct: efConstruct } };
  if (layout.shardNumber !== undefined) body.shard_number = layout.shardNumber;
  if (layout.replicationFactor !== undefined) body.replication_factor = layout.replicationFactor;
  await callOk(url, 'PUT', `/collections/${name}`, JSON.stringify(body));
}

/** Upsert bodies of `batch` points each, built once per run (lazily above 200k points, to bound memory). */
export class Batches {
  readonly count: number;
  readonly #cache: (Buffer | undefined)[];
  readonly #keep: boolean;
  /** `payload`: the JSON of point i's payload, sent with it (none: points without payloads). */
  constructor(
    readonly ds: Dataset,
    readonly batch: number,
    readonly payload?: (i: number) => string,
  ) {
    this.count = Math.ceil(ds.spec.n / batch);
    this.#cache = new Array<Buffer | undefined>(this.count);
    this.#keep = ds.spec.n <= 200_000;
  }
  body(b: number): Buffer {
    const hit = this.#cache[b];
    if (hit !== undefined) return hit;
    const { n, dim } = this.ds.spec;
    const parts: string[] = [];
    const payload = this.payload;
    for (let i = b * this.batch; i < Math.min(n, (b + 1) * this.batch); i++) {
      parts.push(`{"id":${i},"vector":${rowJson(this.ds.points, i, dim)}${payload === undefined ? '' : `,"payload":${payload(i)}`}}`);
    }
    const buf = Buffer.from(`{"points":[${parts.join(',')}]}`);
    if (this.#keep) this.#cache[b] = buf;
    return buf;
  }
  ids(b: number): [number, number] {
    return [b * this.batch, Math.min(this.ds.spec.n, (b + 1) * this.batch)];
  }
}

export interface IngestResult {
  points: number;
  seconds: number;
  rate: number;
  /** batches answered 200 (wait=true: durable) */
  acked: number[];
}

/**
 * Upserts batches [from, to) with `concurrency` requests in flight. `stopAfterAcked` ends the run
 * (resolving at once, requests still in flight) when that many batches are acknowledged; the
 * caller then kills the server.
 */
export async function ingest(url: string, name: string, batches: Batches, concurrency: number, from = 0, to = batches.count, stopAfterAcked?: number): Promise<IngestResult> {
  const acked: number[] = [];
  let next = from;
  let points = 0;
  const t0 = performance.now();
  let stop!: () => void;
  const stopped = new Promise<void>((res) => (stop = res));
  const worker = async (): Promise<void> => {
    while (next < to) {
      const b = next++;
      const r = await fetch(`${url}/collections/${name}/points?wait=true`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: batches.body(b),
        signal: AbortSignal.timeout(600_000),
      });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`upsert batch ${b} -> ${r.status}: ${text.slice(0, 300)}`);
      acked.push(b);
      const [lo, hi] = batches.ids(b);
      points += hi - lo;
      if (stopAfterAcked !== undefined && acked.length >= stopAfterAcked) {
        stop();
        await new Promise<never>(() => undefined); // this loop is abandoned with the server
      }
    }
  };
  const all = Promise.all(Array.from({ length: concurrency }, worker));
  if (stopAfterAcked !== undefined) {
    all.catch(() => undefined); // requests fail once the server is killed
    await Promise.race([stopped, all]);
  } else {
    await all;
  }
  const seconds = (performance.now() - t0) / 1000;
  return { points, seconds, rate: points / seconds, acked: [...acked] };
}

export function searchBody(vector: number[], ef: number, k: number): string {
  return JSON.stringify({ vector, limit: k, params: { hnsw_ef: ef } });
}

/** Every body through POST /points/search, `concurrency` at a time: the ids found per query. */
export async function searchAll(url: string, name: string, bodies: string[], concurrency = 8, headers: Record<string, string> = {}): Promise<number[][]> {
  const found: number[][] = new Array<number[]>(bodies.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const q = next++;
        const json = (await callOk(url, 'POST', `/collections/${name}/points/search`, bodies[q], headers)) as { result?: unknown };
        found[q] = idsOf(json.result, `search query ${q}`);
      }
    }),
  );
  return found;
}

/** Polls until collection `name` is green with all `n` vectors indexed; answers the ms it took. */
export async function untilIndexed(url: string, name: string, n: number, label: string): Promise<number> {
  const t = performance.now();
  for (let i = 0; ; i++) {
    const info = (await call(url, 'GET', `/collections/${name}`)).json as { result: { status: string; indexed_vectors_count: number } };
    if (info.result.status === 'green' && info.result.indexed_vectors_count === n) return performance.now() - t;
    if (i > 36_000) throw new Error(`${label}: the graph was not built in an hour`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function countPoints(url: string, name: string): Promise<number> {
  const r = (await callOk(url, 'POST', `/collections/${name}/points/count`, JSON.stringify({ exact: true }))) as { result?: { count?: unknown } };
  const c = r.result?.count;
  if (typeof c !== 'number') throw new Error(`count answered ${JSON.stringify(r).slice(0, 200)}`);
  return c;
}

/** The ids among `ids` the server does not return (POST /points, in chunks). */
export async function missingIds(url: string, name: string, ids: number[]): Promise<number[]> {
  const missing: number[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const r = (await callOk(url, 'POST', `/collections/${name}/points`, JSON.stringify({ ids: chunk, with_payload: false, with_vector: false }))) as { result?: unknown };
    const got = new Set(idsOf(r.result, 'retrieve'));
    for (const id of chunk) if (!got.has(id)) missing.push(id);
  }
  return missing;
}
