// fencedTxn against a real etcd: the controller's writes hold only while its election key keeps
// the create revision it won with. A controller deposed while its lease lapsed writes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { fencedTxn, FencedOutError, type FenceToken } from '../../../src/control/fenced.js';
import { writeAssignment } from '../../../src/control/control-loop.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

async function win(client: Etcd3, id: string): Promise<{ token: FenceToken; resign: () => Promise<void> }> {
  const campaign = client.namespace('/quiver/').election('controller', 2).campaign(id);
  await new Promise<void>((res, rej) => {
    campaign.once('elected', () => res());
    campaign.once('error', rej);
  });
  const key = await campaign.getCampaignKey();
  const kv = (await client.get(key).exec()).kvs[0];
  if (kv === undefined) throw new Error('no election key');
  return { token: { key, revision: kv.create_revision }, resign: () => campaign.resign() };
}

describe.skipIf(etcdMissing() !== null)('fencedTxn', () => {
  let etcd: EtcdCluster;
  let a: Etcd3;
  let b: Etcd3;
  beforeAll(async () => {
    etcd = await startEtcd(1);
    a = new Etcd3({ hosts: etcd.endpoints });
    b = new Etcd3({ hosts: etcd.endpoints });
  });
  afterAll(async () => {
    a?.close();
    b?.close();
    await etcd?.stop();
  });

  it("the controller's write commits; a deposed controller's write is refused and changes nothing", async () => {
    const first = await win(a, '1');
    await fencedTxn(a, first.token, a.put('/quiver/assign/c1/0').value('{"epoch":1}'));
    expect(await a.get('/quiver/assign/c1/0').string()).toBe('{"epoch":1}');

    // Deposed: its election key goes (as when its lease lapses) and another node wins.
    await first.resign();
    const second = await win(b, '2');
    expect(BigInt(second.token.revision)).toBeGreaterThan(BigInt(first.token.revision));

    const stale = fencedTxn(a, first.token, a.put('/quiver/assign/c1/0').value('{"epoch":"stale"}'));
    await expect(stale).rejects.toBeInstanceOf(FencedOutError);
    await expect(stale).rejects.toThrow(`not the controller any more: election key ${first.token.key} no longer has create revision ${first.token.revision}`);
    expect(await a.get('/quiver/assign/c1/0').string()).toBe('{"epoch":1}');

    await fencedTxn(b, second.token, b.put('/quiver/assign/c1/0').value('{"epoch":2}'));
    expect(await b.get('/quiver/assign/c1/0').string()).toBe('{"epoch":2}');
    await second.resign();
  });

  it('a token whose key was recreated with a newer revision is refused too', async () => {
    const won = await win(a, '1');
    const forged: FenceToken = { key: won.token.key, revision: String(BigInt(won.token.revision) - 1n) };
    await expect(fencedTxn(a, forged, a.put('/quiver/assign/c2/0').value('x'))).rejects.toBeInstanceOf(FencedOutError);
    expect(await a.get('/quiver/assign/c2/0').string()).toBeNull();
    await won.resign();
  });

  it("the assignment writer: a deposed controller's write is refused; a write on a key changed since read is not made", async () => {
    const read = async (): Promise<{ value: unknown; mod: string }> => {
      const kv = (await a.get('/quiver/assign/9/0').exec()).kvs[0];
      return kv === undefined ? { value: null, mod: '0' } : { value: JSON.parse(kv.value.toString('utf8')), mod: kv.mod_revision };
    };
    const first = await win(a, '1');
    const one = { epoch: 1, replicas: [{ node: 1, state: 'Active' as const }] };
    expect(await writeAssignment(a, '/quiver/', first.token, 9, 0, one, '0')).toBe(true);
    const r1 = await read();
    expect(r1.value).toEqual(one);
    // Create-if-absent: a second "first write" finds the key and writes nothing.
    expect(await writeAssignment(a, '/quiver/', first.token, 9, 0, { ...one, epoch: 99 }, '0')).toBe(false);
    await first.resign();
    const second = await win(b, '2');
    const two = { epoch: 2, replicas: [{ node: 2, state: 'Active' as const }] };
    // The deposed controller, with the revision it read: refused, nothing written.
    await expect(writeAssignment(a, '/quiver/', first.token, 9, 0, { epoch: 2, replicas: [] }, r1.mod)).rejects.toBeInstanceOf(FencedOutError);
    expect((await read()).value).toEqual(one);
    expect(await writeAssignment(b, '/quiver/', second.token, 9, 0, two, r1.mod)).toBe(true);
    // A stale read (the key moved on) is not written over, even by the controller.
    expect(await writeAssignment(b, '/quiver/', second.token, 9, 0, { epoch: 3, replicas: [] }, r1.mod)).toBe(false);
    expect((await read()).value).toEqual(two);
    // Removal is fenced and conditioned alike.
    expect(await writeAssignment(b, '/quiver/', second.token, 9, 0, null, (await read()).mod)).toBe(true);
    expect((await read()).value).toBeNull();
    await second.resign();
  });
});
