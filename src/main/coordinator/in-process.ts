// Coordinators without worker threads, for buildApp over the in-process dispatcher (tests): the
// handed-off request runs through the same requests.ts (REST) or grpc-requests.ts (gRPC) on the
// main thread, over the Engine.

import type { AnyHandoffRequest, CatalogSnapshot, HandoffReplyOf } from '../../shared/coordination.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { Coordinators } from '../router/dispatcher.js';
import { handleAnyRequest } from '../../workers/coordinator/grpc-requests.js';

export class InProcessCoordinators implements Coordinators {
  readonly #engine: PointEngine;

  constructor(engine: PointEngine) {
    this.#engine = engine;
  }

  async handoff<R extends AnyHandoffRequest>(req: R): Promise<{ reply: HandoffReplyOf<R>; worker: number }> {
    return { reply: await handleAnyRequest(this.#engine, req), worker: 0 };
  }

  async publishCatalog(_snapshot: CatalogSnapshot): Promise<void> {
    // The Engine is this thread's catalog.
  }
}
