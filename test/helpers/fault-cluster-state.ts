// The fault suite's collection (test/helpers/faults.ts) and the cluster state its checks read:
// polling until a probe answers, the collection's id in the etcd catalog, each shard's replica
// assignment, each node's reported applied_seq, and each shard stream's last sequence.

import { streamName } from '../../src/shared/log-entry.js';
import type { TestCluster } from './cluster.js';

export const COLLECTION = 'faults';
export const SHARDS = 3;

/** Polls probe until it gives a value (not null/undefined), for up to `ms`. */
export async function settle<T>(what: string, probe: () => Promise<T | null | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await probe();
      if (v !== null && v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}${last === null ? '' : `: ${String(last)}`}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Assignment {
  epoch: number;
  replicas: { node: number; state: string }[];
}

export async function collectionId(c: TestCluster): Promise<number> {
  const { client, ns } = c.etcdClient();
  try {
    return await settle('the collection in the etcd catalog', async () => {
      const v = (await ns.get(`catalog/${COLLECTION}`).json()) as { id?: unknown } | null;
      return typeof v?.id === 'number' ? v.id : null;
    });
  } finally {
    client.close();
  }
}

export async function assignments(c: TestCluster, id: number): Promise<Assignment[]> {
  const { client, ns } = c.etcdClient();
  try {
    const out: Assignment[] = [];
    for (let s = 0; s < SHARDS; s++) out.push(((await ns.get(`assign/${id}/${s}`).json()) as Assignment | null) ?? { epoch: 0, replicas: [] });
    return out;
  } finally {
    client.close();
  }
}

/** Every node's last report of its replicas' applied_seq (etcd status/<node>), by node id. */
export async function reports(c: TestCluster): Promise<Map<number, Record<string, { applied_seq: number; dead?: boolean }>>> {
  const { client, ns } = c.etcdClient();
  try {
    const all = await ns.getAll().prefix('status/').strings();
    const out = new Map<number, Record<string, { applied_seq: number; dead?: boolean }>>();
    for (const [k, v] of Object.entries(all)) {
      const shards = (JSON.parse(v) as { shards?: Record<string, { applied_seq: number; dead?: boolean }> }).shards ?? {};
      out.set(Number(k.slice('status/'.length)), shards);
    }
    return out;
  } finally {
    client.close();
  }
}

export async function lastSeqs(c: TestCluster, id: number): Promise<number[]> {
  const out: number[] = [];
  for (let s = 0; s < SHARDS; s++) out.push(await c.nats.lastSeq(streamName(id, s)));
  return out;
}
