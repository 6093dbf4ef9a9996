// A read's `consistency` (Qdrant's ReadConsistency: REST query parameter, gRPC read_consistency)
// in cluster mode (docs/cluster.md section 6): the default, a factor of 1, reads whatever the picked
// replica has applied; any stronger value (`majority`, `quorum`, `all`, or a factor above 1) reads
// at the write log's end as it was when the read started. Pure parsing, no cluster imports:
// requests.ts and grpc-requests.ts run in the coordinating workers too (single-node mode, where
// the value is accepted and ignored as before).

import { QuiverError } from './errors.js';
import type { PointEngine } from './point-engine.js';

/** Whether a read waits for the log's end: the only distinction Quiver's one-log design draws. */
export type ReadLevel = 'applied' | 'log-end';

const WORDS = new Set(['majority', 'quorum', 'all']);

/** A REST `consistency` query value (a string, or absent): 400 naming it when malformed. */
export function restReadLevel(raw: unknown): ReadLevel {
  if (raw === undefined) return 'applied';
  const v = typeof raw === 'number' ? String(raw) : raw;
  if (typeof v === 'string') {
    if (WORDS.has(v)) return 'log-end';
    if (/^[0-9]+$/.test(v)) {
      const n = Number(v);
      if (n >= 1) return n === 1 ? 'applied' : 'log-end';
    }
  }
  throw QuiverError.badInput(`Bad request: consistency must be a number of replicas (1 or more) or one of majority, quorum, all; got ${JSON.stringify(raw)}`);
}

/** A gRPC ReadConsistency as the loader decodes it (enums by name, uint64 as a string, the oneof's member named). */
export interface GrpcReadConsistency {
  value?: 'type' | 'factor';
  type?: string;
  factor?: string | number;
}

/** A gRPC read_consistency (absent: the default): INVALID_ARGUMENT for a factor of 0. */
export function grpcReadLevel(rc: GrpcReadConsistency | null | undefined): ReadLevel {
  if (rc === null || rc === undefined) return 'applied';
  if (rc.value === 'type' || (rc.value === undefined && rc.type !== undefined)) return 'log-end';
  if (rc.factor === undefined) return 'applied';
  const n = Number(rc.factor);
  if (!Number.isInteger(n) || n < 1) throw QuiverError.badInput(`read_consistency factor must be 1 or more, got ${String(rc.factor)}`);
  return n === 1 ? 'applied' : 'log-end';
}

/**
 * The engine a read runs on at this level: the engine itself unless it reads across nodes
 * (PointEngine.atLogEnd, cluster mode only) and the level asks for the log's end.
 */
export function engineAt(engine: PointEngine, level: () => ReadLevel): PointEngine {
  if (engine.atLogEnd === undefined) return engine;
  return level() === 'log-end' ? engine.atLogEnd() : engine;
}
