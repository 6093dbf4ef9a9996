// Fenced writes of the controller (docs/cluster.md sections 1 and 7): etcd locks alone are unsafe, so
// every assignment write is a transaction that holds only while the controller's own election key
// still exists with the create revision it won with. A controller deposed while paused (its lease
// lapsed, another node elected) finds its key gone or recreated, and its write is refused instead
// of overwriting the new controller's.

import type { Etcd3, IOperation, Namespace } from 'etcd3';

/** What a controller won: its election key and that key's create revision. */
export interface FenceToken {
  key: string;
  revision: string;
}

export class FencedOutError extends Error {
  constructor(token: FenceToken) {
    super(`not the controller any more: election key ${token.key} no longer has create revision ${token.revision}`);
    this.name = 'FencedOutError';
  }
}

/**
 * Runs `ops` in one transaction conditioned on `token`; resolves with the commit's revision, or
 * rejects with FencedOutError when the token is stale (nothing is written).
 */
export async function fencedTxn(client: Etcd3 | Namespace, token: FenceToken, ...ops: IOperation[]): Promise<string> {
  const r = await client.if(token.key, 'Create', '==', token.revision).then(...ops).commit();
  if (!r.succeeded) throw new FencedOutError(token);
  return r.header.revision;
}

/** A compare-and-swap condition: the key's mod revision as read ('0': the key must be absent). */
export interface CasCondition {
  key: string;
  mod: string;
}

/**
 * fencedTxn that also holds only while each `cas` key is as read. Resolves true when committed,
 * false when a CAS condition failed (nothing is written: read again and decide again), and rejects
 * with FencedOutError when the token is stale. Keys are full keys (the token's key is one).
 */
export async function fencedCas(client: Etcd3, token: FenceToken, cas: readonly CasCondition[], ...ops: IOperation[]): Promise<boolean> {
  let cmp = client.if(token.key, 'Create', '==', token.revision);
  for (const c of cas) cmp = c.mod === '0' ? cmp.and(c.key, 'Create', '==', 0) : cmp.and(c.key, 'Mod', '==', c.mod);
  const r = await cmp.then(...ops).else(client.get(token.key)).commit();
  if (r.succeeded) return true;
  const kv = r.responses[0]?.response_range?.kvs[0];
  if (kv === undefined || kv.create_revision !== token.revision) throw new FencedOutError(token);
  return false;
}
