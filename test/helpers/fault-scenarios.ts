// The fault scenarios of docs/cluster.md section 10 (and one more): what each injects at t=5 s, and
// the recovery it runs at its own time. Run and checked by test/helpers/faults.ts.

import type { TestCluster } from './cluster.js';
import { settle } from './fault-cluster-state.js';

/** The fault's time, and the load's shortest length (docs/cluster.md section 10). */
export const FAULT_AT_MS = 5_000;
export const LOAD_MS = 20_000;

export interface Scenario {
  n: number;
  name: string;
  /** The query gap bound applies (not to scenario 8, where every process is down by design). */
  gapBound: boolean;
  /** Every query must answer (scenarios 3, 4, 7: no Quiver node is touched). */
  noQueryErrors: boolean;
  /** Injects the fault at t=5 s and returns the recovery, run at its own time; returns what was hit. */
  fault(c: TestCluster, ctx: { stream: string }): Promise<{ hit: string; recover: () => Promise<void>; recoverAtMs: number }>;
}

/** A node that is not the controller (so killing it is scenario 1, not 2). */
async function plainNode(c: TestCluster): Promise<number> {
  const ctl = await settle('a controller', () => c.controller());
  return (ctl + 1) % c.nodes.length;
}

export const SCENARIOS: Scenario[] = [
  {
    n: 1,
    name: 'kill -9 of a Quiver node, restarted later',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await plainNode(c);
      await c.stopNode(i, 'SIGKILL');
      return { hit: `node ${i}`, recoverAtMs: 12_000, recover: () => c.startNode(i) };
    },
  },
  {
    n: 2,
    name: 'kill -9 of the controller',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await settle('a controller', () => c.controller());
      await c.stopNode(i, 'SIGKILL');
      return { hit: `node ${i} (controller)`, recoverAtMs: 12_000, recover: () => c.startNode(i) };
    },
  },
  {
    n: 3,
    name: "kill -9 of a stream leader's nats-server",
    gapBound: true,
    noQueryErrors: true,
    async fault(c, { stream }) {
      const i = await settle(`${stream}'s leader`, () => c.streamLeader(stream));
      await c.nats.kill(i);
      return { hit: `nats-server ${i} (leader of ${stream})`, recoverAtMs: 12_000, recover: () => c.nats.start(i) };
    },
  },
  {
    n: 4,
    name: 'kill -9 of the etcd leader',
    gapBound: true,
    noQueryErrors: true,
    async fault(c) {
      const i = await c.etcdLeader();
      const m = c.etcd.members[i]!;
      await c.etcd.stopMember(m, 'SIGKILL');
      return { hit: `etcd ${m.name} (leader)`, recoverAtMs: 12_000, recover: () => c.etcd.restartMember(m) };
    },
  },
  {
    n: 5,
    name: 'one machine (a node, a nats-server and an etcd member) killed together',
    gapBound: true,
    noQueryErrors: false,
    async fault(c, { stream }) {
      // The machine whose nats-server leads shard 0's stream: its writes need an election too.
      const i = (await c.streamLeader(stream)) ?? 0;
      const m = c.etcd.members[i]!;
      await Promise.all([c.stopNode(i, 'SIGKILL'), c.nats.kill(i), c.etcd.stopMember(m, 'SIGKILL')]);
      return {
        hit: `machine ${i}: node ${i}, nats-server ${i}, etcd ${m.name}`,
        recoverAtMs: 12_000,
        recover: async () => {
          await Promise.all([c.nats.start(i), c.etcd.restartMember(m)]);
          await c.startNode(i);
        },
      };
    },
  },
  {
    n: 6,
    name: 'SIGSTOP of a node past its lease, then SIGCONT',
    gapBound: true,
    noQueryErrors: false,
    async fault(c) {
      const i = await plainNode(c);
      c.pauseNode(i);
      // Past the lease: its TTL and 4 s more, so the others have seen it gone.
      return { hit: `node ${i}`, recoverAtMs: FAULT_AT_MS + c.leaseSeconds * 1000 + 4_000, recover: async () => c.resumeNode(i) };
    },
  },
  {
    n: 7,
    name: "SIGSTOP of a stream leader's nats-server for 12 s",
    gapBound: true,
    noQueryErrors: true,
    async fault(c, { stream }) {
      const i = await settle(`${stream}'s leader`, () => c.streamLeader(stream));
      c.nats.pause(i);
      return { hit: `nats-server ${i} (leader of ${stream})`, recoverAtMs: FAULT_AT_MS + 12_000, recover: async () => c.nats.resume(i) };
    },
  },
  {
    n: 8,
    name: 'kill -9 of all nine processes, then a restart',
    gapBound: false,
    noQueryErrors: false,
    async fault(c) {
      await c.killAll();
      return { hit: 'all nine', recoverAtMs: FAULT_AT_MS + 2_000, recover: () => c.restartAll() };
    },
  },
  {
    n: 9,
    // Beyond docs/cluster.md section 10's first eight: a frozen etcd member keeps its clients' sockets open (unlike
    // scenario 4's kill), so a node's lease must be kept alive through the other members.
    name: 'SIGSTOP of the etcd leader for 12 s',
    gapBound: true,
    noQueryErrors: true,
    async fault(c) {
      const i = await c.etcdLeader();
      const m = c.etcd.members[i]!;
      m.proc!.kill('SIGSTOP');
      return { hit: `etcd ${m.name} (leader)`, recoverAtMs: FAULT_AT_MS + 12_000, recover: async () => void m.proc!.kill('SIGCONT') };
    },
  },
];
