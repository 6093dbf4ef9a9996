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
