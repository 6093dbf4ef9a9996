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

import { isReadMethod, isReadRoute } from '../../shared/point-ops.js';
import { isGrpcHandoff, type AnyHandoffRequest, type CatalogSnapshot, type HandoffReplyOf } from '../../shared/coordination.js';
import type { Engine, HandedOffWrites } from '../engine.js';
import type { Coordinators } from '../router/dispatcher.js';
import { InProcessCoordinators } from './in-process.js';

/** Whether a hand-off only reads, as the registry says (a route or method it does not know is taken for a write: a write sent to the main thread is only slower, a write sent to a worker could reorder copies). */
function isRead(req: AnyHandoffRequest): boolean {
  return isGrpcHandoff(req) ? isReadMethod(req.method) : isReadRoute(req.route);
}

export class ReplicaAwareCoordinators implements Coordinators {
  readonly #engine: Engine;
  readonly #workers: Coordinators;
  readonly #main: InProcessCoordinators;
  /** Writes handed off to the workers and not yet answered, per collection name (the Engine reads the same tracker). */
  readonly #handedOff: HandedOffWrites;

  constructor(engine: Engine, workers: Coordinators, handedOff: HandedOffWrites) {
    this.#engine = engine;
    this.#workers = workers;
    this.#main = new InProcessCoordinators(engine);
    this.#handedOff = handedOff;
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
    this.#handedOff.track(name, p);
  }

  publishCatalog(snapshot: CatalogSnapshot): Promise<void> {
    return this.#workers.publishCatalog(snapshot);
  }
}
