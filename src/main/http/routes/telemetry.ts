import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { readCpuFlags } from '../../../shared/cpu.js';
import type { Engine } from '../../engine.js';
import { ok } from '../../../shared/envelope.js';
import { sumMemory, threadMemory } from '../../../shared/shard-results.js';
import { MemoryOut } from '../../../shared/schemas/responses.js';
import { processMemory } from '../../process-memory.js';
import { mallocTrim } from '../../../shared/malloc-trim.js';
import { withTotal } from '../../service/collections.js';
import { QDRANT_API_VERSION, QUIVER_VERSION } from '../../version.js';
import type { Metrics } from '../../metrics.js';
import type { ClusterView } from '../../cluster/view.js';
import { collectionsTelemetry } from '../../service/collections-telemetry.js';

// GET /telemetry: Qdrant's telemetry document as far as Quiver can fill it, by Qdrant's
// `details_level`: at 0 the id, app name, version (GET /'s), start time, system, the collection
// count and whether cluster mode is on; from 1 also the feature flags, the collections (by level:
// collections-telemetry.ts), the requests served (Qdrant's per-endpoint, per-status statistics)
// and the memory figures (qdrant-process.ts's mapping). Quiver's own beside them: which hnswlib-node build
// the workers loaded, and the process's memory (the collections' estimates summed by kind, RssAnon,
// each thread's V8 heap: issue 14, what an operator needs to tell graphs from JavaScript garbage).

/** Vector instruction sets worth naming, in Qdrant's comma-separated `cpu_flags` form. */
const SIMD_FLAGS = ['sse', 'sse2', 'sse4_1', 'sse4_2', 'avx', 'avx2', 'fma', 'f16c', 'avx512f', 'avx512bw', 'avx512vl', 'avx512_vnni', 'asimd'];

const HnswBuildOut = Type.Object({
  kind: Type.Union([Type.Literal('native'), Type.Literal('portable')]),
  description: Type.String(),
  flags: Type.String({ description: "The native build's compiler flags; empty for the portable one" }),
  fallback_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the portable build was loaded although auto mode prefers the native one' }),
});

const bytes = (description: string) => Type.Integer({ description });
const ThreadMemoryOut = Type.Object({
  thread: Type.String({ description: "'main' or 'worker <index>'" }),
  heap_total_bytes: bytes('V8 heap committed by this thread'),
  heap_used_bytes: bytes('Of which in use by live objects and garbage not yet collected'),
  external_bytes: bytes('Memory outside the heap held by its objects, array buffers included'),
  array_buffers_bytes: bytes('ArrayBuffers and SharedArrayBuffers it holds (a SharedArrayBuffer counts in every thread holding it)'),
});

const TelemetryQuery = Type.Object({ details_level: Type.Optional(Type.Integer({ minimum: 0 })), timeout: Type.Optional(Type.Integer({ minimum: 1 })) });

export const TelemetryOut = Type.Object({
  id: Type.String(),
  app: Type.Object({
    name: Type.String(),
    version: Type.String({ description: 'The version GET / answers (the Qdrant API version Quiver speaks)' }),
    quiver_version: Type.String(),
    features: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    runtime_features: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    startup: Type.String({ format: 'date-time' }),
    system: Type.Object({ cores: Type.Integer(), cpu_flags: Type.String(), is_docker: Type.Boolean() }),
    hnsw_build: Type.Union([HnswBuildOut, Type.Null()]),
  }),
  collections: Type.Object({ number_of_collections: Type.Integer(), collections: Type.Optional(Type.Array(Type.Unknown())) }),
  cluster: Type.Object({ enabled: Type.Boolean() }),
  requests: Type.Optional(Type.Unknown()),
  memory: Type.Optional(Type.Record(Type.String(), Type.Integer())),
  process_memory: Type.Optional(
    Type.Object(
      {
        rss_anon_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'RssAnon from /proc/self/status (LMDB file pages not counted); null where there is no /proc' }),
        rss_bytes: Type.Integer(),
        collections: MemoryOut,
        threads: Type.Array(ThreadMemoryOut, { description: 'The main thread, then every worker thread once the engine is ready' }),
        malloc_trim: Type.Boolean({ description: "Whether glibc's free arena pages are handed back after bursts (the native/malloc-trim addon is built)" }),
      },
      { description: "Quiver extension: the whole process (all threads), every collection's estimated memory summed by kind, and each thread's JavaScript heap" },
    ),
  ),
});

/** Build features Qdrant reports (none of them is a Quiver build's). */
const FEATURES = { debug: false, service_debug_feature: false, recovery_mode: false, gpu: false, rocksdb: false, staging: false };
/** Qdrant's runtime feature flags: only incremental HNSW building is Quiver's way (points join the graph as written). */
const RUNTIME_FEATURES = {
  all: false,
  incremental_hnsw_building: true,
  appendable_quantization: false,
  single_file_mmap_vector_storage: false,
  async_payload_storage: false,
  write_segment_manifest: false,
  append_only_mutations: false,
  compact_bitmask: false,
  serverless_compatible: false,
};

export const telemetryRoutes: FastifyPluginAsyncTypebox<{ engine: Engine; metrics: Metrics; cluster: ClusterView | null }> = async (app, { engine, metrics, cluster }) => {
  // Fixed for the life of the process, as Qdrant's per-run id and start time are.
  const id = randomUUID();
  const startup = new Date().toISOString();
  const cpu = readCpuFlags();
  const system = {
    cores: availableParallelism(),
    cpu_flags: SIMD_FLAGS.filter((f) => cpu?.has(f) === true).join(','),
    is_docker: existsSync('/.dockerenv'),
  };
  app.get('/telemetry', { schema: { querystring: TelemetryQuery } }, async (req) => {
    const level = req.query.details_level ?? 0;
    const b = engine.hnswBuild;
    // Every collection's estimate, summed for the process (a collection dropped meanwhile counts nothing).
    const collections = engine.list();
    const memory = engine.ready ? (await Promise.all(collections.map((meta) => engine.collectionMemory(meta).catch(() => null)))).filter((m) => m !== null) : [];
    // Workers answer only once loaded: while loading only the main thread is listed.
    const workers = engine.ready ? await engine.workerMemory().catch(() => []) : [];
    const threads = [{ thread: 'main', ...threadMemory() }, ...workers.map((m, w) => ({ thread: `worker ${w}`, ...m }))];
    return ok(
      {
        id,
        app: {
          name: 'quiver',
          version: QDRANT_API_VERSION,
          quiver_version: QUIVER_VERSION,
          ...(level >= 1 ? { features: FEATURES, runtime_features: RUNTIME_FEATURES } : {}),
          startup,
          system,
          hnsw_build: b === null ? null : { kind: b.kind, description: b.description, flags: b.flags, fallback_reason: b.fallbackReason },
        },
        collections: { number_of_collections: collections.length, ...(level >= 1 && engine.ready ? { collections: await collectionsTelemetry(engine, cluster, level) } : {}) },
        cluster: { enabled: cluster !== null },
        ...(level >= 1
          ? {
              requests: metrics.responses(),
              memory: (({ heapTotal, heapUsed, rss }) => ({ active_bytes: heapTotal, allocated_bytes: heapUsed, metadata_bytes: 0, resident_bytes: rss, retained_bytes: 0 }))(process.memoryUsage()),
            }
          : {}),
        process_memory: { ...processMemory(), collections: withTotal(sumMemory(memory)), threads, malloc_trim: mallocTrim !== null },
      },
      req.t0,
    );
  });
};
