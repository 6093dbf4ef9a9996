// Writes handed off to the worker coordinators and not yet answered, per collection name. The
// coordinators that route them track them here (src/main/coordinator/replica-aware.ts); the
// Engine's replicas wait on settled() before a copy about to be built loads from LMDB, so that
// LMDB holds every write sent before the copy was added (from then on the collection's writes stay
// on the main thread and reach the new copy directly).
//
// Built by the server before both and passed to each: one tracker, two readers of it.
// Invariant: a tracked promise leaves its set once it settles, and an empty set leaves the map.

export class HandedOffWrites {
  /** Writes handed off to the workers and not yet answered, per collection name. */
  readonly #writes = new Map<string, Set<Promise<unknown>>>();

  /** Keeps `p` (a write of collection `name` handed off to a worker) until it settles. */
  track(name: string, p: Promise<unknown>): void {
    let set = this.#writes.get(name);
    if (set === undefined) this.#writes.set(name, (set = new Set()));
    const s = set;
    s.add(p);
    const done = (): void => {
      s.delete(p);
      if (s.size === 0 && this.#writes.get(name) === s) this.#writes.delete(name);
    };
    p.then(done, done);
  }

  /** Resolves once the writes of the collection handed off before now have answered. */
  settled(name: string): Promise<void> {
    const set = this.#writes.get(name);
    return set === undefined ? Promise.resolve() : Promise.allSettled([...set]).then(() => undefined);
  }
}
