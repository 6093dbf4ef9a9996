// The prefix mirror (src/shared/cluster/prefix-mirror.ts) against a real one-member etcd: the
// snapshot, then every later change exactly once (one made between the read and the watch too);
// a set's snapshots all before its watchers; a failed read retried after the pause; a watcher etcd
// cancels started over from a new read (at once, or after the pause); startAt resuming without a
// read; a dropped stream (as the watch guard drops one) healed by etcd3 without a repeat or a
// re-read; and nothing delivered after stop(), even when stop() comes during the read.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3, type IRangeResponse, type Namespace, type Watcher } from 'etcd3';
import { PrefixMirror, type MirroredPrefix } from '../../../src/shared/cluster/prefix-mirror.js';
import { dropWatchStream, keepWatchResumePoints } from '../../../src/control/watch-guard.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

async function until<T>(what: string, probe: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** etcd3's per-Namespace watch manager, as far as this test reaches it (not public). */
interface StreamShape {
  getStream(): { write(req: { cancel_request: { watch_id: string | null } }): void };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A prefix whose snapshots and events are logged as `snapshot k1,k2` and `put k` / `delete k`. */
function logged(prefix: string, log: string[], read?: () => Promise<IRangeResponse>): MirroredPrefix {
  return {
    prefix,
    ...(read === undefined ? {} : { read }),
    snapshot: (res) => log.push(`snapshot ${res.kvs.map((kv) => kv.key.toString()).join(',')}`),
    watching: (w) => {
      w.on('put', (kv) => log.push(`put ${kv.key.toString()}`));
      w.on('delete', (kv) => log.push(`delete ${kv.key.toString()}`));
    },
  };
}

describe.skipIf(etcdMissing() !== null)('prefix mirror', () => {
  let etcd: EtcdCluster;
  let client: Etcd3;
  beforeAll(async () => {
    etcd = await startEtcd(1);
    client = new Etcd3({ hosts: etcd.endpoints });
  }, 30_000);
  afterAll(async () => {
    client?.close();
    await etcd?.stop();
  });

  /** A namespace of its own per test (and so a watch stream of its own). */
  let n = 0;
  const fresh = (): Namespace => client.namespace(`/pm${++n}/`);

  it('delivers the snapshot, then each change once, one made between the read and the watch too', async () => {
    const ns = fresh();
    await ns.put('a/1').value('x');
    await ns.put('a/2').value('x');
    await ns.put('other').value('x');
    const log: string[] = [];
    const mirror = new PrefixMirror(ns, [
      logged('a/', log, async () => {
        const r = await ns.getAll().prefix('a/').exec();
        await ns.put('a/between').value('x');
        return r;
      }),
    ]);
    await mirror.start();
    try {
      await ns.put('a/3').value('x');
      await ns.put('b/not-mine').value('x');
      await ns.delete().key('a/1');
      await until('the delete', () => (log.includes('delete a/1') ? true : undefined));
      await sleep(100);
      expect(log).toEqual(['snapshot a/1,a/2', 'put a/between', 'put a/3', 'delete a/1']);
    } finally {
      await mirror.stop();
    }
  });

  it('a set: every snapshot is delivered before any watcher exists, each watch from its own read', async () => {
    const ns = fresh();
    await ns.put('b/1').value('x');
    await ns.put('c/1').value('x');
    const log: string[] = [];
    const tagged = (p: string): MirroredPrefix => {
      const inner = logged(p, log);
      return {
        ...inner,
        watching: (w) => {
          log.push(`watching ${p}`);
          inner.watching(w);
        },
      };
    };
    const mirror = new PrefixMirror(ns, [tagged('b/'), tagged('c/')]);
    await mirror.start();
    try {
      await ns.put('c/2').value('x');
      await ns.put('b/2').value('x');
      await until('both puts', () => (log.length >= 6 ? true : undefined));
      expect(log).toEqual(['snapshot b/1', 'snapshot c/1', 'watching b/', 'watching c/', 'put c/2', 'put b/2']);
    } finally {
      await mirror.stop();
    }
  });

  it('a failed read is told to onRetry and tried again, reading anew, after the pause', async () => {
    const ns = fresh();
    await ns.put('d/1').value('x');
    const log: string[] = [];
    const retries: string[] = [];
    const reads: number[] = [];
    const mirror = new PrefixMirror(
      ns,
      [
        logged('d/', log, async () => {
          reads.push(Date.now());
          if (reads.length === 1) throw new Error('etcd unreachable (test)');
          return ns.getAll().prefix('d/').exec();
        }),
      ],
      { retryMs: 200, onRetry: (e) => retries.push(e instanceof Error ? e.message : String(e)) },
    );
    await mirror.start();
    try {
      expect(retries).toEqual(['etcd unreachable (test)']);
      expect(reads).toHaveLength(2);
      expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(190);
      await ns.put('d/2').value('x');
      await until('the put', () => (log.includes('put d/2') ? true : undefined));
      expect(log).toEqual(['snapshot d/1', 'put d/2']);
    } finally {
      await mirror.stop();
    }
  });

  it('once(): one try, its failure thrown and not retried', async () => {
    const ns = fresh();
    let reads = 0;
    const mirror = new PrefixMirror(ns, [
      logged('e/', [], async () => {
        reads++;
        throw new Error('no (test)');
      }),
    ]);
    await expect(mirror.once()).rejects.toThrow('no (test)');
    await sleep(700);
    expect(reads).toBe(1);
  });

  for (const onLoss of ['restart', 'restart-after-pause'] as const) {
    it(`onLoss '${onLoss}': a watcher etcd cancels starts the set over from a new read${onLoss === 'restart' ? ' at once' : ', after the pause'}`, async () => {
      const ns = fresh();
      await ns.put('f/1').value('x');
      const log: string[] = [];
      const reads: number[] = [];
      const watchers: Watcher[] = [];
      const f = logged('f/', log, () => {
        reads.push(Date.now());
        return ns.getAll().prefix('f/').exec();
      });
      const mirror = new PrefixMirror(
        ns,
        [
          {
            ...f,
            watching: (w) => {
              watchers.push(w);
              f.watching(w);
            },
          },
        ],
        { onLoss, retryMs: 1500 },
      );
      await mirror.start();
      try {
        await ns.put('f/2').value('x');
        await until('f/2', () => (log.includes('put f/2') ? true : undefined));
        // etcd cancels the watcher (as it does one whose revision was compacted away): asked on
        // the watcher's own stream, as if by another, so etcd3 takes the answer as etcd's doing.
        const w = watchers[0]!;
        const cancelledAt = Date.now();
        (ns as unknown as { watchManager: StreamShape }).watchManager.getStream().write({ cancel_request: { watch_id: w.id } });
        await until('the second snapshot', () => (log.includes('snapshot f/1,f/2') ? true : undefined), 5000);
        expect(reads).toHaveLength(2);
        // A restart reads again at once after the loss; a retry waits retryMs (1500) after its read.
        if (onLoss === 'restart') expect(reads[1]! - cancelledAt).toBeLessThan(1000);
        else expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(1490);
        await ns.put('f/3').value('x');
        await until('f/3', () => (log.includes('put f/3') ? true : undefined));
        await sleep(100);
        // One watcher since: f/3 once.
        expect(log).toEqual(['snapshot f/1', 'put f/2', 'snapshot f/1,f/2', 'put f/3']);
        expect(watchers).toHaveLength(2);
      } finally {
        await mirror.stop();
      }
    });
  }

  it('startAt: watches from the revision after the one given, reading nothing', async () => {
    const ns = fresh();
    const at = (await ns.put('g/0').value('x').exec()).header.revision;
    await ns.put('g/1').value('x');
    await ns.delete().key('g/0');
    const log: string[] = [];
    const mirror = new PrefixMirror(ns, [logged('g/', log)]);
    await mirror.startAt(at);
    try {
      await ns.put('g/2').value('x');
      await until('the put', () => (log.includes('put g/2') ? true : undefined));
      expect(log).toEqual(['put g/1', 'delete g/0', 'put g/2']);
    } finally {
      await mirror.stop();
    }
  });

  it('a dropped stream is etcd3\'s to heal: no event repeated or missed, nothing read again', async () => {
    expect(keepWatchResumePoints()).toBe(true);
    const ns = fresh();
    const log: string[] = [];
    let reads = 0;
    const mirror = new PrefixMirror(
      ns,
      [
        logged('h/', log, () => {
          reads++;
          return ns.getAll().prefix('h/').exec();
        }),
      ],
      { onLoss: 'restart' },
    );
    await mirror.start();
    try {
      await ns.put('h/1').value('x');
      await until('h/1', () => (log.includes('put h/1') ? true : undefined));
      expect(dropWatchStream(ns, 'test')).toBe(true);
      await ns.put('h/2').value('x');
      await until('h/2', () => (log.includes('put h/2') ? true : undefined));
      await ns.put('h/3').value('x');
      await until('h/3', () => (log.includes('put h/3') ? true : undefined));
      await sleep(100);
      expect(log).toEqual(['snapshot ', 'put h/1', 'put h/2', 'put h/3']);
      expect(reads).toBe(1);
    } finally {
      await mirror.stop();
    }
  });

  it('stop(): nothing after it, even when it comes during the read', async () => {
    const ns = fresh();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const mirror = new PrefixMirror(ns, [
      logged('i/', log, async () => {
        const r = await ns.getAll().prefix('i/').exec();
        await gate;
        return r;
      }),
    ]);
    const started = mirror.start();
    await sleep(100);
    await mirror.stop();
    release();
    await started;
    await ns.put('i/1').value('x');
    await sleep(300);
    expect(log).toEqual([]);

    // And once watching: stop cancels the watcher.
    const mirror2 = new PrefixMirror(ns, [logged('i/', log)]);
    await mirror2.start();
    await mirror2.stop();
    await ns.put('i/2').value('x');
    await sleep(300);
    expect(log).toEqual(['snapshot i/1']);
  });
});
