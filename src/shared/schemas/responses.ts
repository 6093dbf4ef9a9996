// Response shapes, as Qdrant's REST API names them: the envelopes (docs/interface.md section 2.6 and 7.1) and each
// route's `result`. They feed the OpenAPI document (src/main/http/route-docs.ts gives each route
// its own), so that a client generated from it knows what comes back. Objects stay open
// (additional properties allowed) where Qdrant documents more fields than Quiver fills.

import Type, { type Static, type TSchema } from 'typebox';

const Int = Type.Integer();
const Id = Type.Union([Type.Integer({ minimum: 0 }), Type.String()], { description: 'Point id: unsigned integer or UUID' });
const Payload = Type.Record(Type.String(), Type.Unknown());
const SparseOut = Type.Object({ indices: Type.Array(Int), values: Type.Array(Type.Number()) });
/** The unnamed vector as a bare array; named vectors as a map of dense arrays or sparse pairs. */
const VectorOut = Type.Union([Type.Array(Type.Number()), Type.Record(Type.String(), Type.Union([Type.Array(Type.Number()), SparseOut]))]);
const OrderValue = Type.Union([Type.Number(), Type.String()]);

export const PointRecordOut = Type.Object({
  id: Id,
  payload: Type.Optional(Type.Union([Payload, Type.Null()])),
  vector: Type.Optional(Type.Union([VectorOut, Type.Null()])),
  shard_key: Type.Optional(Type.Unknown()),
  order_value: Type.Optional(Type.Union([OrderValue, Type.Null()])),
});

export const ScoredPointOut = Type.Object({
  id: Id,
  version: Int,
  score: Type.Number(),
  payload: Type.Optional(Type.Union([Payload, Type.Null()])),
  vector: Type.Optional(Type.Union([VectorOut, Type.Null()])),
  shard_key: Type.Optional(Type.Unknown()),
  order_value: Type.Optional(Type.Union([OrderValue, Type.Null()])),
});

export const UpdateResultOut = Type.Object({
  operation_id: Type.Union([Int, Type.Null()]),
  status: Type.Union([Type.Literal('acknowledged'), Type.Literal('completed'), Type.Literal('wait_timeout')]),
});

export const CollectionsListOut = Type.Object({ collections: Type.Array(Type.Object({ name: Type.String() })) });
export const CollectionExistsOut = Type.Object({ exists: Type.Boolean() });

/** Quiver's estimate of in-memory bytes by kind (GET /collections/{name} and GET /telemetry). */
export const MemoryOut = Type.Object(
  {
    vectors: Type.Integer({ description: 'Dense vectors held outside an HNSW graph (no graph: Manhattan, m = 0), sparse vectors and their index, presence bytes' }),
    graph: Type.Integer({ description: 'HNSW graphs, with the dense vectors they hold (their one in-memory copy)' }),
    payload_index: Type.Integer({ description: 'Payload field indexes' }),
    ids: Type.Integer({ description: 'Point id to slot map and versions' }),
    total: Type.Integer(),
  },
  { description: 'Quiver extension: estimated bytes held in memory, by kind (estimates from sizes, not a heap walk); Qdrant clients ignore it' },
);

export const CollectionInfoOut = Type.Object(
  {
    status: Type.Union([Type.Literal('green'), Type.Literal('yellow'), Type.Literal('grey'), Type.Literal('red')]),
    optimizer_status: Type.Unknown(),
    indexed_vectors_count: Type.Optional(Type.Union([Int, Type.Null()])),
    points_count: Type.Optional(Type.Union([Int, Type.Null()])),
    segments_count: Int,
    config: Type.Object(
      {
        params: Type.Object({ shard_number: Type.Optional(Int), replication_factor: Type.Optional(Int), write_consistency_factor: Type.Optional(Int) }, { additionalProperties: true }),
        hnsw_config: Type.Object({ m: Int, ef_construct: Int, full_scan_threshold: Int }, { additionalProperties: true }),
        optimizer_config: Type.Record(Type.String(), Type.Unknown()),
        wal_config: Type.Optional(Type.Unknown()),
        quantization_config: Type.Optional(Type.Unknown()),
      },
      { additionalProperties: true },
    ),
    payload_schema: Type.Record(Type.String(), Type.Object({ data_type: Type.String(), params: Type.Optional(Type.Unknown()), points: Type.Optional(Int) })),
    memory: Type.Optional(MemoryOut),
  },
  { additionalProperties: true },
);

export const CollectionClusterOut = Type.Object(
  {
    peer_id: Int,
    shard_count: Int,
    local_shards: Type.Array(Type.Object({ shard_id: Int, points_count: Int, state: Type.String() }, { additionalProperties: true })),
    remote_shards: Type.Array(Type.Unknown()),
    shard_transfers: Type.Array(Type.Unknown()),
  },
  { additionalProperties: true },
);

export const CountOut = Type.Object({ count: Int });
export const ScrollOut = Type.Object({ points: Type.Array(PointRecordOut), next_page_offset: Type.Optional(Type.Union([Id, Type.Null()])) });
export const QueryOut = Type.Object({ points: Type.Array(ScoredPointOut) });
export const MatrixPairsOut = Type.Object({ pairs: Type.Array(Type.Object({ a: Id, b: Id, score: Type.Number() })) });
export const MatrixOffsetsOut = Type.Object({
  offsets_row: Type.Array(Type.Integer()),
  offsets_col: Type.Array(Type.Integer()),
  scores: Type.Array(Type.Number()),
  ids: Type.Array(Id),
});
export const FacetOut = Type.Object({
  hits: Type.Array(Type.Object({ value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), count: Int })),
});

export const VersionOut = Type.Object(
  { title: Type.String(), version: Type.String(), commit: Type.String({ pattern: '^[0-9a-f]{40}$', description: 'The git commit of the build' }) },
  { additionalProperties: false },
);

/** The success envelope around a result. */
export function Ok<T extends TSchema>(result: T) {
  return Type.Object({
    usage: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
    time: Type.Number({ description: 'Seconds spent on the request' }),
    status: Type.Literal('ok'),
    result,
  });
}

/** A data endpoint's failure (docs/interface.md section 7.1). */
export const ErrorOut = Type.Object({ time: Type.Number(), status: Type.Object({ error: Type.String() }) }, { description: 'Error' });

/** The auth endpoints' simple-message envelope, and their failures. */
export const AuthMessageOut = Type.Object({ status: Type.Union([Type.Literal('success'), Type.Literal('error')]), message: Type.String() });

export const LoginOut = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Int,
});

const ApiKeyFields = {
  id: Int,
  name: Type.String(),
  description: Type.String(),
  created_at: Type.String({ description: 'RFC 3339 UTC' }),
  expired_at: Type.Union([Type.String(), Type.Null()]),
  will_expire: Type.Boolean(),
  permission: Type.String({ description: 'Comma-separated: read, write, admin. For a scoped key, its rights outside collections (may be empty)' }),
  scope: Type.Optional(
    Type.Array(
      Type.Object({
        collection: Type.String({ description: 'A collection name, or a pattern where * stands for any run of characters' }),
        permission: Type.String({ description: 'Comma-separated: read, write' }),
        filter: Type.Optional(Type.Unknown({ description: 'The tenant filter every request on these collections is bound to' })),
      }),
      { description: 'Present on a scoped key only: the collections it may use, first match wins' },
    ),
  ),
};
export const ApiKeyInfoOut = Type.Object(ApiKeyFields);
export const ApiKeyCreatedOut = Type.Object({ ...ApiKeyFields, api_key: Type.String({ description: 'Shown once' }) });

export type UpdateResultOut = Static<typeof UpdateResultOut>;

const SegmentOut = Type.Object({ uuid: Type.String(), points_count: Int });

/** Qdrant's OptimizationsResponse (src/main/service/optimizations.ts). */
export const OptimizationsOut = Type.Object({
  summary: Type.Object({ queued_optimizations: Int, queued_segments: Int, queued_points: Int, idle_segments: Int }),
  running: Type.Array(Type.Object({ uuid: Type.String(), optimizer: Type.String(), status: Type.Unknown(), segments: Type.Array(SegmentOut), progress: Type.Object({ name: Type.String() }, { additionalProperties: true }) })),
  queued: Type.Optional(Type.Array(Type.Unknown())),
  completed: Type.Optional(Type.Array(Type.Unknown())),
  idle_segments: Type.Optional(Type.Array(SegmentOut)),
});

/** Qdrant's issues report (GET /issues). */
export const IssuesOut = Type.Object({
  issues: Type.Array(Type.Object({ id: Type.String(), description: Type.String(), solution: Type.Unknown(), timestamp: Type.String() })),
});

/** Qdrant's DistributedTelemetryData (GET /cluster/telemetry). */
export const ClusterTelemetryOut = Type.Object({
  collections: Type.Record(Type.String(), Type.Object({ id: Type.String(), shards: Type.Array(Type.Unknown()), shard_transfers: Type.Optional(Type.Array(Type.Unknown())) })),
  cluster: Type.Object({ enabled: Type.Boolean(), number_of_peers: Type.Optional(Int), peers: Type.Record(Type.String(), Type.Unknown()) }),
});
