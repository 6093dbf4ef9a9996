// Which coordinator serves a handed-off request: the one place that decides it. Writes of a
// collection with read copies (more than one copy per shard in the Engine's replica table) are
// served on the main thread, over the Engine's router, which sends every write to all copies of a
// shard in one order: coordinators in the workers would each send writes in their own order, and
// copies could then disagree (an older upsert landing after a newer delete). Everything else,
// the reads of replicated collections included, goes to the worker coordinators, which read one
// Active copy per shard from the replica table the Engine publishes with the catalog.
//
// Writes of other collections handed off to the workers are tracked per collection until they
// answer: a copy added by a PATCH loads from LMDB only after those in flight when it was added
// (from then on the collection's writes come here and reach the new copy).

import { isGrpcHandoff, type AnyHandoffRequest, type CatalogSnapshot, type HandoffReplyOf } from '../../shared/protocol.js';
import type { Engine } from '../engine.js';
import type { Coordinators } from '../router/dispatcher.js';
import { InProcessCoordinators } from './in-process.js';

/**
 * The hand-off routes that only read. A route not listed is taken for a write: a write sent to
 * the main thread is only slower, a write sent to a worker could reorder copies.
 */
const READ_ROUTES: ReadonlySet<string> = new Set([
  'POST /collections/:collection_name/points/search',
  'POST /collections/:collection_name/points/search/batch',
  'POST /collections/:collection_name/points/query',
  'POST /collections/:collection_name/points/query/batch',
  'POST /collections/:collection_name/points',
  'POST /collections/:collection_name/points/count',
  'POST /collections/:collection_name/points/scroll',
]);

/** The gRPC hand-off methods that only read (the same rule: a method not listed is a write). */
const READ_METHODS: ReadonlySet<string> = new Set(['Search', 'SearchBatch', 'Query', 'QueryBatch', 'Get', 'Count', 'Scroll']);

function isRead(req: AnyHandoffRequest): boolean {
  return isGrpcHandoff(req) ? READ_METHODS.has(req.method) : READ_ROUTES.has(req.route);
}

export class ReplicaAwareCoordinators implements Coordinators {
  readonly #engine: Engine;
  readonly #workers: Coordinators;
  readonly #main: InProcessCoordinators;
  /** Writes handed off to the workers and not yet answered, per collection name. */
  readonly #writes = new Map<string, Set<Promise<unknown>>>();

  constructor(engine: Engine, workers: Coordinators) {
    this.#engine = engine;
    this.#workers = workers;
    this.#main = new InProcessCoordinators(engine);
    engine.handedOffWrites = (name) => {
      const set = this.#writes.get(name);
      return set === undefined ? Promise.resolve() : Promise.allSettled([...set]).then(() => undefined);
    };
  }

  /** True when the request is a write of a collection that keeps copies: it stays on this thread. */
  #onMain(name: string): boolean {
    try {
      return this.#engine.hasCopies(this.#engine.collection(name));
    } catch {
      // Unknown, being deleted or not ready: the coordinator answers as the Engine would.
      return false;
    }
  }

  handoff<R extends AnyHandoffRequest>(req: R): Promise<{ reply: HandoffReplyOf<R>; worker: number }> {
    if (isRead(req)) return this.#workers.handoff(req);
    const name = req.params.collection_name;
    if (typeof name !== 'string') return this.#workers.handoff(req);
    if (this.#onMain(name)) return this.#main.handoff(req);
    const p = this.#workers.handoff(req);
    this.#track(name, p);
    return p;
  }

  #track(name: string, p: Promise<unknown>): void {
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

  publishCatalog(snapshot: CatalogSnapshot): Promise<void> {
    return this.#workers.publishCatalog(snapshot);
  }
}
