// How a handed-off request reaches its coordinator: every point request is coordinated in a
// worker (docs/request-path.md, "Where a request is coordinated"). One thing is decided here,
// on the main thread, because only this thread's replica tables change in step with a copy being
// added: a write of a collection that keeps copies is marked routeCalls; all such writes of the
// collection go to one coordinator, which sends every shard call they make to this thread's
// router, in arrival order, and the router writes every copy of a shard in that one order
// (coordinators writing copies themselves would each write in their own order, and copies could
// then disagree: an older upsert landing after a newer delete; a write's existence check could
// overtake the upsert sent before it). Reads of such collections read one Active copy per shard
// from the replica table published with the catalog.
//
// Writes handed off are tracked per collection until they answer: a copy added by a PATCH loads
// from LMDB only after those in flight when it was added (from then on the collection's writes
// are routed through this thread and reach the new copy).

import { isReadMethod, isReadRoute } from '../../shared/point-ops.js';
import { isGrpcHandoff, type AnyHandoffRequest, type CatalogSnapshot, type HandoffReplyOf } from '../../shared/coordination.js';
import type { Engine, HandedOffWrites } from '../engine.js';
import type { Coordinators } from '../router/dispatcher.js';

/** Whether a hand-off only reads, as the registry says (a route or method it does not know is taken for a write: a write sent to the main thread is only slower, a write sent to a worker could reorder copies). */
function isRead(req: AnyHandoffRequest): boolean {
  return isGrpcHandoff(req) ? isReadMethod(req.method) : isReadRoute(req.route);
}

export class ReplicaAwareCoordinators implements Coordinators {
  readonly #engine: Engine;
  readonly #workers: Coordinators;
  /** Writes handed off to the workers and not yet answered, per collection name (the Engine reads the same tracker). */
  readonly #handedOff: HandedOffWrites;

  constructor(engine: Engine, workers: Coordinators, handedOff: HandedOffWrites) {
    this.#engine = engine;
    this.#workers = workers;
    this.#handedOff = handedOff;
  }

  /** True when the request's collection keeps copies: its writes are routed through this thread. */
  #hasCopies(name: string): boolean {
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
    const p = this.#workers.handoff(this.#hasCopies(name) ? { ...req, routeCalls: true } : req);
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
