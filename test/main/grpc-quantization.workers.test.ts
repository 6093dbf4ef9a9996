// quantization_config over gRPC with the official client: kept from CreateCollection (collection
// and per vector) and reported by CollectionInfo, turned to binary and "Disabled" by
// UpdateCollection, used by searches with params.quantization, and product quantization refused
// with INVALID_ARGUMENT naming it (the REST side: quantization.workers.test.ts).

import { BinaryQuantizationEncoding, Distance, QuantizationType, type QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../helpers/grpc.js';
import { randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
const skip = process.env.QUIVER_SKIP_NATIVE_BUILD === '1';

beforeAll(async () => {
  server = await startServer();
  client = grpcClient(server);
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const info = async (name: string) => (await client.api('collections').get({ collectionName: name })).result!;

describe.skipIf(skip)('quantization_config over gRPC', () => {
  it('is kept from CreateCollection, reported, changed by UpdateCollection, and used by searches', async () => {
    await client.api('collections').create({
      collectionName: 'gq',
      vectorsConfig: {
        config: {
          case: 'paramsMap',
          value: {
            map: {
              a: { size: 8n, distance: Distance.Cosine, quantizationConfig: { quantization: { case: 'binary', value: { encoding: BinaryQuantizationEncoding.OneBit } } } },
              b: { size: 8n, distance: Distance.Euclid },
            },
          },
        },
      },
      quantizationConfig: { quantization: { case: 'scalar', value: { type: QuantizationType.Int8, quantile: 0.99, alwaysRam: true } } },
    });
    let c = await info('gq');
    expect(c.config?.quantizationConfig?.quantization).toMatchObject({ case: 'scalar', value: { type: QuantizationType.Int8, alwaysRam: true } });
    expect(c.config?.quantizationConfig?.quantization.value).toMatchObject({ quantile: expect.closeTo(0.99, 5) });
    const vectors = c.config?.params?.vectorsConfig?.config;
    expect(vectors?.case).toBe('paramsMap');
    const map = vectors?.case === 'paramsMap' ? vectors.value.map : {};
    expect(map.a?.quantizationConfig?.quantization).toMatchObject({ case: 'binary', value: { encoding: BinaryQuantizationEncoding.OneBit } });
    expect(map.b?.quantizationConfig).toBeUndefined();

    const rows = randomVectors(2500, 8, 3);
    await client.api('points').upsert({
      collectionName: 'gq',
      wait: true,
      points: rows.map((v, i) => ({
        id: { pointIdOptions: { case: 'num', value: BigInt(i) } },
        vectors: { vectorsOptions: { case: 'vectors', value: { vectors: { a: { data: v }, b: { data: v } } } } },
      })),
    });
    await expect.poll(async () => ((await info('gq')).status === 1 ? Number((await info('gq')).indexedVectorsCount) : -1), { timeout: 60_000, interval: 100 }).toBe(5000);
    for (const using of ['a', 'b']) {
      const r = await client.api('points').query({
        collectionName: 'gq',
        query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: rows[77]! } } } } },
        using,
        limit: 1n,
        params: { hnswEf: 200n, quantization: { rescore: true, oversampling: 8 } },
      });
      expect(r.result[0]?.id?.pointIdOptions.value).toBe(77n);
    }

    await client.api('collections').update({ collectionName: 'gq', quantizationConfig: { quantization: { case: 'binary', value: {} } } });
    expect((await info('gq')).config?.quantizationConfig?.quantization.case).toBe('binary');
    await client.api('collections').update({ collectionName: 'gq', quantizationConfig: { quantization: { case: 'disabled', value: {} } } });
    c = await info('gq');
    expect(c.config?.quantizationConfig).toBeUndefined();
  });

  it('refuses product quantization with INVALID_ARGUMENT naming it, and creates nothing', async () => {
    const err = await client
      .api('collections')
      .create({
        collectionName: 'gp',
        vectorsConfig: { config: { case: 'params', value: { size: 8n, distance: Distance.Dot } } },
        quantizationConfig: { quantization: { case: 'product', value: { compression: 2 } } },
      })
      .catch((e: unknown) => e);
    expect(String(err)).toContain('Product quantization is not supported by Quiver');
    // ConnectRPC's Code.InvalidArgument.
    expect((err as { code?: number }).code).toBe(3);
    expect((await client.api('collections').collectionExists({ collectionName: 'gp' })).result?.exists).toBe(false);
  });
});
