// Which coordinator serves a handed-off request. A collection with read copies
// (replication_factor > 1 on more than one worker) is served on the main thread, over the
// Engine's router: that router alone knows which copy is still being built (never read) and
// sends every write to all copies of a shard in one order. Coordinators in the workers would
// each send writes in their own order, and copies could then disagree (an older upsert landing
// after a newer delete). Every other collection goes to the worker coordinators.

import type { AnyHandoffRequest, CatalogSnapshot, HandoffReplyOf } from '../../shared/protocol.js';
import type { Engine } from '../engine.js';
import type { Coordinators } from '../router/dispatcher.js';
import { InProcessCoordinators } from './in-process.js';

export class ReplicaAwareCoordinators implements Coordinators {
  readonly #engine: Engine;
  readonly #workers: Coordinators;
  readonly #main: InProcessCoordinators;

  constructor(engine: Engine, workers: Coordinators) {
    this.#engine = engine;
    this.#workers = workers;
    this.#main = new InProcessCoordinators(engine);
  }

  /** True when the request's collection keeps copies: its requests stay on this thread. */
  #onMain(req: AnyHandoffRequest): boolean {
    const name = req.params.collection_name;
    if (typeof name !== 'string') return false;
    try {
      return this.#engine.effectiveReplicas(this.#engine.collection(name)) > 1;
    } catch {
      // Unknown, being deleted or not ready: the coordinator answers as the Engine would.
      return false;
    }
  }

  handoff<R extends AnyHandoffRequest>(req: R): Promise<{ reply: HandoffReplyOf<R>; worker: number }> {
    return this.#onMain(req) ? this.#main.handoff(req) : this.#workers.handoff(req);
  }

  publishCatalog(snapshot: CatalogSnapshot): Promise<void> {
    return this.#workers.publishCatalog(snapshot);
  }
}
