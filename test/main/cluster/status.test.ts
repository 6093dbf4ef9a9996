// GET /cluster and the lease gate without etcd: a single node answers Qdrant's disabled status;
// a cluster node (a fake ClusterView here) answers its status, and while it holds no lease
// refuses the collections' routes with 503 and Retry-After, leaving health and status open.
// Qdrant's cluster_enabled reads 0 on a single node and 1 on a cluster node, which also counts its
// hedged reads.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/main/http/app.js';
import { Metrics } from '../../../src/main/metrics.js';
import type { ClusterStatusEnabled, ClusterView } from '../../../src/main/cluster/view.js';
import { inject, startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';
import { sample } from '../../helpers/metrics.js';
import type { FastifyInstance } from 'fastify';

describe('single node', () => {
  let q: InProcessQuiver;
  beforeAll(async () => {
    q = await startInProcess({ workers: 1 });
  });
  afterAll(async () => {
    await q?.close();
  });

  it('GET /cluster answers {status: "disabled"}, as Qdrant without a cluster', async () => {
    const r = await inject(q.app, 'GET', '/cluster');
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ status: 'disabled' });
  });

  it('/metrics: cluster_enabled 0, and no hedged reads counter', async () => {
    const text = (await q.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'cluster_enabled')).toBe(0);
    expect(text).not.toContain('quiver_cluster_hedged_reads_total');
  });
});

describe('cluster node, lease gate', () => {
  let q: InProcessQuiver;
  let app: FastifyInstance;
  let held = true;
  let hedged = 0;
  const status: ClusterStatusEnabled = {
    status: 'enabled',
    peer_id: 42,
    peers: { '42': { uri: 'http://127.0.0.1:6575/' }, '7': { uri: 'http://127.0.0.1:6576/' } },
    raft_info: { term: 3, commit: 17, pending_operations: 0, leader: 7, role: 'Follower', is_voter: true },
    consensus_thread_status: { consensus_thread_status: 'working', last_update: '2026-11-24T03:00:00.000Z' },
    message_send_failures: {},
  };
  const view: ClusterView = {
    leaseHeld: () => held,
    notServingReason: () => 'This node is not serving: lease lost: test',
    retryAfterSeconds: 4,
    status: () => status,
  };
  beforeAll(async () => {
    q = await startInProcess({ workers: 1 });
    app = await buildApp(q.config, q.engine, q.auth, new Metrics(q.engine, { hedgedReads: () => hedged }), undefined, view);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await q?.close();
  });

  it('/metrics: cluster_enabled 1, and the hedged reads counter as the data plane counts them', async () => {
    hedged = 3;
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'cluster_enabled')).toBe(1);
    expect(sample(text, 'quiver_cluster_hedged_reads_total')).toBe(3);
  });

  it('GET /cluster answers the node view in the documented shape', async () => {
    const r = await inject(app, 'GET', '/cluster');
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual(status);
  });

  it('with the lease held, data requests are served', async () => {
    held = true;
    expect((await inject(app, 'GET', '/collections')).status).toBe(200);
  });

  it('without the lease, every collections route answers 503 with Retry-After and the reason', async () => {
    held = false;
    for (const [method, url, body] of [
      ['GET', '/collections', undefined],
      ['PUT', '/collections/c', { vectors: { size: 2, distance: 'Dot' } }],
      ['POST', '/collections/c/points/search', { vector: [1, 0], limit: 1 }],
      ['PUT', '/collections/c/points?wait=true', { points: [{ id: 1, vector: [1, 0] }] }],
    ] as const) {
      const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body }) });
      expect(res.statusCode, `${method} ${url}`).toBe(503);
      expect(res.headers['retry-after']).toBe('4');
      expect(res.json()).toMatchObject({ status: { error: 'This node is not serving: lease lost: test' } });
    }
    // Nothing was created behind the refusal.
    held = true;
    expect((await inject(app, 'GET', '/collections/c/exists')).body.result).toEqual({ exists: false });
  });

  it('without the lease, health checks and GET /cluster still answer', async () => {
    held = false;
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await inject(app, 'GET', '/cluster')).status).toBe(200);
    held = true;
  });
});
