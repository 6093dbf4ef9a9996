// ClusterShards over the real internal port (internal-port servers and InternalPeers on loopback), with the
// control plane's mirror and each node's local replicas faked (in-memory): which replica a read
// picks, the one retry, the hedge past a deadline (first answer wins), 503s naming the shard, reads at the log's end, write_consistency_factor
// before publishing and after, and the wire carrying errors through the one taxonomy.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClusterShards, type LocalShards } from '../../../src/shared/cluster/cluster-shards.js';
import { InternalPeers } from '../../../src/shared/cluster/internal-client.js';
import { startInternalServer, type InternalServer } from '../../../src/workers/cluster/internal-server.js';
import type { WriteLog } from '../../../src/shared/cluster/logged-writes.js';
import type { ClusterState, PeerInfo, ReplicaInfo } from '../../../src/shared/cluster/state.js';
import { QuiverError } from '../../../src/shared/errors.js';
import type { CollectionMeta } from '../../../src/shared/types.js';
import { freePort } from '../../helpers/ports.js';

class FakeState implements ClusterState {
  readonly nodeId: number;
  readonly assign = new Map<string, ReplicaInfo[]>();
  readonly peers = new Map<number, PeerInfo>();
  constructor(nodeId: number) {
    this.nodeId = nodeId;
  }
  replicas(c: number, s: number): ReplicaInfo[] {
    return this.assign.get(`${c}/${s}`) ?? [];
  }
  epoch(): number {
    return 1;
  }
  peer(node: number): PeerInfo | undefined {
    return this.peers.get(node);
  }
  readonly listeners = new Set<() => void>();
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  changed(): void {
    for (const l of this.listeners) l();
  }
}

/** One node's replicas in memory: what it applied per shard, and who asked what. */
class FakeNode implements LocalShards {
  readonly id: number;
  applied = 0;
  calls: { shard: number; op: string }[] = [];
  fail: QuiverError | null = null;
  /** Never answers (a paused node). */
  hang = false;
  /** Answers this late (a slow replica). */
  delayMs = 0;
  /** Per shard, answers this late instead (one slow read on a replica that answers others). */
  shardDelayMs = new Map<number, number>();
  constructor(id: number) {
    this.id = id;
  }
  async call(_c: number, shard: number, req: { op: string }): Promise<unknown> {
    if (this.fail !== null) throw this.fail;
    this.calls.push({ shard, op: req.op });
    if (this.hang) return new Promise(() => undefined);
    const delay = this.shardDelayMs.get(shard) ?? this.delayMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    // A replica may fail while it is being waited for (marked Dead meanwhile).
    if (this.fail !== null) throw this.fail;
    return { node: this.id, shard, op: req.op, applied: this.applied };
  }
  async awaitApplied(_c: number, shard: number, seq: number, timeoutMs: number): Promise<{ result: unknown }> {
    const until = Date.now() + timeoutMs;
    while (this.applied < seq) {
      if (Date.now() > until) throw new QuiverError('ShardUnavailable', `node ${this.id} did not apply ${seq} of shard ${shard} in time`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return { result: { applied: 1, by: this.id } };
  }
}

/** Polls a condition (the fakes change state in the background). */
async function until(cond: () => boolean, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const meta = (shards: number, wcf?: number): CollectionMeta => ({
  id: 7,
  name: 'c',
  created_at: '',
  config: { shard_number: shards, ...(wcf === undefined ? {} : { write_consistency_factor: wcf }) } as CollectionMeta['config'],
});

describe('ClusterShards over the internal port', () => {
  const nodes = new Map<number, FakeNode>();
  const servers = new Map<number, InternalServer>();
  const serving = new Map<number, boolean>();
  const state = new FakeState(1);
  const peerStates = new Map<number, FakeState>();
  const published: { shard: number; op: string }[] = [];
  let lastSeq = 0;
  let seq = 0;
  const log: WriteLog = {
    write(_m, shard, req, awaitApplied) {
      published.push({ shard, op: req.op });
      const s = ++seq;
      const wait = (req as { wait?: boolean }).wait === true;
      return wait ? awaitApplied(s, 300).then((r) => r.result) : Promise.resolve({ asked: true });
    },
    operationId: (id) => id,
    lastSeq: async () => lastSeq,
    createStreams: async () => undefined,
    deleteStreams: async () => undefined,
    setLog: () => undefined,
    close: async () => undefined,
  };
  let shards: ClusterShards;
  let peers: InternalPeers;

  beforeAll(async () => {
    for (const id of [1, 2, 3]) {
      const node = new FakeNode(id);
      nodes.set(id, node);
      serving.set(id, true);
      const own = new FakeState(id);
      peerStates.set(id, own);
      const server = await startInternalServer({
        host: '127.0.0.1',
        port: await freePort(),
        maxMessageBytes: 4 << 20,
        local: node,
        state: () => own,
        serving: () => serving.get(id)!,
        notServingReason: () => `node ${id} lost its lease`,
      });
      servers.set(id, server);
      state.peers.set(id, { id, advertise: `127.0.0.1:${server.port}`, rest_port: 0, grpc_port: 0 });
    }
    peers = new InternalPeers(4 << 20);
    shards = new ClusterShards({ state, peers, log, lastSeq: async () => lastSeq, readTimeoutMs: 2000, catchUpTimeoutMs: 300 });
  });

  afterAll(async () => {
    peers?.close();
    await Promise.all([...servers.values()].map((s) => s.close()));
  });

  beforeEach(() => {
    for (const [id, n] of nodes) {
      n.applied = 0;
      n.calls = [];
      n.fail = null;
      n.hang = false;
      n.delayMs = 0;
      n.shardDelayMs.clear();
      serving.set(id, true);
      peerStates.get(id)!.assign.clear();
    }
    state.assign.clear();
    published.length = 0;
    lastSeq = 0;
  });

  const assign = (shard: number, replicas: [number, ReplicaInfo['state'], number][]): void => {
    state.assign.set(`7/${shard}`, replicas.map(([node, st, appliedSeq]) => ({ node, state: st, appliedSeq })));
  };
  const local = (): LocalShards => nodes.get(1)!;
  const read = (m: CollectionMeta, shard: number, atLogEnd = false) => shards.call(m, shard, { op: 'count', filter: null, exact: true }, local(), atLogEnd) as Promise<unknown>;

  it('reads this node\'s own Active replica first', async () => {
    assign(0, [[2, 'Active', 9], [1, 'Active', 0]]);
    expect(await read(meta(1), 0)).toMatchObject({ node: 1 });
  });

  it('else the live Active replica with the highest applied_seq, over the internal port', async () => {
    assign(0, [[1, 'Dead', 50], [2, 'Active', 5], [3, 'Active', 9]]);
    expect(await read(meta(1), 0)).toMatchObject({ node: 3, op: 'count', shard: 0 });
    expect(nodes.get(1)!.calls).toEqual([]);
  });

  it('skips a replica whose node has no lease (not among the live peers)', async () => {
    assign(0, [[2, 'Active', 5], [4, 'Active', 90]]);
    expect(await read(meta(1), 0)).toMatchObject({ node: 2 });
  });

  it('retries once on another Active replica when the first cannot serve (lease lost: the call refused)', async () => {
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    serving.set(3, false);
    expect(await read(meta(1), 0)).toMatchObject({ node: 2 });
  });

  it('retries on another replica when the chosen one holds itself Dead', async () => {
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    peerStates.get(3)!.assign.set('7/0', [{ node: 3, state: 'Dead', appliedSeq: 9 }]);
    expect(await read(meta(1), 0)).toMatchObject({ node: 2 });
  });

  it('gives up a replica that does not answer once its lease lapses, and reads the next one', { timeout: 30_000 }, async () => {
    // A read deadline far past the test's: only the lease's loss can end the wait on node 3.
    const patient = new ClusterShards({ state, peers, log, lastSeq: async () => lastSeq, readTimeoutMs: 600_000 });
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    nodes.get(3)!.hang = true;
    const answer = patient.call(meta(1), 0, { op: 'count', filter: null, exact: true }, local(), false);
    const peer3 = state.peers.get(3)!;
    setTimeout(() => {
      state.peers.delete(3);
      state.changed();
    }, 100);
    try {
      expect(await answer).toMatchObject({ node: 2 });
    } finally {
      state.peers.set(3, peer3);
    }
  });

  it('retries on another replica when the chosen node no longer holds the shard in its own mirror (moved away)', async () => {
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    peerStates.get(3)!.assign.set('7/0', [{ node: 2, state: 'Active', appliedSeq: 5 }, { node: 1, state: 'Active', appliedSeq: 9 }]);
    expect(await read(meta(1), 0)).toMatchObject({ node: 2 });
    expect(nodes.get(3)!.calls).toEqual([]);
  });

  it('answers 503 naming the shard when no replica is Active', async () => {
    assign(1, [[2, 'Dead', 5], [3, 'Initializing', 0]]);
    const err = await read(meta(2), 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuiverError);
    expect((err as QuiverError).code).toBe('ShardUnavailable');
    expect((err as QuiverError).message).toBe('No Active replica of shard 1 of collection c (node 2 Dead, node 3 Initializing): retry later');
    const unplaced = (await read(meta(2), 0).catch((e: unknown) => e)) as QuiverError;
    expect(unplaced.message).toBe('No Active replica of shard 0 of collection c (not placed yet): retry later');
    assign(0, [[4, 'Active', 1]]);
    const gone = (await read(meta(2), 0).catch((e: unknown) => e)) as QuiverError;
    expect(gone.message).toBe('No Active replica of shard 0 of collection c (node 4 Active without a lease): retry later');
  });

  it('answers 503 naming the shard and both nodes when both replicas fail', async () => {
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    serving.set(2, false);
    serving.set(3, false);
    const err = (await read(meta(1), 0).catch((e: unknown) => e)) as QuiverError;
    expect(err.code).toBe('ShardUnavailable');
    expect(err.message).toMatch(/^No replica of shard 0 of collection c answered \(node 3: .*node 3 lost its lease; node 2: .*node 2 lost its lease\): retry later$/);
  });

  it('a request\'s own failure on the remote comes back with its code and message, not retried', async () => {
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    nodes.get(3)!.fail = QuiverError.badInput('Wrong input: bad filter');
    const err = (await read(meta(1), 0).catch((e: unknown) => e)) as QuiverError;
    expect(err.code).toBe('BadInput');
    expect(err.message).toBe('Wrong input: bad filter');
    expect(nodes.get(2)!.calls).toEqual([]);
  });

  it('fanOut answers in shard order, one replica per shard', async () => {
    assign(0, [[3, 'Active', 1]]);
    assign(1, [[1, 'Active', 1]]);
    assign(2, [[2, 'Active', 1]]);
    const parts = (await shards.fanOut(meta(3), { op: 'count', filter: null, exact: true }, local(), false)) as unknown as { node: number; shard: number }[];
    expect(parts.map((p) => [p.shard, p.node])).toEqual([
      [0, 3],
      [1, 1],
      [2, 2],
    ]);
  });

  it('a read at the log\'s end waits for the replica to apply the stream\'s last sequence', async () => {
    assign(0, [[2, 'Active', 5]]);
    lastSeq = 12;
    nodes.get(2)!.applied = 5;
    setTimeout(() => (nodes.get(2)!.applied = 12), 50);
    expect(await read(meta(1), 0, true)).toMatchObject({ node: 2, applied: 12 });
  });

  it('a read at the log\'s end goes to another replica when the first does not catch up in time', async () => {
    assign(0, [[2, 'Active', 9], [3, 'Active', 5]]);
    lastSeq = 12;
    nodes.get(2)!.applied = 9;
    nodes.get(3)!.applied = 12;
    expect(await read(meta(1), 0, true)).toMatchObject({ node: 3, applied: 12 });
  });

  it('a read at the log\'s end on this node\'s replica waits for it locally', async () => {
    assign(0, [[1, 'Active', 0]]);
    lastSeq = 3;
    setTimeout(() => (nodes.get(1)!.applied = 3), 30);
    expect(await read(meta(1), 0, true)).toMatchObject({ node: 1, applied: 3 });
  });

  it('without consistency the replica serves what it has applied', async () => {
    assign(0, [[2, 'Active', 9]]);
    lastSeq = 12;
    nodes.get(2)!.applied = 9;
    expect(await read(meta(1), 0)).toMatchObject({ node: 2, applied: 9 });
  });

  /** Reads hedged after `hedgeMs`; no read deadline or lease loss ends a wait within the test. */
  const hedging = (hedgeMs: number): ClusterShards => new ClusterShards({ state, peers, log, lastSeq: async () => lastSeq, readTimeoutMs: 600_000, hedgeMs });
  const count = { op: 'count', filter: null, exact: true } as const;

  it('a replica that has not answered within the hedge deadline is joined by the next one, whose answer wins', { timeout: 30_000 }, async () => {
    const hedged = hedging(50);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    nodes.get(3)!.hang = true;
    expect(await hedged.call(meta(1), 0, count, local(), false)).toMatchObject({ node: 2 });
    expect(hedged.hedgedReads).toBe(1);
    expect(nodes.get(3)!.calls).toEqual([{ shard: 0, op: 'count' }]);
    expect(nodes.get(2)!.calls).toEqual([{ shard: 0, op: 'count' }]);
  });

  it('after the hedge, the first answer wins whichever replica gives it', { timeout: 30_000 }, async () => {
    const hedged = hedging(30);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    // Node 3, asked first, is past the deadline but still answers before node 2, asked second
    // (its delay leaves a loaded machine's timers a second to fire the hedge first).
    nodes.get(3)!.delayMs = 1000;
    nodes.get(2)!.delayMs = 20_000;
    expect(await hedged.call(meta(1), 0, count, local(), false)).toMatchObject({ node: 3 });
    expect(hedged.hedgedReads).toBe(1);
    expect(nodes.get(2)!.calls).toEqual([{ shard: 0, op: 'count' }]);
  });

  it('this node\'s own replica is hedged too: a busy local worker is joined by a remote replica', { timeout: 30_000 }, async () => {
    const hedged = hedging(50);
    assign(0, [[1, 'Active', 9], [2, 'Active', 9]]);
    nodes.get(1)!.hang = true;
    expect(await hedged.call(meta(1), 0, count, local(), false)).toMatchObject({ node: 2 });
    expect(hedged.hedgedReads).toBe(1);
  });

  it('a slow read on a replica that keeps answering other reads is not hedged (busy, not stalled)', { timeout: 30_000 }, async () => {
    // A deadline far above a loaded machine's scheduling gaps between node 3's answers below.
    const hedged = hedging(1000);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    assign(1, [[2, 'Active', 5], [3, 'Active', 9]]);
    nodes.get(3)!.shardDelayMs.set(0, 3000);
    const slow = hedged.call(meta(2), 0, count, local(), false);
    // Node 3 answers shard 1's reads all the while, each within a few ms.
    let done = false;
    void slow.finally(() => (done = true));
    while (!done) await hedged.call(meta(2), 1, count, local(), false);
    expect(await slow).toMatchObject({ node: 3, shard: 0 });
    // The slow read was never sent to node 2 (a read of shard 1 held up past 1 s may be).
    expect(nodes.get(2)!.calls.filter((c) => c.shard === 0)).toEqual([]);
  });

  it('reads of this node\'s own replica do not lower the hedge deadline of reads across nodes', { timeout: 30_000 }, async () => {
    const hedged = hedging(5_000);
    assign(0, [[1, 'Active', 9], [2, 'Active', 9]]);
    assign(1, [[3, 'Active', 9], [2, 'Active', 5]]);
    // Enough quick local answers to set a percentile (the floor, 10 ms) had they counted for remote reads.
    for (let i = 0; i < 30; i++) expect(await hedged.call(meta(2), 0, count, local(), false)).toMatchObject({ node: 1 });
    // Remote reads that each take 40 ms: their own kind, still under the ceiling, so never hedged.
    nodes.get(3)!.delayMs = 40;
    for (let i = 0; i < 8; i++) expect(await hedged.call(meta(2), 1, count, local(), false)).toMatchObject({ node: 3 });
    expect(hedged.hedgedReads).toBe(0);
    expect(nodes.get(2)!.calls).toEqual([]);
  });

  it('a replica that answers within the hedge deadline is the only one asked', async () => {
    const hedged = hedging(60_000);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    for (let i = 0; i < 3; i++) expect(await hedged.call(meta(1), 0, count, local(), false)).toMatchObject({ node: 3 });
    expect(hedged.hedgedReads).toBe(0);
    expect(nodes.get(2)!.calls).toEqual([]);
  });

  it('a shard with one Active replica is not hedged: the read waits for it', async () => {
    const hedged = hedging(10);
    assign(0, [[3, 'Active', 9]]);
    nodes.get(3)!.delayMs = 100;
    expect(await hedged.call(meta(1), 0, count, local(), false)).toMatchObject({ node: 3 });
    expect(hedged.hedgedReads).toBe(0);
  });

  it('a hedged read whose first replica then fails as a replica waits for the second', { timeout: 30_000 }, async () => {
    const hedged = hedging(30);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    // Node 3 must not answer before the test marks it failed: a second's margin for a loaded machine.
    nodes.get(3)!.delayMs = 1000;
    nodes.get(2)!.delayMs = 3000;
    const answer = hedged.call(meta(1), 0, count, local(), false);
    // Node 3 fails after node 2 was asked: the read goes on waiting for node 2, not 503.
    await until(() => nodes.get(2)!.calls.length === 1);
    nodes.get(3)!.fail = new QuiverError('ShardUnavailable', 'node 3 went Dead');
    expect(await answer).toMatchObject({ node: 2 });
    expect(hedged.hedgedReads).toBe(1);
  });

  it('a request\'s own failure after the hedge answers at once with its code and message', { timeout: 30_000 }, async () => {
    const hedged = hedging(30);
    assign(0, [[2, 'Active', 5], [3, 'Active', 9]]);
    nodes.get(3)!.hang = true;
    nodes.get(2)!.fail = QuiverError.badInput('Wrong input: bad filter');
    const err = (await hedged.call(meta(1), 0, count, local(), false).catch((e: unknown) => e)) as QuiverError;
    expect(err.code).toBe('BadInput');
    expect(err.message).toBe('Wrong input: bad filter');
  });

  it('a cancelled internal call rejects as unreachable at once (the hedge\'s loser)', { timeout: 30_000 }, async () => {
    nodes.get(3)!.hang = true;
    const cancel = new AbortController();
    const pending = peers.shardCall(state.peers.get(3)!, { collectionId: 7, shard: 0, req: count, timeoutMs: 100 }, 600_000, cancel.signal).catch((e: unknown) => e);
    setTimeout(() => cancel.abort(), 20);
    const err = (await pending) as QuiverError;
    expect(err.code).toBe('ShardUnavailable');
    expect(err.message).toMatch(/^node 3 unreachable: /);
  });

  const upsert = (m: CollectionMeta, shard: number, wait: boolean) =>
    shards.call(m, shard, { op: 'upsert', opId: 1, wait, batch: { ids: [1] } } as never, local(), false) as Promise<unknown>;

  it('a write with fewer Active replicas than write_consistency_factor answers 503 before publishing', async () => {
    assign(0, [[1, 'Active', 0], [2, 'Dead', 0], [3, 'Partial', 0]]);
    for (const wait of [true, false]) {
      const err = (await upsert(meta(1, 2), 0, wait).catch((e: unknown) => e)) as QuiverError;
      expect(err.code).toBe('ShardUnavailable');
      expect(err.message).toBe('Shard 0 of collection c has 1 Active replica, fewer than write_consistency_factor 2: retry later');
    }
    expect(published).toEqual([]);
  });

  it('wait=true answers once write_consistency_factor replicas applied it, here and on peers', async () => {
    assign(0, [[1, 'Active', 0], [2, 'Active', 0], [3, 'Active', 0]]);
    const target = seq + 1;
    nodes.get(3)!.applied = target;
    const answered = upsert(meta(1, 2), 0, true);
    let done = false;
    void answered.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 60));
    // Only node 3 applied it: one of two.
    expect(done).toBe(false);
    nodes.get(2)!.applied = target;
    expect(await answered).toMatchObject({ applied: 1 });
    expect(published).toEqual([{ shard: 0, op: 'upsert' }]);
  });

  it('wait=true answers 503 when too few replicas apply it in time, naming the sequence', async () => {
    assign(0, [[1, 'Active', 0], [2, 'Active', 0]]);
    nodes.get(2)!.applied = 1e9;
    const err = (await upsert(meta(1, 2), 0, true).catch((e: unknown) => e)) as QuiverError;
    expect(err.code).toBe('ShardUnavailable');
    expect(err.message).toMatch(/^Write is stored in the log of shard 0 \(sequence \d+\) but fewer than write_consistency_factor 2 replicas applied it within 300 ms \(node 1: node 1 did not apply \d+ of shard 0 in time\); it will be applied: retry with wait=false or later$/);
  });

  it('wait=false answers once the log holds the write, whatever the replicas applied', async () => {
    assign(0, [[2, 'Active', 0], [3, 'Active', 0]]);
    expect(await upsert(meta(1, 2), 0, false)).toEqual({ asked: true });
  });
});
