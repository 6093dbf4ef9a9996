// What shards and worker threads report about themselves, over the message protocol (protocol.ts
// ResultMap): a shard's counts and memory, its stored bytes, a thread's heap, and the issues its
// reads raised. Read by telemetry, metrics, collection info, strict mode and GET /issues.

export interface ShardInfo {
  shard: number;
  worker: number;
  /** A read copy (replication_factor > 1) rather than the primary. */
  secondary: boolean;
  points: number;
  /** Per vector name: how many vectors the HNSW index holds. */
  indexedVectors: Record<string, number>;
  /** Per vector name, dense and sparse: how many live points have that vector. */
  vectors: Record<string, number>;
  /** Per indexed payload key: how many points have an indexed value. */
  indexedPayload: Record<string, number>;
  /** An HNSW graph is being rebuilt with new parameters (the old one serves meanwhile). */
  rebuilding: boolean;
  /**
   * Writes replayed at load (after kill -9) are still being added to a restored graph in the
   * background; their rows are searched exactly until then.
   */
  catchingUp: boolean;
  /** Background graph saves since start, and writes not yet covered by a saved graph. */
  graphSaves: number;
  unsavedWrites: number;
  /** Estimated bytes held in memory, by kind (see MemoryBytes). */
  memory: MemoryBytes;
  /** Bytes of its live vectors and payloads (see StoredBytes). */
  stored: StoredBytes;
  /** Wall ms its load from LMDB took in this thread (0: opened empty). */
  loadMs: number;
}

/**
 * Estimated in-memory bytes of a shard or collection, by kind: `vectors` rows held outside a
 * graph (vectors without HNSW, sparse vectors) and per-slot presence; `graph` HNSW graphs with
 * the dense vectors they hold; `payload_index` field indexes; `ids` the id tracker (id <-> slot,
 * versions).
 */
export interface MemoryBytes {
  vectors: number;
  graph: number;
  payload_index: number;
  ids: number;
}

/**
 * One thread's JavaScript memory, as its own V8 isolate reports it (process.memoryUsage): the
 * heap it has committed and the part in use, and the off-heap memory its objects hold
 * (`external` includes `array_buffers`; SharedArrayBuffers count in every thread that holds one).
 */
export interface ThreadMemory {
  heap_total_bytes: number;
  heap_used_bytes: number;
  external_bytes: number;
  array_buffers_bytes: number;
}

/** A fix an issue offers: the field index to create, as a message and the request that makes it. */
export interface IssueFix {
  message: string;
  action: { method: string; uri: string; headers: Record<string, string>; body: Record<string, unknown> };
}

/** Qdrant's IssueRecord: an unindexed field that slow filtered reads keep hitting. */
export interface IssueRecord {
  id: string;
  description: string;
  /** One index to create, or a choice of them (Qdrant's `immediate` and `immediate_choice`). */
  solution: { immediate: IssueFix } | { immediate_choice: IssueFix[] };
  /** RFC 3339, when first raised. */
  timestamp: string;
}

/**
 * What a shard stores, as strict mode's collection size limits count it: its live `points`,
 * `vectors` the bytes of their vectors' data (dense and multivector rows at their datatype's
 * width, sparse vectors at 8 bytes an entry), `payload` the bytes of their payloads' JSON.
 */
export interface StoredBytes {
  points: number;
  vectors: number;
  payload: number;
}

/** One worker's live recall for a collection, filtered searches apart (src/workers/service/live-recall.ts). */
export interface LiveRecall {
  collection: string;
  /** The collection's id: a collection made again under the same name does not inherit the figure. */
  collectionId: number;
  filtered: boolean;
  /** Checks made since start. */
  samples: number;
  /** Searches picked for a check since start but not checked (no room among those waiting, the check failed, or no point matched). */
  skipped: number;
  /** The recent checks (at most the window) and the sum of their recall@k. */
  windowCount: number;
  windowSum: number;
}
