// The internal gRPC port's server (cluster mode, docs/cluster.md section 6): other nodes' coordinators
// send it one shard's worker request (ShardCall) or ask when a write is applied here
// (AwaitApplied); it runs them on this node's own replica through the Engine (LocalShards), never
// across nodes again. Invariants:
// - a node that does not hold its lease answers UNAVAILABLE, whatever it holds;
// - a replica this node's mirror says is Dead answers ShardUnavailable (the caller tries another),
//   and so does one not Active for a read with no log position to reach;
// - every failure of the request itself comes back as a WireError, mapped by errors.ts alone.

import * as grpc from '@grpc/grpc-js';
import { QuiverError } from '../../shared/errors.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import { AWAIT_APPLIED_PATH, decode, encode, SHARD_CALL_PATH, type AwaitAppliedRequest, type InternalReply, type ShardCallRequest } from '../../shared/cluster/internal-wire.js';
import type { ClusterState } from '../../shared/cluster/state.js';

export interface InternalServerOptions {
  host: string;
  port: number;
  /** Largest message accepted or sent (bytes). */
  maxMessageBytes: number;
  local: LocalShards;
  /** This node's mirror of the control plane, read for its own replicas' states (null: not known yet). */
  state: () => ClusterState | null;
  /** Whether this node holds its lease now, and why not. */
  serving: () => boolean;
  notServingReason: () => string;
}

export interface InternalServer {
  /** The port bound (the configured one, or the one picked for 0). */
  port: number;
  close(): Promise<void>;
}

const identity = (b: Buffer): Buffer => b;

function method(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return { path, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity };
}

/** Runs `work` as one unary call: UNAVAILABLE while not serving, else the v8 reply. */
function unary<Req, Res>(opts: InternalServerOptions, work: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Buffer, Buffer> {
  return (call, callback) => {
    if (!opts.serving()) {
      callback({ code: grpc.status.UNAVAILABLE, details: opts.notServingReason() });
      return;
    }
    let req: Req;
    try {
      req = decode<Req>(call.request);
    } catch (err) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: `malformed internal message: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    work(req).then(
      (result) => callback(null, encode({ ok: true, result } satisfies InternalReply<Res>)),
      (err: unknown) => callback(null, encode({ ok: false, error: QuiverError.toWire(err) } satisfies InternalReply<Res>)),
    );
  };
}

/**
 * Refuses a shard this node's mirror says it does not serve: its replica Dead (it may be behind the
 * log), or the assignment known here without this node (moved away: the local copy is no longer
 * fed). An assignment not known here yet (a new collection, the mirror a moment behind the
 * caller's) is served.
 */
function checkReplica(opts: InternalServerOptions, collectionId: number, shard: number, activeOnly: boolean): void {
  const state = opts.state();
  if (state === null) return;
  const replicas = state.replicas(collectionId, shard);
  if (replicas.length === 0) return;
  const mine = replicas.find((r) => r.node === state.nodeId);
  if (mine === undefined) throw new QuiverError('ShardUnavailable', `Node ${state.nodeId} holds no replica of shard ${shard} (collection ${collectionId})`);
  if (mine.state === 'Dead') throw new QuiverError('ShardUnavailable', `Replica of shard ${shard} (collection ${collectionId}) on node ${state.nodeId} is Dead: not serving`);
  // A read with no position to reach is served only by a replica this node holds Active: one
  // catching up (Partial after a restart within its lease, Initializing) may be behind.
  if (activeOnly && mine.state !== 'Active') throw new QuiverError('ShardUnavailable', `Replica of shard ${shard} (collection ${collectionId}) on node ${state.nodeId} is ${mine.state}: catching up, not serving reads yet`);
}

export async function startInternalServer(opts: InternalServerOptions): Promise<InternalServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': opts.maxMessageBytes,
    'grpc.max_send_message_length': opts.maxMessageBytes,
  });
  server.addService(
    { ShardCall: method(SHARD_CALL_PATH), AwaitApplied: method(AWAIT_APPLIED_PATH) },
    {
      ShardCall: unary<ShardCallRequest, unknown>(opts, async (r) => {
        checkReplica(opts, r.collectionId, r.shard, r.minSeq === undefined || r.minSeq <= 0);
        // Times out with ShardUnavailable (applier.ts): the caller then tries another replica.
        if (r.minSeq !== undefined && r.minSeq > 0) await opts.local.awaitApplied(r.collectionId, r.shard, r.minSeq, r.timeoutMs);
        return opts.local.call(r.collectionId, r.shard, r.req);
      }),
      AwaitApplied: unary<AwaitAppliedRequest, { result: unknown }>(opts, async (r) => {
        checkReplica(opts, r.collectionId, r.shard, false);
        return opts.local.awaitApplied(r.collectionId, r.shard, r.seq, r.timeoutMs);
      }),
    },
  );
  const host = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  const port = await new Promise<number>((res, rej) => {
    server.bindAsync(`${host}:${opts.port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? res(p) : rej(err)));
  });
  return {
    port,
    close: () =>
      new Promise<void>((res) => {
        // Calls in flight get a moment to answer; then the port closes whatever remains.
        const force = setTimeout(() => {
          server.forceShutdown();
          res();
        }, 2000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          res();
        });
      }),
  };
}
