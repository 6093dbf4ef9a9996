// BM25 documents through the real server and both official clients: a Document in an upsert
// becomes the sparse vector computed here from its words (murmur3 indices, BM25 term weights),
// a Document in a query finds the points holding its words, with the idf modifier doing the rest;
// options change the words; every bad input with its status and message.

import { QdrantClient } from '@qdrant/js-client-rest';
import murmurhash from 'murmurhash';
import snowball from 'snowball-stemmers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient, idOf } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const texts = ['The quick brown foxes are running', 'A lazy dog sleeps all day', 'Foxes and dogs: running, jumping, sleeping', 'Nothing to see here'];
const english = snowball.newStemmer('english');
const index = (w: string) => Math.abs(murmurhash.v3(w, 0) | 0);

/** BM25 document weights for `words` (already cut, lower-cased, stop words out, stemmed). */
function docVector(words: string[], k = 1.2, b = 0.75, avgLen = 256) {
  const tf = new Map<number, number>();
  for (const w of words) tf.set(index(w), (tf.get(index(w)) ?? 0) + 1);
  const indices = [...tf.keys()].sort((x, y) => x - y);
  const norm = k * (1 - b + (b * words.length) / avgLen);
  return { indices, values: indices.map((i) => Math.fround((tf.get(i)! * (k + 1)) / (tf.get(i)! + norm))) };
}
const doc = (text: string, options?: object) => ({ text, model: 'qdrant/bm25', ...(options ? { options } : {}) });
/** A point's stored bm25 vector, its values read back as the float32 they print. */
const stored = (p: { vector?: unknown } | undefined) => {
  const v = (p!.vector as Record<string, { indices: number[]; values: number[] }>).bm25!;
  return { indices: v.indices, values: v.values.map(Math.fround) };
};

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('t', { vectors: { d: { size: 2, distance: 'Dot' } }, sparse_vectors: { bm25: { modifier: 'idf' } }, shard_number: 2 });
  await client.upsert('t', { wait: true, points: texts.map((text, id) => ({ id, vector: { d: [1, 0], bm25: doc(text) } as never, payload: { text } })) });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('BM25 documents', () => {
  it('an upserted document is stored as its BM25 sparse vector', async () => {
    const [p] = await client.retrieve('t', { ids: [0], with_vector: ['bm25'] });
    // "the" and "are" are English stop words; the rest stemmed: quick, brown, fox, run.
    const want = docVector(['quick', 'brown', 'foxes', 'running'].map((w) => english.stem(w)));
    expect(stored(p)).toEqual(want);
  });

  it('a query document finds the points holding its words, best first', async () => {
    const got = await client.query('t', { query: doc('running foxes') as never, using: 'bm25', limit: 4 });
    expect(got.points.map((p) => p.id).slice(0, 2).sort()).toEqual([0, 2]);
    expect(got.points.every((p) => p.id !== 3)).toBe(true);
    // The query's own weights are 1 per distinct word: a repeated word counts once.
    const twice = await client.query('t', { query: { nearest: doc('fox fox running') } as never, using: 'bm25', limit: 4 });
    expect(twice.points.map((p) => [p.id, p.score])).toEqual(got.points.map((p) => [p.id, p.score]));
    // In a prefetch, fused with a dense search.
    const fused = await client.query('t', { prefetch: [{ query: doc('lazy dog') as never, using: 'bm25', limit: 2 }, { query: [1, 0], using: 'd', limit: 2 }], query: { fusion: 'rrf' }, limit: 3 });
    expect(fused.points.map((p) => p.id)).toContain(1);
  });

  it('options: language, stop words, stemmer, tokenizer, lowercase, folding, lengths and k, b, avg_len', async () => {
    const vectorOf = async (text: string, options: object) => {
      await client.upsert('t', { wait: true, points: [{ id: 100, vector: { bm25: doc(text, options) } as never }] });
      const [p] = await client.retrieve('t', { ids: [100], with_vector: ['bm25'] });
      return stored(p);
    };
    expect(await vectorOf('The Foxes', { language: 'none' })).toEqual(docVector(['the', 'foxes']));
    expect(await vectorOf('The Foxes', { stemmer: { type: 'none' } })).toEqual(docVector(['foxes']));
    expect(await vectorOf('The Foxes ran', { stopwords: { custom: ['ran'] }, stemmer: { type: 'none' } })).toEqual(docVector(['the', 'foxes']));
    // NLTK's French list has "le" but not "les", which stems to "le".
    expect(await vectorOf('Le chevaux les', { language: 'french' })).toEqual(docVector(['cheval', 'le']));
    expect(await vectorOf('snake_case Ação', { language: 'none', tokenizer: 'whitespace', lowercase: false, ascii_folding: true })).toEqual(docVector(['snake_case', 'Acao']));
    expect(await vectorOf('a bb ccc dddd', { language: 'none', min_token_len: 2, max_token_len: 3 })).toEqual(docVector(['bb', 'ccc']));
    expect(await vectorOf('fox fox dog', { language: 'none', k: 2, b: 0.5, avg_len: 10 })).toEqual(docVector(['fox', 'fox', 'dog'], 2, 0.5, 10));
  });

  it('answers what it cannot embed with its status and message', async () => {
    const up = (vector: unknown) => call(server.url, 'PUT', '/collections/t/points?wait=true', { points: [{ id: 50, vector }] });
    expectError(await up({ bm25: { text: 'x', model: 'sentence-transformers/all-minilm-l6-v2' } }), 400, "model 'sentence-transformers/all-minilm-l6-v2' is not supported by Quiver");
    expectError(await up({ bm25: { image: 'https://example.org/a.png', model: 'qdrant/bm25' } }), 400, 'Only text input is supported for qdrant/bm25.');
    expectError(await up(doc('unnamed')), 400, 'Bad request: Sparse vector should be named');
    expectError(await up({ d: doc('dense') }), 400, 'Wrong input: Conversion between sparse and regular vectors failed');
    expectError(await up({ bm25: doc('x', { stopwords: 'chinese' }) }), 400, "no stop-word list for 'chinese' in Quiver");
    expectError(await up({ bm25: doc('x', { stemmer: { type: 'snowball', language: 'greek' } }) }), 400, "no Snowball stemmer for 'greek' in Quiver");
    expectError(await up({ bm25: doc('x', { k: 'big' }) }), 400, 'Invalid BM25 config: k must be a number');
    expectError(await call(server.url, 'PUT', '/collections/t/points?wait=true', { batch: { ids: [51], vectors: [doc('x')] } }), 400, 'Document processing is not supported in batch operations.');
    expectError(await call(server.url, 'POST', '/collections/t/points/query', { query: doc('x'), using: 'd' }), 400, "Vector 'd' is dense");
    expect((await client.retrieve('t', { ids: [50, 51] })).length).toBe(0);
  });

  it('gRPC: documents in upserts and queries', async () => {
    const grpc = grpcClient(server);
    const document = (text: string) => ({ text, model: 'qdrant/bm25', options: {} });
    await grpc.api('points').upsert({
      collectionName: 't',
      wait: true,
      points: [{ id: { pointIdOptions: { case: 'num', value: 200n } }, vectors: { vectorsOptions: { case: 'vectors', value: { vectors: { bm25: { vector: { case: 'document', value: document('jumping foxes') } } } } } } }],
    });
    const [p] = await client.retrieve('t', { ids: [200], with_vector: ['bm25'] });
    expect(stored(p)).toEqual(docVector(['jump', 'fox']));
    const res = await grpc.api('points').query({ collectionName: 't', using: 'bm25', limit: 1n, query: { variant: { case: 'nearest', value: { variant: { case: 'document', value: document('jumping') } } } } });
    expect([200, 2]).toContain(idOf(res.result[0]!));
  });
});
