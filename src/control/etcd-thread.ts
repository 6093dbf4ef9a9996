// The etcd thread: owns this node's etcd client, its membership lease, its controller campaign
// and the node mirror. It runs apart from the main thread so that a busy main loop (a large
// request being parsed, a GC pause) cannot starve the lease's keep-alives (measured: a 2 s lease
// kept from the main thread was lost after the loop was blocked 3 s; kept from this thread it
// survived 3 s and 6 s blocks of the main loop). It speaks only messages.ts to the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { within } from '../shared/deadline.js';
import { AuthSync } from './auth-sync.js';
import { createIfAbsent, markDeletingEntry, removeEntryAt, updateConfig } from '../shared/cluster/catalog.js';
import { ClusterMirror } from './cluster-mirror.js';
import { askController, ClusterOpsServer, TransfersMirror } from './cluster-ops-server.js';
import { ControlLoop } from './control-loop.js';
import { ControllerElection } from './controller.js';
import { Membership } from './membership.js';
import type { CatalogReply, CatalogRequest, EtcdThreadData, FromEtcdThread, LinkReply, ToEtcdThread } from '../shared/cluster/messages.js';
import { NodesMirror } from './nodes-mirror.js';
import { TICK_KEY, WatchGuard } from './watch-guard.js';
import { pooledEtcd } from './etcd-client.js';

const data = workerData as EtcdThreadData;
const port = parentPort;
if (port === null) throw new Error('etcd-thread.ts runs as a worker thread');
const emit = (m: FromEtcdThread): void => {
  port.postMessage(m);
  // A removed peer (membership.ts) gives up its roles too: it campaigns and decides no more.
  if (m.type === 'removed') {
    guard.stop();
    void Promise.all([control.stop(), election.stop(), clusterOps.stop()]);
  }
};

const client = pooledEtcd(data.endpoints, Math.min(data.connectTimeoutMs, 5000), data.leaseSeconds);
const ns = client.namespace('/quiver/');
// One client per member for the lease's extra keep-alives (membership.ts): the pool above picks a
// member at random per call, and a frozen one never answers.
const members = data.endpoints.length > 1 ? data.endpoints.map((host) => new Etcd3({ hosts: host, dialTimeout: Math.min(data.connectTimeoutMs, 5000) })) : [client];
const membership = new Membership(ns, members, data.leaseSeconds, new BigInt64Array(data.leaseExpiry), emit);
// The cluster API (cluster-ops-server.ts): the controller serves the cluster operations while it
// is elected; every node mirrors the transfers in flight and the shared auth state.
const clusterOps = new ClusterOpsServer(client, emit);
const transfers = new TransfersMirror(client, emit);
const auth = new AuthSync(client, emit);
const election: ControllerElection = new ControllerElection(ns, data.nodeId, data.leaseSeconds, (m) => {
  emit(m);
  if (m.type !== 'controller') return;
  const token = election.token;
  if (m.elected && token !== null) clusterOps.start(token);
  else void clusterOps.stop();
});
const mirror = new NodesMirror(ns, emit);
const clusterMirror = new ClusterMirror(ns, emit);
const control = new ControlLoop(client, ns, election, data.deadGraceMs, emit);
// Every watcher of this thread is on one of two streams, ns's and client's, but each election
// campaign's own (controller.ts takes the role from its observer's watch on ns instead).
const guard = new WatchGuard(
  members.map((m) => m.namespace('/quiver/')),
  [
    { name: 'quiver', ns, key: TICK_KEY },
    { name: 'root', ns: client, key: `/quiver/${TICK_KEY}` },
  ],
  Math.max(500, (data.leaseSeconds * 1000) / 4),
  () => election.token !== null,
  emit,
);

async function serve(req: CatalogRequest): Promise<CatalogReply> {
  switch (req.op) {
    case 'create': {
      const r = await createIfAbsent(ns, req.name, req.config);
      // A new collection gets its assignment at once, without waiting for the controller's tick.
      control.kick();
      return r.created ? { op: 'create', created: true, entry: r.entry, rev: Number(r.revision) } : { op: 'create', created: false, existing: r.existing };
    }
    case 'markDeleting': {
      const r = await markDeletingEntry(ns, req.name);
      return { op: 'markDeleting', entry: r?.entry ?? null, rev: r === null ? 0 : Number(r.revision) };
    }
    case 'remove': {
      const rev = await removeEntryAt(ns, req.name, req.id);
      return { op: 'remove', rev: rev === null ? null : Number(rev) };
    }
    case 'update': {
      const rev = await updateConfig(ns, req.name, req.id, req.config);
      return { op: 'update', rev: rev === null ? null : Number(rev) };
    }
  }
}

/** Answers a link request (link.ts) with its id. */
function reply(id: number, work: Promise<Extract<LinkReply, { ok: true }>['value']>): void {
  work.then(
    (value) => emit({ type: 'link-reply', id, ok: true, value }),
    (e: unknown) => emit({ type: 'link-reply', id, ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
}

async function connect(): Promise<void> {
  try {
    const s = await within(client.maintenance.status({}), data.connectTimeoutMs, () => {
      throw new Error(`no answer within ${data.connectTimeoutMs} ms`);
    });
    emit({ type: 'raft', term: s.raftTerm, commit: s.header.revision, at: new Date().toISOString() });
    emit({ type: 'connected' });
  } catch (e) {
    emit({ type: 'failed', message: `cannot reach etcd at ${data.endpoints.join(', ')}: ${e instanceof Error ? e.message : String(e)}` });
  }
}

port.on('message', (m: ToEtcdThread) => {
  switch (m.type) {
    case 'register':
      void membership.register(m.node).then(() => {
        if (membership.removed) return;
        void mirror.start();
        void transfers.start();
        void clusterMirror.start();
        election.start();
        control.start();
        guard.start();
      });
      break;
    case 'request':
      serve(m.req).then(
        (reply) => emit({ type: 'reply', id: m.id, ok: true, reply }),
        (e: unknown) => emit({ type: 'reply', id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) }),
      );
      break;
    case 'report':
      membership.report(JSON.stringify(m.status));
      break;
    case 'stop':
      void (async () => {
        guard.stop();
        await Promise.all([control.stop(), election.stop(), mirror.stop(), clusterMirror.stop(), membership.stop(), clusterOps.stop(), transfers.stop(), auth.stop()]);
        for (const m of members) if (m !== client) m.close();
        client.close();
        emit({ type: 'stopped' });
      })();
      break;
    case 'cluster-request':
      reply(m.id, askController(client, m.request, m.timeoutMs));
      break;
    case 'auth-join':
      reply(m.id, auth.join(m.state, m.tokens));
      break;
    case 'auth-commit':
      reply(m.id, auth.commit(m.commit));
      break;
  }
});

void connect();
