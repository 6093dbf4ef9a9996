// This node's side of the cluster control plane, on the main thread: it starts the etcd thread
// (etcd-thread.ts), refuses start-up when etcd cannot be reached in time, registers the node once
// its ports are known, and keeps what GET /cluster shows (peers, controller, etcd's term and
// revision) from the thread's messages. `leaseHeld()` is read on every data request: it compares
// the lease expiry the thread writes into shared memory with the clock, so a node resumed after a
// pause longer than its lease refuses data at once, before the thread has even noticed the loss.

import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { QuiverError } from '../../shared/errors.js';
import { settleWithin } from '../../shared/deadline.js';
import { QUIVER_VERSION } from '../version.js';
import { failpoint } from '../../workers/failpoints.js';
import type { ClusterApi, ClusterStatusEnabled, ClusterView } from './view.js';
import { ClusterLink } from './link.js';
import { nowMs, type CatalogReply, type CatalogRequest, type EtcdThreadData, type FromEtcdThread, type NodeRecord, type ToEtcdThread } from '../../shared/cluster/messages.js';
import type { NodeStatus } from '../../shared/cluster/assignments.js';
import { ClusterStateMirror } from './state-mirror.js';

/** How long start-up waits for etcd before refusing to start. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a catalog change waits for etcd before it answers 503. */
const REQUEST_TIMEOUT_MS = 15_000;

export interface ClusterLog {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

const line = (level: string) => (fields: Record<string, unknown>, msg: string): void => {
  process.stderr.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
};
const STDERR_LOG: ClusterLog = { info: line('info'), warn: line('warn'), error: line('error') };

export class ClusterNode implements ClusterView {
  readonly nodeId: number;
  readonly #config: Config;
  readonly #worker: Worker;
  readonly #expiry: BigInt64Array;
  /** Where the node's events are logged: stderr lines until the server's logger exists. */
  log: ClusterLog;
  #nodes: NodeRecord[] = [];
  #leader: number | null = null;
  #term = '0';
  #commit = '0';
  #lastUpdate = new Date().toISOString();
  #lostReason: string | null = 'not registered yet';
  #registered: (() => void) | null = null;
  /** Fails a registration in progress (this node's id was removed from the cluster). */
  #refused: ((e: Error) => void) | null = null;
  #stopped: (() => void) | null = null;
  /** The cluster API's and the shared auth state's requests to the etcd thread (link.ts). */
  readonly link = new ClusterLink((m) => this.#post(m));
  /** The control plane's mirror on this thread: what the data plane and the cluster API read. */
  readonly state: ClusterStateMirror;
  /** Where the catalog's mirror messages go (catalog-sync.ts sets it once the Engine is up). */
  onCatalog: (m: Extract<FromEtcdThread, { type: 'catalog-snapshot' | 'catalog-put' | 'catalog-delete' }>) => void = () => undefined;
  readonly #replies = new Map<number, { res: (r: CatalogReply) => void; rej: (e: Error) => void }>();
  #nextRequest = 0;
  readonly #servingListeners = new Set<() => void>();

  private constructor(config: Config, nodeId: number, worker: Worker, expiry: BigInt64Array, log: ClusterLog) {
    this.#config = config;
    this.nodeId = nodeId;
    this.#worker = worker;
    this.#expiry = expiry;
    this.log = log;
    this.state = new ClusterStateMirror(nodeId);
  }

  /** Starts the etcd thread; rejects with a ConfigError naming the endpoints when etcd does not answer in time. */
  /** `leaseExpiry`: where the etcd thread writes the lease expiry (shared with worker 0, which serves the internal port). */
  static async start(config: Config, nodeId: number, log: ClusterLog = STDERR_LOG, leaseExpiry: SharedArrayBuffer = new SharedArrayBuffer(8)): Promise<ClusterNode> {
    const shared = leaseExpiry;
    const data: EtcdThreadData = {
      endpoints: config.cluster.etcd.map((e) => (/^https?:\/\//.test(e) ? e : `http://${e}`)),
      nodeId,
      leaseSeconds: config.cluster.lease_seconds,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      leaseExpiry: shared,
      deadGraceMs: config.cluster.dead_grace_seconds * 1000,
    };
    const worker = new Worker(new URL('../../control/etcd-thread.js', import.meta.url), { workerData: data, name: 'quiver-etcd' });
    const node = new ClusterNode(config, nodeId, worker, new BigInt64Array(shared), log);
    await new Promise<void>((res, rej) => {
      worker.on('message', (m: FromEtcdThread) => {
        if (m.type === 'connected') res();
        else if (m.type === 'failed') rej(new ConfigError(m.message));
        else node.#onMessage(m);
      });
      worker.once('error', (err) => rej(err));
    });
    worker.on('error', (err) => node.log.error({ err }, 'etcd thread failed'));
    return node;
  }

  #onMessage(m: FromEtcdThread): void {
    // The state takes assignments, reports and peers; the peers are GET /cluster's too.
    if (this.state.apply(m) && m.type !== 'nodes') return;
    this.#handle(m);
    if (m.type === 'registered' || m.type === 'removed' || m.type === 'lease-lost') for (const l of [...this.#servingListeners]) l();
  }

  #handle(m: FromEtcdThread): void {
    switch (m.type) {
      case 'reply': {
        const r = this.#replies.get(m.id);
        this.#replies.delete(m.id);
        if (m.ok) r?.res(m.reply);
        else r?.rej(new QuiverError('ShardUnavailable', `The cluster catalog (etcd) did not take the change: ${m.message}; retry the request`));
        break;
      }
      case 'catalog-snapshot':
      case 'catalog-put':
      case 'catalog-delete':
        this.onCatalog(m);
        break;
      case 'registered':
        this.#lostReason = null;
        this.log.info({ node_id: this.nodeId, lease: m.lease }, 'cluster: registered');
        if (this.#registered !== null) {
          this.#registered();
          this.#registered = null;
          this.#blockMainOnce();
        }
        break;
      case 'removed': {
        const id = this.nodeId;
        const why =
          `this node (peer ${id}) was removed from the cluster (DELETE /cluster/peer/${id}${m.at === null ? '' : ` at ${m.at}`}) and cannot rejoin with its old state; ` +
          `to join as a new peer, stop it and start it on an empty data dir (${this.#config.data_dir} holds the removed peer's id and replicas)`;
        this.#lostReason = why;
        this.log.error({ node_id: id, removed_at: m.at, data_dir: this.#config.data_dir }, `cluster: ${why}`);
        if (this.#refused !== null) {
          this.#refused(new ConfigError(why));
          this.#refused = null;
          this.#registered = null;
        }
        break;
      }
      case 'lease-lost':
        this.#lostReason = `lease lost: ${m.reason}`;
        this.log.warn({ node_id: this.nodeId, reason: m.reason }, 'cluster: lease lost; data requests answer 503 until registered again');
        break;
      case 'nodes':
        this.#nodes = m.nodes;
        break;
      case 'raft':
        // Keep-alive and watch answers may arrive out of order: the revision only grows.
        if (BigInt(m.commit) >= BigInt(this.#commit)) {
          this.#commit = m.commit;
          this.#term = m.term;
        }
        this.#lastUpdate = m.at;
        break;
      case 'leader':
        if (m.id !== this.#leader) this.log.info({ controller: m.id }, 'cluster: controller changed');
        this.#leader = m.id;
        break;
      case 'controller':
        this.log.info({ node_id: this.nodeId, elected: m.elected, revision: m.revision }, m.elected ? 'cluster: this node is the controller' : 'cluster: this node is no longer the controller');
        break;
      case 'log':
        this.log[m.level](m.fields, m.msg);
        break;
      case 'stopped':
        this.#stopped?.();
        break;
      case 'connected':
      case 'failed':
        break;
      case 'link-reply':
      case 'auth':
      case 'transfers':
        this.link.receive(m);
        break;
    }
  }

  /** The cluster_block_main_ms failpoint: a busy main loop, as a huge request or a GC pause makes one. */
  #blockMainOnce(): void {
    const ms = failpoint('cluster_block_main_ms');
    if (ms === null) return;
    setTimeout(() => {
      this.log.info({ ms }, 'failpoint: blocking the main loop');
      const until = Date.now() + ms;
      while (Date.now() < until);
      this.log.info({ ms, lease_held: this.leaseHeld() }, 'failpoint: main loop unblocked');
    }, 1000);
  }

  #post(m: ToEtcdThread): void {
    this.#worker.postMessage(m);
  }

  /**
   * One catalog change in etcd, through the etcd thread (catalog.ts). An etcd that does not
   * answer in time fails it with a retryable 503 (whether it was made is then unknown: a create
   * retried meets 409 if it was).
   */
  request(req: CatalogRequest): Promise<CatalogReply> {
    const id = ++this.#nextRequest;
    return new Promise<CatalogReply>((res, rej) => {
      const timer = setTimeout(() => {
        this.#replies.delete(id);
        rej(new QuiverError('ShardUnavailable', `The cluster catalog (etcd at ${this.#config.cluster.etcd.join(', ')}) did not answer within ${REQUEST_TIMEOUT_MS} ms; retry the request`));
      }, REQUEST_TIMEOUT_MS);
      this.#replies.set(id, {
        res: (r) => {
          clearTimeout(timer);
          res(r);
        },
        rej: (e) => {
          clearTimeout(timer);
          rej(e);
        },
      });
      this.#post({ type: 'request', id, req });
    });
  }

  /** This node's status report, written under status/<id> with its lease. */
  report(status: NodeStatus): void {
    this.#post({ type: 'report', status });
  }

  /** Publishes this node under /quiver/nodes/<id>; resolves once it is registered. */
  register(ports: { rest: number; grpc: number }): Promise<void> {
    const node: NodeRecord = {
      id: this.nodeId,
      advertise: this.#config.cluster.advertise,
      rest_port: ports.rest,
      grpc_port: ports.grpc,
      workers: this.#config.workers,
      memory_bytes: totalmem(),
      version: QUIVER_VERSION,
    };
    const done = new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new ConfigError(`could not register in etcd at ${this.#config.cluster.etcd.join(', ')} within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      this.#registered = () => {
        clearTimeout(timer);
        this.#refused = null;
        res();
      };
      this.#refused = (e) => {
        clearTimeout(timer);
        rej(e);
      };
    });
    this.#post({ type: 'register', node });
    return done;
  }

  /** Called when why this node serves or refuses changes (registered, lease lost, removed); returns the unsubscribe. */
  onServingChange(listener: () => void): () => void {
    this.#servingListeners.add(listener);
    return () => this.#servingListeners.delete(listener);
  }

  /** Whether this node holds its lease now: data requests are refused while it does not. */
  leaseHeld(): boolean {
    return Number(Atomics.load(this.#expiry, 0)) > nowMs();
  }

  /** Why data requests are refused, for the 503's message. */
  notServingReason(): string {
    return `This node is not serving: ${this.#lostReason ?? 'its cluster lease has lapsed'}`;
  }

  /** Retry-After for a refused request: about one lease renewal. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.#config.cluster.lease_seconds / 3));
  }

  get api(): ClusterApi {
    return {
      nodeId: this.nodeId,
      state: this.state,
      clusterRequest: (r, ms) => this.link.clusterRequest(r, ms),
      transfers: (id) => this.link.transfers(id),
    };
  }

  status(): ClusterStatusEnabled {
    const held = this.leaseHeld();
    const peers: Record<string, { uri: string }> = {};
    for (const n of this.#nodes) peers[String(n.id)] = { uri: `http://${n.advertise}/` };
    return {
      status: 'enabled',
      peer_id: this.nodeId,
      peers,
      raft_info: {
        term: Number(this.#term),
        commit: Number(this.#commit),
        pending_operations: 0,
        leader: this.#leader,
        role: this.#leader === null ? null : this.#leader === this.nodeId ? 'Leader' : 'Follower',
        is_voter: true,
      },
      consensus_thread_status: held
        ? { consensus_thread_status: 'working', last_update: this.#lastUpdate }
        : { consensus_thread_status: 'stopped_with_err', err: this.#lostReason ?? 'cluster lease lapsed' },
      message_send_failures: {},
    };
  }

  /** Leaves the cluster at once (lease revoked, campaign resigned), then ends the thread. */
  async close(): Promise<void> {
    const stopped = new Promise<void>((res) => (this.#stopped = res));
    this.#post({ type: 'stop' });
    await settleWithin(stopped, 3000);
    await this.#worker.terminate();
  }
}
