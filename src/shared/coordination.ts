// The messages of the coordinating channels, beside the shard protocol (protocol.ts): a point
// request handed off whole by the main thread to a coordinating worker (REST body or gRPC message,
// raw bytes), its answer, the catalog pushed to every coordinator, the channels between sibling
// workers, and how messages are batched on them. Which routes are handed off is the registry's
// to say (point-ops.ts).

import type { MessagePort } from 'node:worker_threads';
import type { CatalogEntry } from './db.js';
import type { ScopeEntryWire } from './collection-scope.js';
import type { WireError } from './errors.js';
import type { ReplicaTable } from './placement.js';
import type { GrpcHandoffMethod, HandoffRoute } from './point-ops.js';
import type { ShardCall, ShardOp, ShardRequest, TenantGuard, WorkerReply } from './protocol.js';
import type { ClusterStateSnapshot } from './cluster/state-view.js';

export interface HandoffRequest {
  route: HandoffRoute;
  /** Path parameters and query string, already checked against their schemas by the main thread. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The raw body (null: the request had none). Moved, never cloned; the coordinator drops it (null) once parsed. */
  body: Uint8Array | null;
  /** Arrival time, epoch milliseconds (performance.timeOrigin differs per thread). */
  t0: number;
  /**
   * A write of a collection that keeps copies: every shard call it makes goes through the main
   * thread's router (RoutedCall), and all such requests of the collection to one coordinator.
   */
  routeCalls?: boolean;
  /** The tenant binding of the request's credential on this collection (protocol.ts TenantGuard), if any. */
  tenant?: TenantGuard;
  /** A scoped credential's collections, for any other collection the request reads (collection-scope.ts). */
  scope?: ScopeEntryWire[];
}

export interface HandoffReply {
  status: number;
  /**
   * The complete JSON response, envelope included: UTF-8 bytes where it carries vectors
   * (response-json.ts), in a buffer of their own that the channel moves rather than copies.
   */
  body: string | Uint8Array;
  /** For a failure, what the main thread logs: the message, at error when it is ours (5xx), else at info. */
  failure?: { message: string; internal: boolean };
  /** A rate-limited request's Retry-After, in seconds. */
  retryAfter?: number;
}

/** A gRPC call handed off: the sibling of HandoffRequest, on the same channel. */
export interface GrpcHandoffRequest {
  kind: 'grpc';
  method: GrpcHandoffMethod;
  /**
   * The message's collection name (field 1 of every hand-off method's request), read by the main
   * thread without decoding the message, so that routing decisions made by collection (the
   * Coordinators) apply as for REST. Absent when the message does not hold one.
   */
  params: { collection_name?: string };
  /** The request message as received (grpc-js has decompressed it). Moved, never cloned. */
  body: Uint8Array;
  /** Arrival time, epoch milliseconds. */
  t0: number;
  /** As HandoffRequest.routeCalls. */
  routeCalls?: boolean;
  /** As HandoffRequest.tenant and .scope. */
  tenant?: TenantGuard;
  scope?: ScopeEntryWire[];
}

/**
 * A shard call of a write to a collection that keeps copies (routeCalls), sent by the worker
 * coordinating it to the main thread's router, which writes every copy of the shard in the one
 * order it receives the calls in. Answered with a WorkerReply.
 */
export interface RoutedCall {
  collection: string;
  /** The collection's id when the coordinator looked it up: a collection recreated since is not written. */
  collectionId: number;
  shard: number;
  req: ShardCall<ShardOp>;
}

/** The encoded response message, or the failure the main thread maps to a status (unary.ts toStatus). */
export type GrpcHandoffReply = { ok: true; body: Uint8Array } | { ok: false; error: WireError };

/** Either kind of hand-off, and the reply each gets. */
export type AnyHandoffRequest = HandoffRequest | GrpcHandoffRequest;
export type AnyHandoffReply = HandoffReply | GrpcHandoffReply;
export type HandoffReplyOf<R extends AnyHandoffRequest> = R extends GrpcHandoffRequest ? GrpcHandoffReply : HandoffReply;

export function isGrpcHandoff(req: AnyHandoffRequest): req is GrpcHandoffRequest {
  return 'kind' in req && req.kind === 'grpc';
}

/**
 * One collection as the coordinating workers see it (`entry.deleting`: its DELETE is in progress).
 * `replicas`: where its shards' copies are and which serve reads, present when it keeps more
 * than one copy per shard (without it, each shard's one copy is its primary, Active). A copy is
 * published Active only once every write answered before is applied there, and published out of
 * reads before the main thread stops writing it (Engine).
 */
export interface CatalogRecord {
  entry: CatalogEntry;
  replicas?: ReplicaTable;
}

/** The main thread's catalog, pushed whole to every worker on each change; higher versions win. */
export interface CatalogSnapshot {
  version: number;
  ready: boolean;
  collections: Record<string, CatalogRecord>;
}

/** A direct channel to a sibling worker (MessageChannel port, moved). */
export interface PeerPort {
  worker: number;
  port: MessagePort;
}

/** Tasks the main thread gives a worker through piscina besides shard requests (hand-offs take their own channel: HandoffBatch). */
export type CoordinatorTask =
  /**
   * New channels to siblings (all of them at start, one after a sibling was replaced), the
   * main thread's hand-off channel and its routed-writes channel (null: unchanged), the catalog and, in cluster mode, the
   * control plane's state (null: unchanged).
   */
  | { op: 'attachPeers'; peers: PeerPort[]; main: MessagePort | null; writes: MessagePort | null; catalog: CatalogSnapshot | null; cluster: ClusterStateSnapshot | null }
  | { op: 'catalog'; catalog: CatalogSnapshot }
  /** Cluster mode: the replicas and peers as the main thread's mirror has them now (state-view.ts). */
  | { op: 'clusterState'; state: ClusterStateSnapshot };

export type WorkerTask = ShardRequest | CoordinatorTask;

/** Hand-offs on the main thread's channel to a coordinator: those of one event-loop turn, together. */
export type HandoffBatch = { id: number; req: AnyHandoffRequest }[];
/** The coordinator's answers, batched the same way. */
export type HandoffReplyBatch = { id: number; reply: AnyHandoffReply }[];

/** What travels on a sibling channel, both ways. */
export type PeerMessage = { kind: 'req'; id: number; req: ShardRequest } | { kind: 'res'; id: number; reply: WorkerReply };

/**
 * Messages per postMessage at most, on the hand-off, answer and sibling channels: a full batch
 * leaves at once rather than at the end of the turn, so that requests arriving together do not
 * move through the threads as one convoy, each thread idle while another works through the whole
 * batch (measured at 64 connections on 2 workers: 1.1 of 2 cores busy and 3,100 searches/s with
 * one batch per turn, 1.7 cores and 5,100/s with batches of at most 16; 8 gave 4,600-4,700).
 */
export const MAX_BATCH = 16;

/** What one postMessage on a sibling channel carries: the messages of one event-loop turn, in order. */
export type PeerBatch = PeerMessage[];
