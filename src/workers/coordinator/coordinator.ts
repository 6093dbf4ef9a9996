// A worker's coordinator role: it takes whole point requests handed off by the main thread (raw
// REST body or gRPC message bytes in one message), and runs them with the service layer
// (src/workers/coordinator/rest-requests.ts, grpc-requests.ts) over its catalog mirror and its direct channels to the sibling workers. The main
// thread only authenticates, routes and writes the answer back. Hand-offs and their answers travel
// batched per event-loop turn (BatchedPort).
//
// In cluster mode the services run over every node's replicas instead (cluster-engine.ts), with
// the control plane's state the main thread publishes (state-view.ts).
//
// Invariant: a request is served only once this worker holds its sibling channels and a
// catalog (both come with the first attachPeers task, which the main thread sends before any
// hand-off; a thread that replaced a dead one gets its own), and in cluster mode its engine.

import type { MessagePort } from 'node:worker_threads';
import { handleAnyRequest } from './grpc-requests.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import { isGrpcHandoff, type AnyHandoffReply, type AnyHandoffRequest, type CatalogSnapshot, type HandoffBatch, type HandoffReplyBatch, type PeerPort, type RoutedCall } from '../../shared/coordination.js';
import { BatchedPort, type BatchedWire } from '../../shared/batched-port.js';
import { CatalogMirror } from './catalog-mirror.js';
import { PeerDispatcher, type ServeShard as ShardServer } from './peers.js';
import type { WriteGarbage } from '../write-garbage.js';
import { WorkerEngine } from './worker-engine.js';
import { ROUTED_CALL_WIRE, ROUTED_UNSENDABLE } from '../../shared/routed-calls.js';
import type { WorkerInit, WorkerReply } from '../../shared/protocol.js';
import type { HandoffRoute } from '../../shared/point-ops.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { ShardRouter } from '../../shared/shard-router.js';
import { ClusterStateView, type ClusterStateSnapshot } from '../../shared/cluster/state-view.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import type { ClusterWorkerEngine } from './cluster-engine.js';
import { PROBE_ON, probeRecord } from '../../shared/latency-probe.js';

const UPSERT_ROUTE = 'PUT /collections/:collection_name/points' satisfies HandoffRoute;

/** Cluster mode (WorkerInit.cluster): what the coordinator's cluster engine needs. */
export type ClusterCoordination = NonNullable<WorkerInit['cluster']> & { onHedged: (count: number) => void };

/** protocol.ts's hand-off messages: HandoffBatch in, HandoffReplyBatch back. */
const HANDOFF_WIRE: BatchedWire<AnyHandoffRequest, AnyHandoffReply> = {
  request: (id, req) => ({ id, req }) satisfies HandoffBatch[number],
  reply: (id, reply) => ({ id, reply }) satisfies HandoffReplyBatch[number],
};

export class Coordinator {
  readonly #catalog = new CatalogMirror();
  readonly #peers: PeerDispatcher;
  /** The engine the services run over: the sibling workers' shards, or in cluster mode every node's replicas. */
  #engine: PointEngine;
  /** Cluster mode: the replicas and peers, as the main thread publishes them. */
  readonly #clusterState = new ClusterStateView();
  /** The main thread's router, for the shard writes of collections with copies (routeCalls). */
  #calls: BatchedPort<RoutedCall, WorkerReply> | null = null;
  /** The engine of routeCalls hand-offs (single node only: a cluster node keeps one copy per shard). */
  readonly #routed: PointEngine;
  #attached!: () => void;
  readonly #ready: Promise<unknown>;
  /** This thread's (see write-garbage.ts), charged with each upsert body. */
  readonly #writeGarbage: WriteGarbage | null;

  constructor(worker: number, workerCount: number, opIds: OpIdCounter, serve: ShardServer, writeGarbage: WriteGarbage | null = null, cluster: ClusterCoordination | null = null) {
    this.#writeGarbage = writeGarbage;
    this.#peers = new PeerDispatcher(worker, workerCount, serve);
    const local = new WorkerEngine(worker, this.#catalog, this.#peers, opIds, () => this.#calls);
    this.#engine = local;
    this.#routed = local.routed;
    const attached = new Promise<void>((resolve) => (this.#attached = resolve));
    if (cluster === null) {
      this.#ready = attached;
      return;
    }
    // Cluster mode only: its modules (NATS, grpc-js) load here, never on a single node.
    const engine = import('./cluster-engine.js').then(({ ClusterWorkerEngine }) => {
      this.#engine = new ClusterWorkerEngine({
        catalog: this.#catalog,
        router: new ShardRouter(this.#peers, (meta) => this.#catalog.replicas(meta), worker),
        opIds,
        state: this.#clusterState,
        nats: cluster.nats,
        streamReplicas: cluster.streamReplicas,
        hedgeMs: cluster.hedgeMs,
        maxMessageBytes: cluster.maxMessageBytes,
        onHedged: cluster.onHedged,
        ...(cluster.tls === undefined ? {} : { tls: cluster.tls }),
      });
    });
    this.#ready = Promise.all([attached, engine]);
    // Awaited by every request (which then fails with its error); never left unhandled.
    this.#ready.catch(() => undefined);
  }

  attach(peers: readonly PeerPort[], main: MessagePort | null, catalog: CatalogSnapshot | null, cluster: ClusterStateSnapshot | null = null, writes: MessagePort | null = null): void {
    this.#peers.attach(peers);
    if (writes !== null) this.#calls = new BatchedPort(writes, { wire: ROUTED_CALL_WIRE, unsendable: ROUTED_UNSENDABLE });
    if (catalog !== null) this.#catalog.apply(catalog);
    if (cluster !== null) this.#clusterState.apply(cluster);
    if (main !== null) this.#serveMain(main);
    this.#attached();
  }

  /** Cluster mode: this node's replicas (through this worker's sibling channels) and the control plane's state, once the engine is ready; null on a single node. */
  async clusterLocal(): Promise<{ local: LocalShards; state: ClusterStateView } | null> {
    await this.#ready;
    const engine = this.#engine;
    return 'local' in engine ? { local: (engine as ClusterWorkerEngine).local, state: this.#clusterState } : null;
  }

  /** Cluster mode: the replicas and peers as the main thread's mirror has them (a newer state wins). */
  clusterState(state: ClusterStateSnapshot): void {
    this.#clusterState.apply(state);
  }

  /** Serves the main thread's hand-off channel: each batch's requests at once, answers batched per turn (at most MAX_BATCH per message). */
  #serveMain(port: MessagePort): void {
    // Kept alive by its listener on the port, as long as the channel.
    // An answer's bytes are a buffer of their own (response-json.ts, grpc-requests.ts): moved, not copied.
    const transferOf = (reply: AnyHandoffReply): ArrayBuffer[] => {
      const body = 'status' in reply ? reply.body : reply.ok ? reply.body : null;
      return body instanceof Uint8Array ? [body.buffer as ArrayBuffer] : [];
    };
    new BatchedPort(port, { wire: HANDOFF_WIRE, serve: (req) => this.#coordinateProbed(req), transferOf });
  }

  /** coordinate(), timed when the latency probe is on (off, the request path pays one branch). */
  #coordinateProbed(req: AnyHandoffRequest): Promise<AnyHandoffReply> {
    if (!PROBE_ON) return this.coordinate(req);
    // the request's start on the main thread is an absolute time (ms since the epoch)
    const start = performance.timeOrigin + performance.now();
    probeRecord('co-arrival', start - req.t0);
    return this.coordinate(req).then((reply) => {
      probeRecord('co-answer', performance.timeOrigin + performance.now() - start);
      return reply;
    });
  }

  catalog(snapshot: CatalogSnapshot): void {
    this.#catalog.apply(snapshot);
  }

  /** A REST request (requests.ts) or a gRPC call (grpc-requests.ts), answered with its kind's reply. */
  async coordinate(req: AnyHandoffRequest): Promise<AnyHandoffReply> {
    await this.#ready;
    // Read now: requests.ts drops the body once parsed.
    const upsertBytes = req.body !== null && (isGrpcHandoff(req) ? req.method === 'Upsert' : req.route === UPSERT_ROUTE) ? req.body.byteLength : 0;
    const reply = await handleAnyRequest(req.routeCalls === true ? this.#routed : this.#engine, req);
    if (upsertBytes > 0) this.#writeGarbage?.charge(upsertBytes);
    return reply;
  }
}
