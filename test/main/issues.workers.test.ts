// GET and DELETE /issues through the real server: a filtered read slower than slow_query_secs
// (0 here, so every filtered read counts) raises Qdrant's unindexed-field issue for each key it
// filters on without a fitting index, once, with the index to create; an index on the key or
// deleting the collection resolves it; DELETE clears them. With the default threshold a quick
// read raises nothing.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) {
    await s.stop();
    removeDir(s.dataDir);
  }
});

async function start(env: Record<string, string>): Promise<{ s: TestServer; client: QdrantClient }> {
  const s = await startServer({ shards: 2, env });
  servers.push(s);
  const client = new QdrantClient({ url: s.url, checkCompatibility: false });
  for (const name of ['iss', 'other']) {
    await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 });
    await client.upsert(name, { wait: true, points: [1, 2, 3].map((id) => ({ id, vector: [1, id], payload: { city: 'Berlin', n: id } })) });
  }
  return { s, client };
}

describe('issues', () => {
  it('raises one issue per unindexed key of a slow filtered read, resolved by an index or a deletion, cleared by DELETE', async () => {
    const { s, client } = await start({ SERVICE_SLOW_QUERY_SECS: '0' });
    expect((await call(s.url, 'GET', '/issues')).body.result).toEqual({ issues: [] });
    await client.query('iss', { query: [1, 1], limit: 2, filter: { must: [{ key: 'city', match: { value: 'Berlin' } }, { key: 'n', range: { gte: 1 } }] } });
    await client.count('iss', { filter: { must: [{ key: 'city', match: { value: 'Berlin' } }] } });
    await client.scroll('other', { filter: { must: [{ key: 'city', match: { value: 'Berlin' } }] } });
    const res = await call(s.url, 'GET', '/issues');
    expect(res.status).toBe(200);
    const issues = res.body.result.issues as { id: string; description: string; solution: { immediate: { message: string; action: unknown } }; timestamp: string }[];
    expect(issues.map((i) => i.id)).toEqual(['UNINDEXED_FIELD/iss/city', 'UNINDEXED_FIELD/iss/n', 'UNINDEXED_FIELD/other/city']);
    const city = issues[0]!;
    expect(city.description).toBe("Unindexed field 'city' might be slowing queries down in collection 'iss'");
    expect(city.solution.immediate.message).toBe(
      `Create an index on field 'city' of schema "keyword" in collection 'iss'. Check the documentation for more details: https://qdrant.tech/documentation/concepts/indexing/#payload-index`,
    );
    expect(city.solution.immediate.action).toEqual({ method: 'PUT', uri: '/collections/iss/index', headers: { 'content-type': 'application/json' }, body: { field_name: 'city', field_schema: 'keyword' } });
    expect(Number.isNaN(Date.parse(city.timestamp))).toBe(false);
    // A range is answered by a float or an integer index: a choice of two fixes, as Qdrant offers.
    const n = issues[1]!.solution as unknown as { immediate_choice: { action: { body: unknown } }[] };
    expect(n.immediate_choice.map((f) => f.action.body)).toEqual([
      { field_name: 'n', field_schema: 'float' },
      { field_name: 'n', field_schema: 'integer' },
    ]);

    // Raised again: the same issue, its first timestamp kept.
    await client.count('iss', { filter: { must: [{ key: 'city', match: { value: 'Berlin' } }] } });
    expect(((await call(s.url, 'GET', '/issues')).body.result.issues as { timestamp: string }[])[0]!.timestamp).toBe(city.timestamp);

    // The index it asks for resolves it; deleting the collection resolves the other's.
    await client.createPayloadIndex('iss', { field_name: 'city', field_schema: 'keyword', wait: true });
    await client.deleteCollection('other');
    expect(((await call(s.url, 'GET', '/issues')).body.result.issues as { id: string }[]).map((i) => i.id)).toEqual(['UNINDEXED_FIELD/iss/n']);

    const cleared = await call(s.url, 'DELETE', '/issues');
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).toBe(true);
    expect((await call(s.url, 'GET', '/issues')).body.result).toEqual({ issues: [] });

    // Raised again, then resolved by an index of either type it offers (integer here).
    await client.count('iss', { filter: { must: [{ key: 'n', range: { gte: 2 } }] } });
    expect(((await call(s.url, 'GET', '/issues')).body.result.issues as { id: string }[]).map((i) => i.id)).toEqual(['UNINDEXED_FIELD/iss/n']);
    await client.createPayloadIndex('iss', { field_name: 'n', field_schema: 'integer', wait: true });
    expect((await call(s.url, 'GET', '/issues')).body.result).toEqual({ issues: [] });
  });

  it('with the default threshold (1.2 s), a quick filtered read raises nothing', async () => {
    const { s, client } = await start({});
    await client.count('iss', { filter: { must: [{ key: 'city', match: { value: 'Berlin' } }] } });
    expect((await call(s.url, 'GET', '/issues')).body.result).toEqual({ issues: [] });
  });
});
