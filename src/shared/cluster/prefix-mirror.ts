// An etcd prefix mirrored: one read of the prefix (the snapshot), then a watch from the revision
// after the read's, so no change between the two is missed or delivered twice. Several prefixes
// may make one set (each read at once, every snapshot delivered before any watcher is created),
// replaced as a whole. A failed read or watch creation is retried after a pause; how a try starts
// again is the caller's pick: start() reads again, startAt() resumes each watch from the last
// revision it delivered, without reading.
// Invariants: a prefix's snapshot reaches the caller before any of its events; each watcher gets
// the caller's handlers before it delivers anything; nothing starts after stop(), and a watcher
// created while stop() ran is cancelled. Once watching, a dropped stream is etcd3's to heal: it
// re-opens the stream and re-attaches every watcher from its last delivered revision (the etcd
// thread's watch guard keeps that revision right), so only etcd cancelling a watcher is a loss.

import type { IRangeResponse, IWatchResponse, Namespace, Watcher } from 'etcd3';

/** One prefix of a set, with the caller's handlers. */
export interface MirroredPrefix {
  /** As the namespace sees it (a Namespace's keys come back without its own prefix). */
  prefix: string;
  /**
   * The snapshot's read: every key under the prefix when absent. null: no snapshot, the watch
   * starts at etcd's revision when it is created (for a watcher that only needs to hear of
   * changes, and reads for itself).
   */
  read?: (() => Promise<IRangeResponse>) | null;
  /** The snapshot as read; runs before any watcher of the set is created. */
  snapshot?: (res: IRangeResponse) => void;
  /** Hooks the caller's handlers (put, delete, data, ...) on the prefix's new watcher. */
  watching: (w: Watcher) => void;
}

/**
 * What etcd cancelling a watcher (its 'error': a compacted revision, say) does; 'end' is listened
 * to as well, though etcd3 emits it only after our own cancel(), which is never a loss.
 * - 'etcd3': nothing is done here (a watcher etcd cancelled stays so; etcd3's create() keeps a
 *   listener for one 'error', so it does not throw);
 * - 'restart': the set's other watchers are cancelled and it starts over at once, reading again;
 * - 'restart-after-pause': the same, after the retry pause.
 */
export type OnWatchLoss = 'etcd3' | 'restart' | 'restart-after-pause';

export interface PrefixMirrorOptions {
  onLoss?: OnWatchLoss;
  /** Told each failed read or watch creation before the pause (a log line); none: silent. */
  onRetry?: (err: unknown) => void;
  /** The pause before a retry (ms). */
  retryMs?: number;
}

/** One try: its watchers, and whether it is still the current one (stop and a loss end it). */
interface Attempt {
  watchers: Watcher[];
  live: boolean;
}

const RETRY_MS = 500;

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class PrefixMirror {
  readonly #ns: Namespace;
  readonly #prefixes: readonly MirroredPrefix[];
  readonly #onLoss: OnWatchLoss;
  readonly #onRetry: ((err: unknown) => void) | undefined;
  readonly #retryMs: number;
  /** Per prefix, the revision its watch resumes after (startAt): the last delivered with events. */
  readonly #delivered: (string | null)[];
  #attempt: Attempt | null = null;
  #stopped = false;

  /** `ns`: a Namespace, or the client itself (an Etcd3 is one) for absolute keys. */
  constructor(ns: Namespace, prefixes: readonly MirroredPrefix[], opts: PrefixMirrorOptions = {}) {
    this.#ns = ns;
    this.#prefixes = prefixes;
    this.#onLoss = opts.onLoss ?? 'etcd3';
    this.#onRetry = opts.onRetry;
    this.#retryMs = opts.retryMs ?? RETRY_MS;
    this.#delivered = prefixes.map(() => null);
  }

  /** Reads, delivers the snapshots, watches; retried (reading again) until watching or stopped. */
  start(): Promise<void> {
    return this.#run(false);
  }

  /**
   * Watches every prefix from the revision after `revision` (the caller read and applied a
   * snapshot as of it), reading nothing; a failed creation is retried from the revision after the
   * last one each watch delivered. Resolves once watching or stopped.
   */
  startAt(revision: string): Promise<void> {
    this.#delivered.fill(revision);
    return this.#run(true);
  }

  /**
   * One try, not retried: a failure is thrown (what it made is cancelled). The watchers, in order:
   * the caller's from then on (onLoss does not apply to them).
   */
  async once(): Promise<Watcher[]> {
    const a = this.#begin();
    try {
      if (!(await this.#open(a, false, false))) throw new Error('prefix mirror stopped');
      return [...a.watchers];
    } catch (e) {
      a.live = false;
      await cancel(a);
      throw e;
    }
  }

  async #run(resume: boolean): Promise<void> {
    while (!this.#stopped) {
      const a = this.#begin();
      try {
        await this.#open(a, resume, true);
        return;
      } catch (e) {
        // Ended meanwhile (stop, or a loss that started a new try): that one goes on, not this.
        if (!a.live) return;
        a.live = false;
        this.#onRetry?.(e);
        await cancel(a);
        if (!this.#stopped) await pause(this.#retryMs);
      }
    }
  }

  #begin(): Attempt {
    const a: Attempt = { watchers: [], live: true };
    this.#attempt = a;
    return a;
  }

  /**
   * Reads (unless resuming), delivers the snapshots, creates the watchers, with onLoss's listeners
   * when `heal`; false when the try was ended meanwhile.
   */
  async #open(a: Attempt, resume: boolean, heal: boolean): Promise<boolean> {
    let from: readonly (string | null)[];
    if (resume) from = [...this.#delivered];
    else {
      // Every read at once, so the set's snapshots are near in time.
      const reads = await Promise.all(this.#prefixes.map((p) => (p.read === null ? null : (p.read ?? (() => this.#ns.getAll().prefix(p.prefix).exec()))())));
      if (!a.live) return false;
      reads.forEach((res, i) => {
        if (res !== null) this.#prefixes[i]!.snapshot?.(res);
      });
      from = reads.map((res) => res?.header.revision ?? null);
    }
    for (const [i, p] of this.#prefixes.entries()) {
      const builder = this.#ns.watch().prefix(p.prefix);
      const rev = from[i];
      if (rev !== null && rev !== undefined) builder.startRevision((BigInt(rev) + 1n).toString());
      const w = await builder.create();
      if (!a.live) {
        // stop() or a loss cancelled the try's watchers before this one existed.
        await w.cancel().catch(() => undefined);
        return false;
      }
      a.watchers.push(w);
      // First, so a handler of the caller's that throws cannot keep the resume point behind.
      w.on('data', (res: IWatchResponse) => {
        if (res.events.length > 0) this.#delivered[i] = res.header.revision;
      });
      p.watching(w);
      if (heal && this.#onLoss !== 'etcd3') {
        w.once('error', () => this.#lost(a, w));
        w.once('end', () => this.#lost(a, w));
      }
    }
    return true;
  }

  /** Watcher `w` of try `a` was cancelled by etcd: the set starts over (once per try). */
  #lost(a: Attempt, w: Watcher): void {
    if (!a.live || this.#stopped) return;
    a.live = false;
    // etcd3 has dropped it already: its cancel() would wait for an answer etcd never sends
    // (measured: the restart then never came).
    a.watchers = a.watchers.filter((x) => x !== w);
    void (async () => {
      await cancel(a);
      if (this.#onLoss === 'restart-after-pause' && !this.#stopped) await pause(this.#retryMs);
      if (!this.#stopped) await this.#run(false);
    })();
  }

  /** Stops retrying and cancels the current watchers. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const a = this.#attempt;
    if (a === null) return;
    a.live = false;
    await cancel(a);
  }
}

async function cancel(a: Attempt): Promise<void> {
  const ws = a.watchers.splice(0);
  await Promise.all(ws.map((w) => w.cancel().catch(() => undefined)));
}
