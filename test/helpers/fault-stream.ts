// Reading a collection's shard streams back in full after a fault scenario: every id upserted in
// more than one entry (a write stored twice), which entry wrote each id, and each stream's log
// digest, for the replicas on disk to be compared with.

import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { decodeEntry, streamName } from '../../src/shared/log-entry.js';
import { nextLogDigest } from '../../src/workers/cluster/applier.js';
import { SHARDS } from './fault-cluster-state.js';
import type { NatsCluster } from './nats.js';

/** Ids found in more than one upsert entry across the collection's streams: a write stored twice. */
export async function streamDuplicates(
  nats: NatsCluster,
  id: number,
  shards = SHARDS,
): Promise<{ entries: number; readRestarts: number; duplicated: number[]; where: Map<number, { seq: number; msgId: string }>[]; digests: (number | null)[] }> {
  const nc = await nats.connect();
  const seen = new Set<number>();
  // Per shard: the entry that upserted each id (to name the entry a replica missed).
  const where: Map<number, { seq: number; msgId: string }>[] = Array.from({ length: shards }, () => new Map());
  // Per shard: the log digest of the whole stream (applier.ts), what a replica at its end must hold.
  const digests: (number | null)[] = Array.from({ length: shards }, () => 0);
  const dup: number[] = [];
  let entries = 0;
  let readRestarts = 0;
  try {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    for (let s = 0; s < shards; s++) {
      const name = streamName(id, s);
      const info = await jsm.streams.info(name);
      // Purged below a snapshot: the digest of the whole log cannot be rebuilt from what is left.
      if (info.state.first_seq > 1) digests[s] = null;
      if (info.state.messages === 0) continue;
      // An ordered consumer placed on a server just resumed from SIGSTOP can stay silent (seen in
      // scenario 7: nothing delivered for 30 s while the stream's leader had moved on), as the
      // apply loop's watchdog knows: a session silent for 5 s is replaced from the next sequence.
      // Bounded overall: a read that never gets through ends the check with a failure.
      let next = 1;
      let reached = false;
      const end = Date.now() + 60_000;
      while (!reached && Date.now() < end) {
        const consumer = await js.consumers.get(name, { opt_start_seq: next });
        const msgs = await consumer.consume();
        let last = Date.now();
        const silent = setInterval(() => {
          if (Date.now() - last > 5000 || Date.now() > end) void msgs.stop();
        }, 500);
        try {
          for await (const m of msgs) {
            last = Date.now();
            if (m.seq < next) continue;
            next = m.seq + 1;
            entries++;
            const d = digests[s];
            if (d !== null && d !== undefined) digests[s] = nextLogDigest(d, m.seq, m.data);
            const w = decodeEntry(m.data);
            if (w.op === 'upsert') {
              for (const pid of w.batch.ids) {
                if (typeof pid !== 'number') continue;
                if (seen.has(pid)) dup.push(pid);
                seen.add(pid);
                where[s]!.set(pid, { seq: m.seq, msgId: m.headers?.get('Nats-Msg-Id') ?? '' });
              }
            }
            if (m.seq >= info.state.last_seq) {
              reached = true;
              break;
            }
          }
        } finally {
          clearInterval(silent);
          msgs.stop();
        }
        if (!reached) readRestarts++;
      }
      if (!reached) throw new Error(`reading ${name} to its last sequence ${info.state.last_seq} got no further than ${next - 1} in 60 s (${readRestarts} silent sessions replaced)`);
    }
  } finally {
    await nc.close();
  }
  return { entries, readRestarts, duplicated: dup, where, digests };
}
