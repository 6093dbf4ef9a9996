// The one message protocol between the main thread and shard workers. Every request names its
// op; ResultOf maps each op to the typed value the worker answers with. Vectors travel as
// Float32Array (moved, never cloned as JS arrays); everything else is structured-clone data.
// The coordinating channels' messages (hand-offs, catalog, sibling batches) are coordination.ts's.

import type { CollectionMeta, FieldIndexSchema, Payload, PayloadSelector, PointId, PointRecord, ScoredPoint, VectorSelector } from './types.js';
import type { Filter } from './filter.js';
import type { WireError } from './errors.js';
import type { StartupMark } from './startup-clock.js';
import type { IssueRecord, LiveRecall, ShardInfo, StoredBytes, ThreadMemory } from './shard-reports.js';

export const PROTOCOL_VERSION = 2;

/** Start-up data each worker receives (piscina workerData). */
export interface WorkerInit {
  protocolVersion: number;
  workerIndex: number;
  workerCount: number;
  dataDir: string;
  /** Which hnswlib-node build the worker loads (SERVICE_HNSW_BUILD). */
  hnswBuild: HnswBuildMode;
  /** Background graph saves: every N writes or T seconds per shard (0 turns either off). */
  graphSave: { everyWrites: number; everySeconds: number };
  /**
   * Start-up progress the worker publishes while it loads (the main thread reads it for
   * /readyz): Int32 slots LOAD_PROGRESS_SLOTS per worker, at workerIndex * LOAD_PROGRESS_SLOTS.
   */
  progress?: SharedArrayBuffer;
  /** The operation id counter every thread takes from (src/shared/op-ids.ts). */
  opIds: SharedArrayBuffer;
  /** How busy each worker's event loop is: BUSY_SLOTS Int32 per worker (src/workers/busy-meter.ts). */
  busy?: SharedArrayBuffer;
  /**
   * Shard requests each worker has served, by op (quiver_worker_requests_total): Float64 slots,
   * COUNTED_OPS.length per worker at workerIndex * COUNTED_OPS.length, each written by its worker
   * only (one writer per slot: no Atomics needed), read by the main thread at scrape time.
   */
  served?: SharedArrayBuffer;
  /**
   * Int32[1], set to 1 (and notified) by the main thread once REST listens. Only the
   * load_delay_ms failpoint waits for it, so that a slowed load is still loading when the tests
   * that watch it can ask (the workers start before the main thread has loaded its modules).
   */
  listening?: SharedArrayBuffer;
  /** Strict mode's rate-limit buckets, one set for the node (src/workers/service/rate-limits.ts). */
  rateBuckets?: SharedArrayBuffer;
  /** A filtered read slower than this (seconds) raises issues for its unindexed keys (src/workers/service/issues.ts). */
  slowQuerySecs?: number;
  /** The share of approximate searches checked exactly in the background (src/workers/service/live-recall.ts). */
  liveRecallFraction?: number;
  /** The epoch ms the process started (the main thread's performance.timeOrigin): start-up marks share its axis. */
  processOrigin?: number;
  /**
   * Cluster mode (config `cluster.*`): the NATS servers whose shard streams this worker's
   * primaries apply (src/workers/cluster/) and its coordinator publishes writes to, the streams'
   * replicas, the read hedge deadline (ms), and the largest internal message (bytes). Absent in
   * single-node mode: nothing of it loads.
   */
  /** `tls`: the internal port's files (tls.ts; paths only here, so this file's types need no Node types: the client's declarations include them). */
  cluster?: { nats: string[]; streamReplicas: number; hedgeMs: number; maxMessageBytes: number; internal?: InternalPortInit; tls?: { cert: string; key: string; ca: string } };
  /** Cluster mode: reads each worker's coordinator hedged, one Float64 slot per worker (written by its worker only). */
  hedged?: SharedArrayBuffer;
}

/**
 * Cluster mode, worker 0 only: the internal port it serves from its start, before its shards
 * load (peers are then told this node is still loading), so the node registers at once.
 * `bound` is Int32[2], [INTERNAL_PORT.state, INTERNAL_PORT.port]: the worker writes the port bound
 * (a thread replacing it binds that port again) and the state (1 listening, 2 failed), and
 * notifies. `leaseExpiry` is the etcd thread's (BigInt64, epoch ms): refused while it has lapsed.
 */
export interface InternalPortInit {
  host: string;
  port: number;
  leaseExpiry: SharedArrayBuffer;
  bound: SharedArrayBuffer;
}
export const INTERNAL_PORT = { state: 0, port: 1 } as const;
export const INTERNAL_PORT_STATE = { pending: 0, listening: 1, failed: 2 } as const;

/** Per worker in WorkerInit.busy: event-loop utilization in per-mille, and when it was read. */
export const BUSY_SLOTS = 2;
export const BUSY = { perMille: 0, at: 1 } as const;
/** How often a worker reads its utilization, and when a reading counts as stale (the loop is stuck). */
export const BUSY_WINDOW_MS = 20;
export const BUSY_STALE_MS = 200;

/** Per worker in WorkerInit.progress: shards to load, shards loaded, points read. */
export const LOAD_PROGRESS_SLOTS = 3;
export const LOAD_PROGRESS = { shardsTotal: 0, shardsLoaded: 1, points: 2 } as const;

/** One shard's load, reported in the ping at start (the per-collection start-up log). */
export interface ShardLoadReport {
  collection: number;
  shard: number;
  points: number;
  graphsRead: number;
  graphsRebuilt: number;
  /** Writes after the saved graphs' position that were applied to them. */
  replayed: number;
  rebuildReason: string | null;
  /** Wall ms of each part of the load (src/workers/shard/shard.ts ShardLoadPhases). */
  phases?: ShardLoadPhases;
}

/** Where one shard's load spent its time: per part, [wall ms, this thread's CPU ms (null: unknown)]. */
export interface ShardLoadPhases {
  /** Reading and checking the saved graphs' manifest, checksums included. */
  manifest: PhaseTime;
  /** Of which: checksumming the graph files. */
  checksum: PhaseTime;
  /** Reading the shard's LMDB records (ids, versions, payloads; vectors where no saved graph holds them). */
  records: PhaseTime;
  /** Reading the saved graphs (or rebuilding them) and replaying the writes after them. */
  graphs: PhaseTime;
}

export type PhaseTime = [wallMs: number, cpuMs: number | null];

export type HnswBuildMode = 'auto' | 'native' | 'portable';

/** The hnswlib-node build a worker loaded (src/workers/index/hnswlib-loader.ts). */
export interface HnswBuild {
  kind: 'native' | 'portable';
  /** One line for logs and telemetry: `native (avx2: -O3 -mavx2 -mfma -mtune=native)` or `portable (npm)`. */
  description: string;
  /** The compiler flags of the native build; '' for the portable one. */
  flags: string;
  /** Why auto mode loaded the portable build; null when it loaded the native one or was told to. */
  fallbackReason: string | null;
}

/**
 * Vectors of one name for a batch of points: `data` holds the rows, packed, for the points whose
 * `present` flag is 1, in point order (`present` null: every point has one).
 */
export interface VectorColumn {
  data: Float32Array;
  present: Uint8Array | null;
}

/** A sparse vector, indices ascending and unique. */
export interface SparseVec {
  indices: Uint32Array;
  values: Float32Array;
}

/**
 * Sparse vectors of one name for a batch: point i's entries are [offsets[i], offsets[i+1]) of
 * `indices`/`values`, when present[i] is 1.
 */
export interface SparseColumn {
  offsets: Int32Array;
  indices: Uint32Array;
  values: Float32Array;
  present: Uint8Array;
}

/**
 * Multivectors of one name for a batch: point i's sub-vectors, packed, are [offsets[i],
 * offsets[i+1]) of `data` (a whole number of rows of the vector's size), when present[i] is 1.
 */
export interface MultiColumn {
  offsets: Int32Array;
  data: Float32Array;
  present: Uint8Array;
}

export interface PointBatch {
  ids: PointId[];
  /** Upsert: the whole payload (null = empty). Unused by updateVectors. */
  payloads: (Payload | null)[];
  vectors: Record<string, VectorColumn>;
  sparse: Record<string, SparseColumn>;
  /** Multivector names (multivector_config); absent in batches (and log entries) without any. */
  multi?: Record<string, MultiColumn>;
}

export interface SearchSpec {
  vector: string;
  /**
   * Already normalised for Cosine. Empty for a sparse search. For a multivector name: its
   * sub-vectors, packed (each normalised for a float32 Cosine vector; uint8 values cast).
   */
  query: Float32Array;
  /** A sparse query (weights already multiplied by idf where the vector's modifier says so), or null. */
  sparse: SparseVec | null;
  /** How many results this shard returns (limit + offset of the request). */
  k: number;
  ef: number;
  exact: boolean;
  /** Qdrant's params.quantization for a quantized vector (null: defaults; see search-planner.ts). */
  quantization: { ignore: boolean; rescore: boolean | null; oversampling: number | null } | null;
  scoreThreshold: number | null;
  filter: Filter | null;
  /** Ids left out of the results (query by point id leaves the point itself out). */
  exclude: PointId[];
  /** When set, only these points are scored (exactly): re-ranking of prefetched candidates. */
  only: PointId[] | null;
  withPayload: PayloadSelector;
  withVector: VectorSelector;
  /**
   * A score other than the similarity to `query` (recommend best_score and sum_scores, discover,
   * context: docs/query.md), or absent. Its scores are always higher-is-better.
   */
  custom?: CustomScore<Float32Array> | CustomScore<SparseVec>;
}

/**
 * Examples of a custom-scored search, each checked and prepared as a query vector is (Cosine:
 * normalised; sparse: sorted). `pairs` are [positive, negative]. V: dense rows or sparse vectors,
 * as the searched vector is (SearchSpec.sparse says which).
 */
export type CustomScore<V = Float32Array> =
  | { kind: 'best_score' | 'sum_scores'; positives: V[]; negatives: V[] }
  | { kind: 'discover'; target: V; pairs: [V, V][] }
  | { kind: 'context'; pairs: [V, V][] }
  /** relevance_feedback's naive strategy: a x sim(target) + the sum of weight x (sim(better) - sim(worse)). */
  | { kind: 'feedback'; target: V; a: number; pairs: { better: V; worse: V; weight: number }[] };

export interface OrderBySpec {
  key: string;
  direction: 'asc' | 'desc';
  /**
   * Inclusive bound to start from, in order_value units (a datetime key's order_value is epoch
   * microseconds, as Qdrant's), or null to start from the first value in `direction`.
   */
  startFrom: number | null;
}

/** A point at one of its values of the order_by key: a point with several values comes once per value. */
export type OrderedRecord = PointRecord & { order_value: number };

/** Payload changes, as the worker applies them to each selected point. */
export type PayloadOp =
  | { kind: 'set'; payload: Payload; key: string | null }
  | { kind: 'overwrite'; payload: Payload }
  | { kind: 'delete'; keys: string[] }
  | { kind: 'clear' };

/**
 * Which points of a write are written (Qdrant's `update_mode` and `update_filter`): `insert_only`
 * skips points that exist, `update_only` points that do not; an existing point that does not
 * match `updateFilter` keeps its state. Skipped points are not errors.
 */
export interface WriteCondition {
  mode: 'upsert' | 'insert_only' | 'update_only';
  updateFilter: Filter | null;
}

/**
 * A tenant binding (docs/auth.md section 5): the payload filter a credential is bound
 * to on one collection, and the rule's wording for refusals. Reads through it see only points
 * matching `filter`; a write through it refuses (403, naming `rule`) to write a point outside it
 * or to leave one outside it, and deletes touch only matching points. Checked by the shard at
 * apply time, so in cluster mode every replica decides alike.
 */
export interface TenantGuard {
  filter: Filter;
  rule: string;
}

/** A value a facet counts: what keyword, uuid, integer and bool indexes hold. */
export type FacetValue = string | number | boolean;

interface ShardAddress {
  collection: number;
  shard: number;
}

export type ShardRequest =
  | { op: 'ping' }
  /** This worker thread's V8 heap figures (telemetry). */
  | { op: 'memory' }
  /** This worker's issues (GET /issues), cleared after when `clear` (DELETE /issues). */
  | { op: 'issues'; clear: boolean }
  /** This worker's live recall figures (/metrics quiver_live_recall); `keep`: the collections that exist (the others' are forgotten). */
  | { op: 'liveRecall'; keep: number[] }
  | { op: 'saveIndexes' }
  /**
   * `secondary`: the shards are read copies (memory only: no LMDB or graph file writes).
   * `hold`: open them empty and hold every request to them until `loadShards` (a copy added to a
   * live collection: it receives writes from now on, and loads once earlier writes are on disk).
   */
  | { op: 'openShards'; meta: CollectionMeta; shards: number[]; secondary?: boolean; hold?: boolean }
  /** Loads held shards from LMDB, then applies the requests held meanwhile, in order. */
  | { op: 'loadShards'; collection: number; shards: number[] }
  | { op: 'updateConfig'; meta: CollectionMeta }
  | { op: 'dropShards'; collection: number; shards: number[] }
  | { op: 'createIndex'; collection: number; shards: number[]; key: string; schema: FieldIndexSchema }
  | { op: 'dropIndex'; collection: number; shards: number[]; key: string }
  /**
   * Cluster mode: the shards (`[collection id, shard]`) whose logs this worker follows from now on,
   * the whole set (those not named stop); answers the followed shards' positions. The main thread
   * sends it whenever the assignments change, and every ~500 ms for the node's status report.
   */
  | { op: 'followShards'; shards: [number, number][] }
  /** `guard` (all five logged writes): the tenant binding the write was made through, if any. */
  | ({ op: 'upsert'; opId: number; wait: boolean; batch: PointBatch; condition: WriteCondition; guard?: TenantGuard } & ShardAddress)
  | ({ op: 'updateVectors'; opId: number; wait: boolean; batch: PointBatch; condition: WriteCondition; guard?: TenantGuard } & ShardAddress)
  | ({ op: 'delete'; opId: number; wait: boolean; ids: PointId[] | null; filter: Filter | null; guard?: TenantGuard } & ShardAddress)
  /** `filter`: only points matching it are returned (a tenant binding's reads); the others as if missing. */
  | ({ op: 'retrieve'; ids: PointId[]; withPayload: PayloadSelector; withVector: VectorSelector; filter?: Filter | null } & ShardAddress)
  | ({ op: 'search'; searches: SearchSpec[] } & ShardAddress)
  | ({ op: 'payload'; opId: number; wait: boolean; change: PayloadOp; ids: PointId[] | null; filter: Filter | null; guard?: TenantGuard } & ShardAddress)
  | ({ op: 'count'; filter: Filter | null; exact: boolean } & ShardAddress)
  | ({ op: 'facet'; key: string; filter: Filter | null; top: number | null } & ShardAddress)
  | ({
      op: 'scroll';
      offset: PointId | null;
      limit: number;
      filter: Filter | null;
      withPayload: PayloadSelector;
      withVector: VectorSelector;
    } & ShardAddress)
  | ({
      op: 'scrollOrdered';
      orderBy: OrderBySpec;
      limit: number;
      filter: Filter | null;
      withPayload: PayloadSelector;
      withVector: VectorSelector;
    } & ShardAddress)
  | ({ op: 'sample'; limit: number; filter: Filter | null; withPayload: PayloadSelector; withVector: VectorSelector } & ShardAddress)
  | ({ op: 'sparseStats'; vector: string; terms: number[] } & ShardAddress)
  | ({ op: 'deleteVectors'; opId: number; wait: boolean; names: string[]; ids: PointId[] | null; filter: Filter | null; guard?: TenantGuard } & ShardAddress)
  | ({ op: 'shardInfo' } & ShardAddress)
  | ({ op: 'storedBytes' } & ShardAddress)
  /**
   * Cluster mode: answers once the shard has applied log entry `seq` with LMDB flushed, with that
   * entry's outcome (the write op's result, or its error); ShardUnavailable after `timeoutMs`.
   */
  | ({ op: 'awaitApplied'; seq: number; timeoutMs: number } & ShardAddress)
  /**
   * Cluster mode: writes a snapshot of the shard to `file` (src/workers/cluster/shard-snapshot.ts):
   * its LMDB records and applied_seq from one read transaction, and its graphs when a save covers
   * exactly those records (one is made first when the graphs changed since the last). The shard's
   * apply loop pauses while it is taken, not while the file is written.
   */
  | ({ op: 'snapshotShard'; file: string } & ShardAddress)
  /**
   * Cluster mode: replaces the shard's content with the snapshot in `file` (checked whole first;
   * a damaged one changes nothing) and loads it. Requests to the shard wait meanwhile; an apply
   * loop that ran is started again from the snapshot's seq + 1.
   */
  | ({ op: 'restoreShard'; file: string } & ShardAddress)
  /** Cluster mode: where the shard stands in its log (read from LMDB when no apply loop runs). */
  | ({ op: 'logPosition' } & ShardAddress);

export type Op = ShardRequest['op'];

/** The shard ops counted per worker in WorkerInit.served, in slot order (control ops are not counted). */
export const COUNTED_OPS = [
  'upsert',
  'updateVectors',
  'delete',
  'payload',
  'deleteVectors',
  'retrieve',
  'search',
  'count',
  'facet',
  'scroll',
  'scrollOrdered',
  'sample',
  'sparseStats',
  'shardInfo',
] as const satisfies readonly Op[];
export type RequestOf<O extends Op> = Extract<ShardRequest, { op: O }>;

export interface PingResult {
  workerIndex: number;
  protocolVersion: number;
  /** Highest point version seen per collection id, to seed operation ids after a restart. */
  maxVersions: Record<number, number>;
  shardsLoaded: number;
  /** Shards whose HNSW graphs were read from disk, and those rebuilt from the vectors. */
  restoredShards: number;
  rebuiltShards: number;
  /** What each shard's load did (as loaded when the worker started). */
  loads: ShardLoadReport[];
  hnswBuild: HnswBuild;
  /** The worker thread's start-up marks (src/shared/startup-clock.ts), as its first thread made them. */
  startup: StartupMark[];
}

export interface ResultMap {
  ping: PingResult;
  memory: ThreadMemory;
  issues: IssueRecord[];
  liveRecall: LiveRecall[];
  saveIndexes: null;
  openShards: null;
  loadShards: null;
  updateConfig: null;
  dropShards: null;
  createIndex: null;
  dropIndex: null;
  /** Per followed shard ("<collection>/<shard>"): its applied_seq, and why it is Dead (null: it is not). */
  followShards: Record<string, { applied: number; dead: string | null }>;
  payload: { applied: number };
  scrollOrdered: OrderedRecord[];
  sample: PointRecord[];
  sparseStats: { points: number; df: number[] };
  deleteVectors: { applied: number };
  /** `error`: the batch stopped at a failing point; `applied` points before it were written. */
  upsert: { applied: number; error?: string };
  updateVectors: { applied: number };
  delete: { deleted: number };
  retrieve: PointRecord[];
  search: ScoredPoint[][];
  count: number;
  /** Distinct values of the key among the matching points (the `top` most frequent, or all), and how many points hold each. */
  facet: { values: FacetValue[]; counts: number[] };
  scroll: PointRecord[];
  shardInfo: ShardInfo;
  storedBytes: StoredBytes;
  /** The entry's result as its write op answers it (null: no longer kept, or applied before this thread started). */
  awaitApplied: { result: unknown };
  /**
   * The snapshot's log position, its size, its points, whether the graphs went in, and how long
   * the shard's apply loop was paused for it (ms: the graph save, if any, and the capture).
   */
  snapshotShard: { seq: number; bytes: number; points: number; graphs: boolean; pausedMs: number };
  restoreShard: { seq: number; points: number; graphs: boolean };
  logPosition: LogPosition;
}

/** A shard's place in its log (logPosition). */
export interface LogPosition {
  /**
   * applied_seq: the last entry applied with LMDB flushed (0: none): where the shard resumes after
   * any crash, so what a purge may go up to.
   */
  applied: number;
  /** Whether an apply loop runs for it here. */
  following: boolean;
  /** Why it is Dead (it never serves again until restored), or null. */
  dead: string | null;
  /** Dead because its log was purged past it: only a snapshot brings it back. */
  purged: boolean;
}
/** Ops that change which shards a worker holds or how (sent to every copy's worker). */
export type ControlOp = 'openShards' | 'loadShards' | 'updateConfig' | 'dropShards' | 'createIndex' | 'dropIndex' | 'followShards';
/** Ops addressed to one shard of a collection. */
export type ShardOp = Exclude<Op, 'ping' | 'memory' | 'saveIndexes' | ControlOp>;
/**
 * A shard request without its address (collection, shard), which the router fills in. The op is
 * inferred from the literal's `op` (the `{ op: O }` half), so call sites name it once.
 */
export type ShardCall<O extends ShardOp> = { op: O } & Omit<RequestOf<O>, 'collection' | 'shard'>;
export type ResultOf<O extends Op> = ResultMap[O];

/** What a worker posts back: a result, or an error to rebuild with QuiverError.fromWire. */
export type WorkerReply<O extends Op = Op> = { ok: true; result: ResultOf<O> } | { ok: false; error: WireError };
