// A shard's replicas on the nodes' disks after a fault scenario (nodes stopped): what each one
// applied and holds, and how Active replicas that should be equal differ.

import { createHash } from 'node:crypto';
import { openDb } from '../../src/shared/db.js';
import { appliedSeqKey } from '../../src/shared/log-entry.js';
import { logDigestKey, logDigestSeqKey } from '../../src/workers/cluster/applier.js';

export interface ReplicaOnDisk {
  node: number;
  state: string;
  appliedSeq: number;
  /** The digest of the log entries it applied (applier.ts); null: unknown (a snapshot restored). */
  logDigest: number | null;
  count: number;
  hash: string;
}

/** applied_seq, point count and an order-free hash of (id, version) of one shard on one node's disk (node stopped). */
export function onDisk(
  dataDir: string,
  id: number,
  shard: number,
): { appliedSeq: number; logDigest: number | null; count: number; hash: string; ids: Set<number>; versions: Map<number, number> } {
  const db = openDb(dataDir);
  try {
    const appliedSeq = db.meta.get(appliedSeqKey(id, shard)) ?? 0;
    const digest = db.meta.get(logDigestKey(id, shard));
    const logDigest = appliedSeq === 0 ? 0 : digest !== undefined && db.meta.get(logDigestSeqKey(id, shard)) === appliedSeq ? digest : null;
    const pairs: string[] = [];
    const ids = new Set<number>();
    const versions = new Map<number, number>();
    for (const { key, value } of db.points.getRange({ start: [id, shard], end: [id, shard + 1] })) {
      pairs.push(`${String(key[2])}:${value.v}`);
      if (typeof key[2] === 'number') {
        ids.add(key[2]);
        versions.set(key[2], value.v);
      }
    }
    pairs.sort();
    return { appliedSeq, logDigest, count: pairs.length, hash: createHash('sha256').update(pairs.join(',')).digest('hex').slice(0, 16), ids, versions };
  } finally {
    void db.root.close();
  }
}

/** Up to this many ids per list of a replica difference. */
const DIFF_SHOWN = 10;

export interface ReplicaDiff {
  /** By node: ids the others hold and it lacks (with the entry that wrote them in the stream, and what this node holds at that version instead). */
  missing: Record<number, { id: number; version: number; streamSeq: number | null; msgId: string | null; heldAtVersion: number[] }[]>;
  /** By node: ids it holds that no other replica does. */
  extra: Record<number, { id: number; version: number; streamSeq: number | null }[]>;
  /** By node: ids held in a version other than the others'. */
  otherVersion: Record<number, { id: number; mine: number; theirs: number }[]>;
}

/**
 * How Active replicas of one shard differ, from each one's (id -> version) on disk and where the
 * stream holds each id's upsert: names the entries a replica missed and what it applied at their
 * sequences, to tell a skipped entry from a log that served it other content.
 */
export function replicaDiff(versions: Map<number, Map<number, number>>, where: Map<number, { seq: number; msgId: string }>): ReplicaDiff {
  const out: ReplicaDiff = { missing: {}, extra: {}, otherVersion: {} };
  for (const [node, mine] of versions) {
    const byVersion = new Map<number, number[]>();
    for (const [pid, v] of mine) byVersion.set(v, [...(byVersion.get(v) ?? []), pid]);
    const missing: ReplicaDiff['missing'][number] = [];
    const extra: ReplicaDiff['extra'][number] = [];
    const other: ReplicaDiff['otherVersion'][number] = [];
    for (const [peer, theirs] of versions) {
      if (peer === node) continue;
      for (const [pid, v] of theirs) {
        const m = mine.get(pid);
        if (m === undefined) {
          if (!missing.some((x) => x.id === pid)) {
            const w = where.get(pid);
            missing.push({ id: pid, version: v, streamSeq: w?.seq ?? null, msgId: w?.msgId ?? null, heldAtVersion: byVersion.get(v) ?? [] });
          }
        } else if (m !== v && !other.some((x) => x.id === pid)) other.push({ id: pid, mine: m, theirs: v });
      }
    }
    for (const [pid, v] of mine) {
      if ([...versions].every(([peer, theirs]) => peer === node || !theirs.has(pid))) extra.push({ id: pid, version: v, streamSeq: where.get(pid)?.seq ?? null });
    }
    if (missing.length > 0) out.missing[node] = missing.slice(0, DIFF_SHOWN);
    if (extra.length > 0) out.extra[node] = extra.slice(0, DIFF_SHOWN);
    if (other.length > 0) out.otherVersion[node] = other.slice(0, DIFF_SHOWN);
  }
  return out;
}
