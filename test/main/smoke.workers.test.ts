import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('official REST client', () => {
  it('creates, upserts and queries', async () => {
    const client = new QdrantClient({ url: server.url });
    await client.createCollection('smoke', { vectors: { size: 3, distance: 'Dot' } });
    await client.upsert('smoke', {
      wait: true,
      points: [
        { id: 1, vector: [1, 0, 0], payload: { a: 1 } },
        { id: 2, vector: [0, 1, 0], payload: { a: 2 } },
      ],
    });
    const res = await client.query('smoke', { query: [0.9, 0.1, 0], limit: 1, with_payload: true });
    expect(res.points).toHaveLength(1);
    expect(res.points[0]!.id).toBe(1);
    expect(res.points[0]!.payload).toEqual({ a: 1 });
  });
});

describe('npm start', () => {
  it('runs the entry point the tests start', async () => {
    const { readFileSync, existsSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const root = resolve(import.meta.dirname, '..', '..');
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const m = /^node (\S+)$/.exec(pkg.scripts.start ?? '');
    expect(m).not.toBeNull();
    expect(existsSync(resolve(root, m![1]!))).toBe(true);
    expect(m![1]).toBe('dist/src/main/index.js');
  });
});

describe('package', () => {
  it('exports the typed client under the package name', async () => {
    const mod = (await import('quiver-vectordb/client')) as typeof import('../../src/client/index.js');
    const client = new mod.QuiverClient({ url: server.url });
    expect((await client.health()).commit).toMatch(/^[0-9a-f]{40}$/);
    expect((await client.listCollections()).collections.map((c) => c.name)).toContain('smoke');
  });

  it('answers the liveness probes without auth or readiness', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const r = await fetch(server.url + path);
      expect(r.status, path).toBe(200);
    }
  });
});
