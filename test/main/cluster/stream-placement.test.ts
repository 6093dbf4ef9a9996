// Creating a shard's 3-replica stream while one of three NATS servers is down: JetStream answers
// "no suitable peers for placement" (as while a cluster forms, which made a CI set-up fail). The
// creation retries it, answers a retryable 503 once its deadline passes, and succeeds once the
// server is back within it.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShardLog } from '../../../src/shared/cluster/shard-log.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

let nats: NatsCluster;

/** Opens a log, retried while JetStream elects a meta leader (stopping a server may start an election). */
async function openLog(opts: Parameters<typeof ShardLog.open>[0]): Promise<ShardLog> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await ShardLog.open(opts);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

beforeAll(async () => {
  nats = await startNats(3);
}, 150_000);

afterAll(async () => {
  await nats?.close();
});

describe('a stream created with a server down', () => {
  it('answers a retryable 503 after its deadline, and is created once the server is back', async () => {
    await nats.stop(2);
    // Until the meta leader (one of the two left) has marked it offline, JetStream may still place
    // a replica on it, and the stream is then created on two of three servers (seen once in CI).
    const gone = nats.nodes[2]!.name;
    await vi.waitFor(
      async () => {
        const seen = await Promise.all(
          nats.nodes.slice(0, 2).map(async (n) => {
            const meta = ((await (await fetch(`http://127.0.0.1:${n.httpPort}/jsz`)).json()) as { meta_cluster?: { leader?: string; replicas?: { name: string; offline?: boolean }[] } }).meta_cluster;
            return meta?.leader !== gone && meta?.replicas?.some((r) => r.name === gone && r.offline === true) === true;
          }),
        );
        expect(seen, `the meta leader marks ${gone} offline`).toContain(true);
      },
      { timeout: 30_000, interval: 200 },
    );
    const servers = [nats.nodes[0]!.url, nats.nodes[1]!.url];
    const short = await openLog({ servers, replicas: 3, publishDeadlineMs: 1500, ackTimeoutMs: 500 });
    try {
      const err = await short.createStreams(1, 1).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(QuiverError);
      expect((err as QuiverError).code).toBe('ShardUnavailable');
      expect((err as QuiverError).message).toMatch(/^Write logs of collection 1 could not be created \(.*no suitable peers.*\); retry the request$/);
    } finally {
      await short.close();
    }
    const log = await openLog({ servers, replicas: 3, publishDeadlineMs: 30_000, ackTimeoutMs: 500 });
    try {
      const creating = log.createStreams(2, 1);
      // The first attempts meet the missing server; then it comes back.
      await new Promise((r) => setTimeout(r, 600));
      await nats.start(2);
      await creating;
      expect(await log.lastSeq(2, 0)).toBe(0);
    } finally {
      await log.close();
    }
  }, 90_000);
});
