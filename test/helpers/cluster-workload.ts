// The fault suite's workload (docs/cluster.md section 10) through the official REST client, round-robin
// over the nodes: writers upsert unique ids of 32-d Cosine vectors (half wait=true) and now and then
// delete one they had acknowledged; readers search with a stored vector and expect its id as the
// exact top-1; a checker reads each `completed` write back at once with `consistency: all`. Every
// acknowledged id and every request's outcome and time is kept, for the checks and the figures.
// Invariant: an id is written by one upsert only, so an id is in exactly one of acked, maybe
// (the write failed: it may or may not be stored) and never-sent.

import { QdrantClient } from '@qdrant/js-client-rest';
import { rng } from './random.js';

export const DIM = 32;
/** Points per upsert request. */
const BATCH = 4;

/** The stored vector of an id: deterministic, so any check can rebuild it. */
export function vectorOf(id: number): number[] {
  const r = rng(id * 7919 + 17);
  return Array.from({ length: DIM }, () => r() * 2 - 1);
}

export interface Outcome {
  /** ms since the workload started, when the request ended. */
  at: number;
  node: number;
  ok: boolean;
  error?: string;
  /** How long the request took (ms). */
  ms?: number;
}

export interface WorkloadOptions {
  urls: string[];
  collection: string;
  /** Ids known applied everywhere before the load: the readers' top-1 targets. */
  seedIds: number[];
  /** The first id the writers may use (ids are unique across the whole run). */
  firstId: number;
  writers?: number;
  readers?: number;
  /** How long a reader waits for an answer before counting the query failed (default 2 s). */
  readTimeoutMs?: number;
}

/** A client error as `<status> <Qdrant's message>`. */
export function describeError(err: unknown): string {
  const e = err as { status?: number; message?: string; data?: { status?: { error?: string } } };
  const msg = e.data?.status?.error ?? e.message ?? String(err);
  return e.status === undefined ? msg : `${e.status} ${msg}`;
}

export class Workload {
  readonly t0 = Date.now();
  /** Acknowledged upserts: id -> the status the write answered. */
  readonly acked = new Map<number, 'acknowledged' | 'completed'>();
  /** Ids of upserts that failed or timed out: each may or may not be stored. */
  readonly maybe = new Set<number>();
  /** Ids whose delete was acknowledged (completed): they must never come back. */
  readonly deleted = new Set<number>();
  /** Ids whose delete failed: either way is right. */
  readonly deleteUnknown = new Set<number>();
  readonly writes: Outcome[] = [];
  readonly queries: Outcome[] = [];
  /** Searches that answered but not with the expected id as top-1. */
  readonly wrongTop1: { at: number; node: number; id: number; got: string }[] = [];
  /** `consistency: all` reads right after a completed write that did not see it. */
  readonly allMisses: { at: number; node: number; id: number }[] = [];
  allChecks = 0;
  allErrors: Outcome[] = [];
  private next: number;
  private stopped = false;
  private running: Promise<void>[] = [];
  private readonly clients: QdrantClient[];
  private readonly readClients: QdrantClient[];

  constructor(private readonly opts: WorkloadOptions) {
    this.next = opts.firstId;
    // Writes may wait out an election (the server retries a publish for 15 s); reads should answer fast,
    // and a reader stuck on a stopped node gives up (2 s by default), as a client with a deadline would.
    this.clients = opts.urls.map((url) => new QdrantClient({ url, timeout: 30_000, checkCompatibility: false }));
    this.readClients = opts.urls.map((url) => new QdrantClient({ url, timeout: opts.readTimeoutMs ?? 2_000, checkCompatibility: false }));
  }

  now(): number {
    return Date.now() - this.t0;
  }

  start(): void {
    const writers = this.opts.writers ?? 3;
    const readers = this.opts.readers ?? 4;
    for (let w = 0; w < writers; w++) this.running.push(this.writer(w));
    for (let r = 0; r < readers; r++) this.running.push(this.reader(r));
    this.running.push(this.allChecker());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private take(n: number): number[] {
    const ids = Array.from({ length: n }, (_, k) => this.next + k);
    this.next += n;
    return ids;
  }

  private async writer(w: number): Promise<void> {
    const mine: number[] = [];
    let turn = w;
    const pick = rng(1000 + w);
    for (let op = 0; !this.stopped; op++) {
      const node = turn++ % this.clients.length;
      const c = this.clients[node]!;
      if (op % 10 === 9 && mine.length > 0) {
        // Delete one of this writer's acknowledged ids: it must never come back.
        const id = mine.splice(Math.floor(pick() * mine.length), 1)[0]!;
        this.acked.delete(id);
        const sent = Date.now();
        try {
          await c.delete(this.opts.collection, { wait: true, points: [id] });
          this.deleted.add(id);
          this.writes.push({ at: this.now(), node, ok: true, ms: Date.now() - sent });
        } catch (err) {
          this.deleteUnknown.add(id);
          this.writes.push({ at: this.now(), node, ok: false, error: describeError(err) });
          await this.backoff();
        }
        continue;
      }
      const ids = this.take(BATCH);
      const wait = op % 2 === 0;
      const sent = Date.now();
      try {
        const r = await c.upsert(this.opts.collection, { wait, points: ids.map((id) => ({ id, vector: vectorOf(id), payload: { w } })) });
        const status = r.status === 'completed' ? 'completed' : 'acknowledged';
        for (const id of ids) this.acked.set(id, status);
        mine.push(...ids);
        this.writes.push({ at: this.now(), node, ok: true, ms: Date.now() - sent });
      } catch (err) {
        for (const id of ids) this.maybe.add(id);
        this.writes.push({ at: this.now(), node, ok: false, error: describeError(err) });
        await this.backoff();
      }
    }
  }

  private async reader(r: number): Promise<void> {
    const pick = rng(2000 + r);
    let turn = r;
    while (!this.stopped) {
      const node = turn++ % this.readClients.length;
      const id = this.opts.seedIds[Math.floor(pick() * this.opts.seedIds.length)]!;
      const sent = Date.now();
      try {
        const hits = (await this.readClients[node]!.query(this.opts.collection, { query: vectorOf(id), limit: 1, params: { exact: true } })).points;
        this.queries.push({ at: this.now(), node, ok: true, ms: Date.now() - sent });
        if (hits[0]?.id !== id) this.wrongTop1.push({ at: this.now(), node, id, got: JSON.stringify(hits[0]?.id ?? null) });
      } catch (err) {
        this.queries.push({ at: this.now(), node, ok: false, error: describeError(err) });
        await this.backoff();
      }
    }
  }

  /** A completed write, then at once a `consistency: all` search through the next node must see it. */
  private async allChecker(): Promise<void> {
    let turn = 0;
    while (!this.stopped) {
      const node = turn++ % this.clients.length;
      const [id] = this.take(1) as [number];
      try {
        const r = await this.clients[node]!.upsert(this.opts.collection, { wait: true, points: [{ id, vector: vectorOf(id), payload: { all: true } }] });
        if (r.status !== 'completed') throw new Error(`wait=true answered ${r.status}`);
        this.acked.set(id, 'completed');
      } catch (err) {
        this.maybe.add(id);
        this.allErrors.push({ at: this.now(), node, ok: false, error: `write: ${describeError(err)}` });
        await this.backoff();
        continue;
      }
      const readNode = (node + 1) % this.clients.length;
      try {
        const hits = (await this.readClients[readNode]!.query(this.opts.collection, { query: vectorOf(id), limit: 1, params: { exact: true }, consistency: 'all' })).points;
        this.allChecks++;
        if (hits[0]?.id !== id) this.allMisses.push({ at: this.now(), node: readNode, id });
      } catch (err) {
        this.allErrors.push({ at: this.now(), node: readNode, ok: false, error: `read: ${describeError(err)}` });
        await this.backoff();
      }
    }
  }

  /** A failed request is not retried at once: the next goes to the next node after a short pause. */
  private backoff(): Promise<void> {
    return new Promise((r) => setTimeout(r, 100));
  }

  /** Ids that must be stored: acknowledged and not deleted since. */
  mustExist(): number[] {
    return [...this.acked.keys()];
  }
}

/** The longest stretch in [from, to] (ms) with no successful outcome. */
export function longestGap(outcomes: Outcome[], from: number, to: number): { ms: number; start: number } {
  const times = outcomes.filter((o) => o.ok && o.at >= from && o.at <= to).map((o) => o.at).sort((a, b) => a - b);
  let prev = from;
  let best = { ms: 0, start: from };
  for (const t of [...times, to]) {
    if (t - prev > best.ms) best = { ms: t - prev, start: prev };
    prev = t;
  }
  return best;
}

/** Error messages with their counts, for the figures. */
export function errorCounts(outcomes: Outcome[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) {
    if (o.ok) continue;
    // Ids and numbers vary per request: counted by their shape.
    const key = (o.error ?? 'error').replace(/\d+/g, 'N').slice(0, 160);
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
