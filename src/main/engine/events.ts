// Where the engine reports what happens outside any request: a background task that failed (a
// collection's drop, a copy transition on its way to the workers) and the transitions of shard
// copies. Passed to the Engine when it is built; the server's forwards to its logger, which exists
// before engine.start() (nothing is reported before it).
//
// Invariant: reporting never throws into the engine and never waits; a sink that drops every
// event (NO_EVENTS, the default) changes nothing else.

export type ReplicaEventLevel = 'info' | 'warn' | 'error';

export interface EngineEvents {
  /** A background task failed; `what` names it (`dropping the data of deleted collection ...`). */
  backgroundError(err: unknown, what: string): void;
  /** A copy transition (copies created, built, failed, diverged...), at the level it is logged. */
  replicaEvent(level: ReplicaEventLevel, msg: string, fields: Record<string, unknown>): void;
}

/** Reports nothing (tests, embedding). */
export const NO_EVENTS: EngineEvents = {
  backgroundError: () => undefined,
  replicaEvent: () => undefined,
};
