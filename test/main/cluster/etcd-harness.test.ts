// The etcd harness itself: a 3-member cluster serves, has one leader, elects another when the
// leader is killed with SIGKILL, and takes the killed member back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

describe.skipIf(etcdMissing() !== null)('etcd harness (3 members)', () => {
  let etcd: EtcdCluster;
  beforeAll(async () => {
    etcd = await startEtcd(3);
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  it('serves puts and gets on every endpoint', async () => {
    const client = new Etcd3({ hosts: etcd.endpoints.split(',') });
    try {
      await client.put('/harness/k').value('v');
      for (const m of etcd.members) {
        const one = new Etcd3({ hosts: m.clientUrl });
        expect(await one.get('/harness/k').string()).toBe('v');
        one.close();
      }
    } finally {
      client.close();
    }
  });

  it('elects a new leader after the leader is killed, and the member rejoins', async () => {
    const first = await etcd.leader();
    await etcd.stopMember(first, 'SIGKILL');
    expect(first.proc).toBeNull();
    const second = await etcd.leader();
    expect(second.name).not.toBe(first.name);
    await etcd.restartMember(first);
    const one = new Etcd3({ hosts: first.clientUrl });
    try {
      await one.put('/harness/back').value('yes');
      expect(await one.get('/harness/back').string()).toBe('yes');
    } finally {
      one.close();
    }
  });
});
