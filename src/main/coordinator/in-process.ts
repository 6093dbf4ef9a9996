// Coordinators without worker threads, for buildApp over the in-process dispatcher (tests): the
// handed-off request runs through the same requests.ts on the main thread, over the Engine.

import type { CatalogSnapshot, HandoffReply, HandoffRequest } from '../../shared/protocol.js';
import type { PointEngine } from '../point-engine.js';
import type { Coordinators } from '../router/dispatcher.js';
import { handleRequest } from './requests.js';

export class InProcessCoordinators implements Coordinators {
  readonly #engine: PointEngine;

  constructor(engine: PointEngine) {
    this.#engine = engine;
  }

  async handoff(req: HandoffRequest): Promise<{ reply: HandoffReply; worker: number }> {
    return { reply: await handleRequest(this.#engine, req), worker: 0 };
  }

  async publishCatalog(_snapshot: CatalogSnapshot): Promise<void> {
    // The Engine is this thread's catalog.
  }
}
