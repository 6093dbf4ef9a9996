// The etcd thread: owns this node's etcd client, its membership lease, its controller campaign
// and the node mirror. It runs apart from the main thread so that a busy main loop (a large
// request being parsed, a GC pause) cannot starve the lease's keep-alives (measured: a 2 s lease
// kept from the main thread was lost after the loop was blocked 3 s; kept from this thread it
// survived 3 s and 6 s blocks of the main loop). It speaks only messages.ts to the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { AuthSync } from './auth-sync.js';
import { askController, ClusterOpsServer, TransfersMirror } from './cluster-ops-server.js';
import { ControllerElection } from './controller.js';
import { Membership } from './membership.js';
import type { EtcdThreadData, FromEtcdThread, LinkReply, ToEtcdThread } from './messages.js';
import { NodesMirror } from './nodes-mirror.js';

const data = workerData as EtcdThreadData;
const port = parentPort;
if (port === null) throw new Error('etcd-thread.ts runs as a worker thread');
const emit = (m: FromEtcdThread): void => port.postMessage(m);

const client = new Etcd3({ hosts: data.endpoints, dialTimeout: Math.min(data.connectTimeoutMs, 5000) });
const ns = client.namespace('/quiver/');
const membership = new Membership(ns, data.leaseSeconds, new BigInt64Array(data.leaseExpiry), emit);
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

/** Answers a link request (link.ts) with its id. */
function reply(id: number, work: Promise<Extract<LinkReply, { ok: true }>['value']>): void {
  work.then(
    (value) => emit({ type: 'reply', id, ok: true, value }),
    (e: unknown) => emit({ type: 'reply', id, ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
}

async function connect(): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new Error(`no answer within ${data.connectTimeoutMs} ms`)), data.connectTimeoutMs);
  });
  try {
    const s = await Promise.race([client.maintenance.status({}), timeout]);
    emit({ type: 'raft', term: s.raftTerm, commit: s.header.revision, at: new Date().toISOString() });
    emit({ type: 'connected' });
  } catch (e) {
    emit({ type: 'failed', message: `cannot reach etcd at ${data.endpoints.join(', ')}: ${e instanceof Error ? e.message : String(e)}` });
  } finally {
    clearTimeout(timer);
  }
}

port.on('message', (m: ToEtcdThread) => {
  switch (m.type) {
    case 'register':
      void membership.register(m.node).then(() => {
        void mirror.start();
        void transfers.start();
        election.start();
      });
      break;
    case 'stop':
      void (async () => {
        await Promise.all([election.stop(), mirror.stop(), membership.stop(), clusterOps.stop(), transfers.stop(), auth.stop()]);
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
