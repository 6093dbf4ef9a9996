// The internal port's server (cluster mode, docs/cluster.md section 6): other nodes' coordinators
// send it one shard's worker request (ShardCall) or ask when a write is applied here
// (AwaitApplied); it runs them on this node's own replica through the Engine (LocalShards), never
// across nodes again. Invariants:
// - a node that does not hold its lease refuses every call (REFUSED: the caller reads the replica as
//   unreachable), whatever it holds;
// - a replica this node's mirror says is Dead answers ShardUnavailable (the caller tries another),
//   and so does one not Active for a read with no log position to reach;
// - every failure of the request itself comes back as a WireError, mapped by errors.ts alone.

import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { readTlsPair, watchTlsPair, type TlsFiles } from '../../shared/tls.js';
import { workerLog } from '../stdout-log.js';
import { QuiverError } from '../../shared/errors.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import {
  decode,
  encode,
  frameHeader,
  FrameReader,
  KIND,
  PREAMBLE,
  type AwaitAppliedRequest,
  type Frame,
  type InternalReply,
  type ShardCallRequest,
} from '../../shared/cluster/internal-wire.js';
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
  /** TLS (cluster.enable_tls): this node's certificate, and every peer must present one signed by `ca`. */
  tls?: Required<TlsFiles>;
}

export interface InternalServer {
  /** The port bound (the configured one, or the one picked for 0). */
  port: number;
  close(): Promise<void>;
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

/** How long calls in flight may still answer once the port closes (ms). */
const CLOSE_GRACE_MS = 2000;

/** Runs one request frame: a reply with the outcome, or a refusal when this node does not serve. */
async function run(opts: InternalServerOptions, f: Frame): Promise<{ kind: number; payload: Buffer }> {
  const refused = (why: string) => ({ kind: KIND.refused, payload: Buffer.from(why, 'utf8') });
  if (!opts.serving()) return refused(opts.notServingReason());
  let req: unknown;
  try {
    if (f.kind !== KIND.shardCall && f.kind !== KIND.awaitApplied) throw new Error(`unknown call kind ${f.kind}`);
    req = decode<unknown>(f.payload);
  } catch (err) {
    return refused(`malformed internal message: ${err instanceof Error ? err.message : String(err)}`);
  }
  let reply: InternalReply<unknown>;
  try {
    reply = { ok: true, result: f.kind === KIND.shardCall ? await shardCall(opts, req as ShardCallRequest) : await awaitApplied(opts, req as AwaitAppliedRequest) };
  } catch (err) {
    reply = { ok: false, error: QuiverError.toWire(err) };
  }
  const payload = encode(reply);
  if (payload.length > opts.maxMessageBytes) return refused(`reply of ${payload.length} bytes is over the internal message limit of ${opts.maxMessageBytes}`);
  return { kind: KIND.reply, payload };
}

async function shardCall(opts: InternalServerOptions, r: ShardCallRequest): Promise<unknown> {
  checkReplica(opts, r.collectionId, r.shard, r.minSeq === undefined || r.minSeq <= 0);
  // Times out with ShardUnavailable (applier.ts): the caller then tries another replica.
  if (r.minSeq !== undefined && r.minSeq > 0) await opts.local.awaitApplied(r.collectionId, r.shard, r.minSeq, r.timeoutMs);
  return opts.local.call(r.collectionId, r.shard, r.req);
}

function awaitApplied(opts: InternalServerOptions, r: AwaitAppliedRequest): Promise<{ result: unknown }> {
  checkReplica(opts, r.collectionId, r.shard, false);
  return opts.local.awaitApplied(r.collectionId, r.shard, r.seq, r.timeoutMs);
}

/** One peer's connection: its preamble checked, then each frame run and answered as it completes. */
function serveConnection(opts: InternalServerOptions, socket: Socket, inFlight: { count: number; drained: (() => void) | null }): void {
  socket.setNoDelay(true);
  const reader = new FrameReader(opts.maxMessageBytes);
  let greeted: Buffer | null = Buffer.alloc(0);
  let corked = false;
  const send = (id: number, kind: number, payload: Buffer): void => {
    if (socket.destroyed) return;
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(() => {
        corked = false;
        socket.uncork();
      });
    }
    socket.write(frameHeader(id, kind, payload.length));
    socket.write(payload);
  };
  socket.on('data', (chunk: Buffer) => {
    if (greeted !== null) {
      // Not a Quiver node (a browser, a port scanner, a gRPC client): dropped without an answer.
      greeted = Buffer.concat([greeted, chunk]);
      if (greeted.length < PREAMBLE.length) return;
      if (!greeted.subarray(0, PREAMBLE.length).equals(PREAMBLE)) return void socket.destroy();
      chunk = greeted.subarray(PREAMBLE.length);
      greeted = null;
      if (chunk.length === 0) return;
    }
    let frames: Frame[];
    try {
      frames = reader.push(chunk);
    } catch {
      return void socket.destroy(); // a frame over the limit: the stream cannot be followed past it
    }
    for (const f of frames) {
      inFlight.count++;
      void run(opts, f).then(({ kind, payload }) => {
        send(f.id, kind, payload);
        if (--inFlight.count === 0) inFlight.drained?.();
      });
    }
  });
  socket.on('error', () => socket.destroy());
}

export async function startInternalServer(opts: InternalServerOptions): Promise<InternalServer> {
  const sockets = new Set<Socket>();
  const inFlight: { count: number; drained: (() => void) | null } = { count: 0, drained: null };
  const accept = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(opts, socket, inFlight);
  };
  // With TLS a peer without a certificate signed by the CA is refused in the handshake, before a frame is read.
  const tls = opts.tls;
  const server: Server = tls === undefined ? createServer(accept) : createTlsServer({ ...readTlsPair(tls), requestCert: true, rejectUnauthorized: true }, accept);
  server.on('tlsClientError', () => undefined);
  const stopTls =
    tls === undefined
      ? () => undefined
      : watchTlsPair(
          tls,
          (pair) => (server as TlsServer).setSecureContext(pair),
          (message) => workerLog('error', { cert: tls.cert }, `internal port: TLS certificate not loaded again, the last one kept: ${message}`),
        );
  const host = opts.host.replace(/^\[(.*)\]$/, '$1');
  const port = await new Promise<number>((res, rej) => {
    server.once('error', rej);
    server.listen({ host, port: opts.port }, () => {
      server.off('error', rej);
      const addr = server.address();
      res(typeof addr === 'object' && addr !== null ? addr.port : opts.port);
    });
  });
  return {
    port,
    close: () =>
      new Promise<void>((res) => {
        stopTls();
        server.close();
        // Calls in flight get a moment to answer; then every connection closes, whatever remains.
        // Drained, each connection ends once its last answers are written (end() flushes them).
        const done = (drained: boolean): void => {
          clearTimeout(force);
          inFlight.drained = null;
          for (const s of sockets) {
            if (drained) s.end();
            else s.destroy();
          }
          res();
        };
        const force = setTimeout(() => done(false), CLOSE_GRACE_MS);
        force.unref();
        if (inFlight.count === 0) done(true);
        else inFlight.drained = () => done(true);
      }),
  };
}
