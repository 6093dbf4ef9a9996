// Field index settings through the real server: each either changes what the index answers (an
// integer's lookup and range, a keyword's prefix, a text index's ascii_folding, stop words and
// stemmer) or is refused with a 400 naming it (memory 'cold', enable_hnsw: true, a
// language Quiver has no data for), and the params are reported back as given, over REST and gRPC.

import { FieldType, Memory } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const texts = ['The runners were running', 'A crème brûlée', 'Quiver of arrows', 'the end', 'Ação rápida'];

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('ix', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2 });
  await client.upsert('ix', {
    wait: true,
    points: Array.from({ length: 40 }, (_, id) => ({
      id,
      vector: [1, id / 40],
      payload: { n: id % 10, m: id % 10, word: ['apple', 'apricot', 'banana', 'app'][id % 4], body: texts[id % texts.length] },
    })),
  });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const count = async (filter: object): Promise<number> => (await client.count('ix', { filter, exact: true })).count;
const index = (field_name: string, field_schema: object) => call(server.url, 'PUT', '/collections/ix/index?wait=true', { field_name, field_schema });

describe('field index settings', () => {
  it('refuses what it cannot apply, naming it, and creates no index', async () => {
    const refused: [string, object, string][] = [
      ['word', { type: 'keyword', memory: 'cold' }, "field_schema.memory: 'cold' cannot apply: Quiver keeps field indexes in memory"],
      ['word', { type: 'keyword', enable_hnsw: true }, 'field_schema.enable_hnsw: true cannot apply: Quiver builds no per-payload HNSW links'],
      ['body', { type: 'text', stopwords: 'chinese' }, "field_schema.stopwords: no stop-word list for 'chinese' in Quiver"],
      ['body', { type: 'text', stopwords: { languages: ['english', 'tajik'] } }, "no stop-word list for 'tajik'"],
      ['body', { type: 'text', stemmer: { type: 'snowball', language: 'greek' } }, "field_schema.stemmer: no Snowball stemmer for 'greek' in Quiver"],
    ];
    for (const [key, schema, message] of refused) expectError(await index(key, schema), 400, message);
    expect((await client.getCollection('ix')).payload_schema).toEqual({});
    // Not one of Qdrant's placements at all: the schema's 400.
    expectError(await index('word', { type: 'keyword', memory: 'warm' }), 400, 'Format error in JSON body: body.field_schema');
  });

  it('integer lookup and range: each off changes what the index serves, and filters still answer', async () => {
    expect((await index('n', { type: 'integer', lookup: false, memory: 'pinned', enable_hnsw: false })).status).toBe(200);
    expect((await index('m', { type: 'integer', range: false, is_principal: true, memory: 'cached' })).status).toBe(200);
    // Matches on n and ranges on m are read from the payloads: the same counts.
    expect(await count({ must: [{ key: 'n', match: { value: 3 } }] })).toBe(4);
    expect(await count({ must: [{ key: 'n', range: { gte: 8 } }] })).toBe(8);
    expect(await count({ must: [{ key: 'm', match: { any: [1, 2] } }] })).toBe(8);
    expect(await count({ must: [{ key: 'm', range: { lt: 2 } }, { key: 'n', match: { value: 1 } }] })).toBe(4);
    // No lookup: no facets; no range: no order_by (Qdrant's answers).
    expectError(await call(server.url, 'POST', '/collections/ix/facet', { key: 'n' }), 400, 'Index required but not found for "n"');
    expect((await client.facet('ix', { key: 'm', limit: 2 })).hits).toEqual([{ value: 0, count: 4 }, { value: 1, count: 4 }]);
    expectError(await call(server.url, 'POST', '/collections/ix/points/scroll', { order_by: 'm' }), 400, 'No range index for `order_by` key: `m`');
    expect((await client.scroll('ix', { order_by: 'n', limit: 1 })).points[0]!.payload!.n).toBe(0);
    const schema = (await client.getCollection('ix')).payload_schema;
    expect(schema.n!.params).toEqual({ type: 'integer', lookup: false, memory: 'pinned', enable_hnsw: false });
    expect(schema.m!.params).toEqual({ type: 'integer', range: false, is_principal: true, memory: 'cached' });
  });

  it('keyword prefix: prefix matches, served by the index', async () => {
    expect(await count({ must: [{ key: 'word', match: { prefix: 'app' } }] })).toBe(20);
    expect((await index('word', { type: 'keyword', prefix: true })).status).toBe(200);
    expect(await count({ must: [{ key: 'word', match: { prefix: 'app' } }] })).toBe(20);
    expect(await count({ must: [{ key: 'word', match: { prefix: 'ap' } }] })).toBe(30);
  });

  it('text: stop words, stemmer and ascii_folding change which points a text filter matches', async () => {
    const text = async (q: string) => count({ must: [{ key: 'body', match: { text: q } }] });
    // Without an index: substrings, as Qdrant.
    expect(await text('run')).toBe(8);
    expect((await index('body', { type: 'text', stopwords: { languages: ['english'], custom: ['quiver'] }, stemmer: { type: 'snowball', language: 'english' }, ascii_folding: true, phrase_matching: true })).status).toBe(200);
    expect(await text('run')).toBe(8);
    expect(await text('runs')).toBe(8);
    expect(await text('creme brulee')).toBe(8);
    expect(await text('acao')).toBe(8);
    // "the" and "quiver" are stop words: a query of them alone has no tokens and matches nothing.
    expect(await text('the')).toBe(0);
    expect(await text('quiver')).toBe(0);
    expect(await text('arrow')).toBe(8);
    expect(await count({ must: [{ key: 'body', match: { phrase: 'the runner' } }] })).toBe(8);
    const params = (await client.getCollection('ix')).payload_schema.body!.params as Record<string, unknown>;
    expect(params).toMatchObject({ stopwords: { languages: ['english'], custom: ['quiver'] }, stemmer: { type: 'snowball', language: 'english' }, ascii_folding: true });
  });

  it('gRPC: the same settings in and out, and the same refusals', async () => {
    const grpc = grpcClient(server);
    await client.createCollection('gx', { vectors: { size: 2, distance: 'Dot' } });
    await grpc.api('points').createFieldIndex({
      collectionName: 'gx',
      wait: true,
      fieldName: 'body',
      fieldType: FieldType.FieldTypeText,
      fieldIndexParams: {
        indexParams: {
          case: 'textIndexParams',
          value: { stopwords: { languages: ['english'], custom: ['x'] }, stemmer: { stemmingParams: { case: 'snowball', value: { language: 'french' } } }, asciiFolding: true, memory: Memory.Pinned },
        },
      },
    });
    await grpc.api('points').createFieldIndex({
      collectionName: 'gx',
      wait: true,
      fieldName: 'word',
      fieldType: FieldType.FieldTypeKeyword,
      fieldIndexParams: { indexParams: { case: 'keywordIndexParams', value: { prefix: {}, enableHnsw: false } } },
    });
    expect((await client.getCollection('gx')).payload_schema).toMatchObject({
      body: { params: { type: 'text', stopwords: { languages: ['english'], custom: ['x'] }, stemmer: { type: 'snowball', language: 'french' }, ascii_folding: true, memory: 'pinned' } },
      word: { params: { type: 'keyword', prefix: true, enable_hnsw: false } },
    });
    const info = (await grpc.api('collections').get({ collectionName: 'gx' })).result!;
    const body = info.payloadSchema.body?.params?.indexParams;
    expect(body?.case).toBe('textIndexParams');
    expect(body?.value).toMatchObject({ asciiFolding: true, memory: Memory.Pinned, stemmer: { stemmingParams: { case: 'snowball', value: { language: 'french' } } } });
    const word = info.payloadSchema.word?.params?.indexParams;
    expect(word?.value).toMatchObject({ prefix: {}, enableHnsw: false });
    const refused = await grpc
      .api('points')
      .createFieldIndex({ collectionName: 'gx', wait: true, fieldName: 'k', fieldType: FieldType.FieldTypeKeyword, fieldIndexParams: { indexParams: { case: 'keywordIndexParams', value: { memory: Memory.Cold } } } })
      .catch((e: unknown) => e);
    expect((refused as { code?: number }).code).toBe(3);
    expect(String(refused)).toContain("field_schema.memory: 'cold' cannot apply");
  });
});
