// Watches that a frozen etcd member cannot hold back (the control plane, docs/cluster.md section 7).
//
// etcd3 carries every watcher of one Namespace object on one gRPC stream to one member, picked at
// random when the stream opens. A member that freezes (SIGSTOP, a paused VM, a half-open path)
// keeps that stream open and silent: every mirror on it (catalog, assignments, nodes, auth, the
// controller's loop) sees no change for as long as the pause lasts, while this node's other calls
// go on through the live members. Measured on etcd 3.4.23: a put made while the member holding the
// stream was frozen reached the watcher only at SIGCONT, 15 s later.
//
// The guard: the controller writes /quiver/tick every period; every node reads it back from a live
// member and compares it with the last tick each of its watch streams delivered. A stream that has
// not delivered a tick a live member has held for a whole period is dropped. etcd3 opens it again
// on a member picked anew and re-attaches every watcher from its last revision, so no event is
// missed or repeated; should it land on the frozen member again, the next period drops it again.

import { Watcher, type Namespace } from 'etcd3';
import { within } from '../shared/deadline.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';

/** The key the controller rewrites every period (under the cluster's root, /quiver/). */
export const TICK_KEY = 'tick';

/** One watch stream to guard: a Namespace object, whose watchers share one stream. */
export interface GuardedStream {
  /** For the log: which of this node's streams it is. */
  name: string;
  ns: Namespace;
  /** TICK_KEY as seen from `ns` (its prefix differs). */
  key: string;
}

interface StreamState extends GuardedStream {
  watcher: Watcher | null;
  /** The mod revision of the last tick this stream delivered. */
  seen: bigint;
  /** Since when a live member holds a tick the stream had not delivered (ms), and that tick's revision. */
  behindSince: number | null;
  behindRev: bigint;
  /** A watcher's creation is under way. */
  pending: boolean;
  drops: number;
}

/** etcd3's per-Namespace watch manager: not public, so reached by shape and checked at run time. */
interface WatchManagerShape {
  handleError(err: Error): void;
  /** 0 idle (a re-open is scheduled), 1 connecting, 2 connected. */
  state: number;
  /** The wait before the next re-open, and where it starts from (cockatiel backoffs). */
  backoff: unknown;
  initialBackoff: { next(): unknown };
}

/** etcd3's WatchManager state of a stream that is open. */
const CONNECTED = 2;

/**
 * Drops the watch stream of `ns` as a stream error would: etcd3 re-opens it on a member picked
 * anew and re-attaches its watchers from their last revisions. Only an open stream is dropped: one
 * being re-opened is left to it (each drop of etcd3's own lengthens its wait before the next
 * re-open, up to 30 s, so dropping again while it waits would keep it closed). The wait is reset to
 * its first step: the member the stream was on is not failing, it is silent. 'reopening' when a
 * re-open is under way already, false when this etcd3 has no such manager (the guard then only
 * reports).
 */
export function dropWatchStream(ns: Namespace, why: string): boolean | 'reopening' {
  const m = (ns as unknown as { watchManager?: Partial<WatchManagerShape> }).watchManager;
  if (m === undefined || typeof m.handleError !== 'function') return false;
  if (typeof m.state === 'number' && m.state !== CONNECTED) return 'reopening';
  if (m.initialBackoff !== undefined && typeof m.initialBackoff.next === 'function') m.backoff = m.initialBackoff.next();
  m.handleError(new Error(why));
  return true;
}

/** A watch response as etcd3's Watcher sees it. */
interface WatchResponseShape {
  created?: boolean;
  header?: { revision?: string | number };
}

let resumeFixed = false;

/**
 * Makes every etcd3 watcher resume where its delivered events end. etcd3 (1.1.2, read in its
 * code) moves a watcher's resume point to the answering member's revision when the watch is
 * (re)created: on a member that is behind (one just woken from a freeze) that is backwards, so the
 * next re-open would deliver again what was delivered; on one ahead, events not yet delivered
 * would be passed over by a re-open right then. The guard makes re-opens common, so this matters. Here the point moves only with delivered responses, and
 * never back; a watcher begun "now" (no start revision) still takes its creation's revision.
 * Once per thread, before any watcher exists; false when this etcd3 has no such method.
 */
export function keepWatchResumePoints(): boolean {
  const proto = Watcher.prototype as unknown as { updateRevision?: (res: WatchResponseShape) => void };
  if (typeof proto.updateRevision !== 'function') return false;
  if (resumeFixed) return true;
  resumeFixed = true;
  proto.updateRevision = function (this: { request: { start_revision?: string | number | null } }, res: WatchResponseShape): void {
    const header = res.header?.revision;
    if (header === undefined || header === null) return;
    const next = BigInt(header) + 1n;
    const current = this.request.start_revision;
    const unset = current === undefined || current === null || String(current) === '0';
    if (res.created === true && !unset) return;
    if (unset || next > BigInt(current)) this.request.start_revision = next.toString();
  };
  return true;
}

export class WatchGuard {
  readonly #members: Namespace[];
  readonly #streams: StreamState[];
  readonly #periodMs: number;
  readonly #isWriter: () => boolean;
  readonly #emit: (m: FromEtcdThread) => void;
  #timer: NodeJS.Timeout | null = null;
  #busy = false;
  /** The member the last tick write went through: tried first next time. */
  #writeVia = 0;

  /**
   * `members`: the /quiver/ namespace of one client per etcd member (or the one client), for the
   * tick's write and read: through each member on its own, so a frozen one costs the guard nothing
   * (the pooled client would send a third of them to it). `isWriter`: whether this node writes the
   * tick now (the controller).
   */
  constructor(members: Namespace[], streams: GuardedStream[], periodMs: number, isWriter: () => boolean, emit: (m: FromEtcdThread) => void) {
    this.#members = members;
    this.#streams = streams.map((s) => ({ ...s, watcher: null, seen: 0n, behindSince: null, behindRev: 0n, pending: false, drops: 0 }));
    // A dropped stream re-attaches its watchers from their resume points: those must be right.
    if (!keepWatchResumePoints()) emit({ type: 'log', level: 'warn', msg: 'this etcd3 keeps watch resume points elsewhere: a re-opened watch may repeat or skip events', fields: {} });
    this.#periodMs = periodMs;
    this.#isWriter = isWriter;
    this.#emit = emit;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.check(), this.#periodMs);
  }

  /** How often each stream was dropped (by name). */
  drops(): Record<string, number> {
    return Object.fromEntries(this.#streams.map((s) => [s.name, s.drops]));
  }

  /** One period's work: write the tick (the controller), read it back, drop the streams behind it. */
  async check(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      if (this.#isWriter()) await this.#writeTick();
      // Every member asked at once; the first to answer (a linearizable read: a live majority's view) tells.
      const bound = this.#periodMs;
      const res = await Promise.any(
        this.#members.map((m) =>
          within(m.get(TICK_KEY).exec(), bound, () => {
            throw new Error(`tick read: no answer within ${bound} ms`);
          }),
        ),
      );
      const held = BigInt(res.kvs[0]?.mod_revision ?? '0');
      const now = Date.now();
      for (const s of this.#streams) this.#checkStream(s, held, BigInt(res.header.revision), now);
    } catch {
      // No live member answered this period: nothing can be told about the streams.
    } finally {
      this.#busy = false;
    }
  }

  /** Through one member after another, the last that took it first, each given a share of the period. */
  async #writeTick(): Promise<void> {
    const n = this.#members.length;
    const share = Math.max(100, Math.floor(this.#periodMs / n));
    for (let k = 0; k < n; k++) {
      const i = (this.#writeVia + k) % n;
      try {
        await within(this.#members[i]!.put(TICK_KEY).value(String(Date.now())).exec(), share, () => {
          throw new Error('tick write: no answer');
        });
        this.#writeVia = i;
        return;
      } catch {
        // the next member (a put left waiting on a frozen one lands when it wakes: a tick, harmless)
      }
    }
    throw new Error('tick write: no member answered');
  }

  #checkStream(s: StreamState, held: bigint, revision: bigint, now: number): void {
    if (s.watcher === null) {
      // From the revision just read (etcd's, not the tick's: that one may be compacted), so a
      // tick written meanwhile is delivered too. A creation still unanswered a period later is
      // itself a silent stream.
      if (s.pending) return this.#drop(s, 'a watch created on it was never answered');
      s.pending = true;
      s.ns
        .watch()
        .key(s.key)
        .startRevision((revision + 1n).toString())
        .create()
        .then(
          (w) => {
            s.pending = false;
            if (this.#timer === null) return void w.cancel().catch(() => undefined);
            s.watcher = w;
            s.seen = held;
            s.behindSince = null;
            w.on('put', (kv) => {
              const rev = BigInt(kv.mod_revision);
              if (rev > s.seen) s.seen = rev;
            });
            // etcd cancelled it (a compaction, say): made again at the next check.
            const gone = (): void => {
              if (s.watcher === w) s.watcher = null;
            };
            w.on('error', gone);
            w.on('end', gone);
          },
          () => (s.pending = false),
        );
      return;
    }
    // Behind only if a tick a live member held a whole period ago has still not come: one written
    // a moment ago (the controller checks right after its write) is on its way.
    if (s.behindSince === null) {
      if (held > s.seen) {
        s.behindSince = now;
        s.behindRev = held;
      }
      return;
    }
    if (s.seen >= s.behindRev) {
      s.behindSince = held > s.seen ? now : null;
      s.behindRev = held;
      return;
    }
    if (now - s.behindSince >= this.#periodMs) this.#drop(s, `it delivered etcd revision ${s.seen} of the tick; a live member has held ${s.behindRev} for ${now - s.behindSince} ms`);
  }

  #drop(s: StreamState, why: string): void {
    s.behindSince = null;
    const dropped = dropWatchStream(s.ns, `watch stream silent: ${why}`);
    if (dropped === 'reopening') return;
    if (dropped) s.drops++;
    this.#emit({
      type: 'log',
      level: 'warn',
      msg: dropped ? 'etcd watch stream silent (a frozen member?); re-opened on another member' : 'etcd watch stream silent, and this etcd3 cannot re-open it',
      fields: { stream: s.name, why },
    });
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    for (const s of this.#streams) {
      // Not awaited: a cancel on a silent stream waits for the member.
      void s.watcher?.cancel().catch(() => undefined);
      s.watcher = null;
    }
  }
}
