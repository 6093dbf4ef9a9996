// Load-generator child for gRPC: qdrant.Points/Search over @grpc/grpc-js, `concurrency` calls in
// flight (a closed loop), in a process of its own. Requests are encoded once with protobufjs from
// the project's proto/ and sent as raw bytes (identity serializers), and answers are not decoded
// except the first, which is checked: the client does as little per call as autocannon does.
// The fallback when h2load is missing (bench/lib/h2load.ts), which costs far less CPU per call.

import grpc from '@grpc/grpc-js';
import { checkSearchAnswer, encodeSearches, SEARCH_PATH } from './grpc-search.js';
import { announceMeasuring, readConfig, reportResult, summarize, type LoadResult } from './child-io.js';

export interface GrpcLoadConfig {
  target: string;
  collection: string;
  vectors: number[][];
  limit: number;
  hnswEf: number;
  concurrency: number;
  /** the server's REST base URL, for /metrics (h2load's runs check the gRPC status codes there) */
  restUrl: string;
  seconds: number;
  warmupSeconds: number;
}

async function main(): Promise<void> {
  const c = readConfig<GrpcLoadConfig>();
  const requests = encodeSearches(c.collection, c.vectors, c.limit, c.hnswEf);
  const client = new grpc.Client(c.target, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
  const identity = (b: Buffer): Buffer => b;
  const call = (i: number): Promise<Buffer> =>
    new Promise<Buffer>((res, rej) => {
      client.makeUnaryRequest(SEARCH_PATH, identity, identity, requests[i % requests.length]!, (err: grpc.ServiceError | null, value?: Buffer) =>
        err !== null || value === undefined ? rej(err ?? new Error('empty answer')) : res(value),
      );
    });

  // one checked answer first: the load means nothing if the server answers something else
  checkSearchAnswer(await call(0), c.limit);

  const loop = async (seconds: number, lat: number[] | null): Promise<{ ok: number; failed: number; firstError: string | null }> => {
    const end = performance.now() + seconds * 1000;
    let ok = 0;
    let failed = 0;
    let firstError: string | null = null;
    await Promise.all(
      Array.from({ length: c.concurrency }, async (_, w) => {
        for (let i = w * 7; performance.now() < end; i++) {
          const t = performance.now();
          try {
            await call(i);
            ok++;
            lat?.push(performance.now() - t);
          } catch (e) {
            failed++;
            firstError ??= e instanceof Error ? e.message : String(e);
          }
        }
      }),
    );
    return { ok, failed, firstError };
  };
  if (c.warmupSeconds > 0) await loop(c.warmupSeconds, null);
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  announceMeasuring();
  const r = await loop(c.seconds, lat);
  const durationS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  client.close();
  const result: LoadResult = {
    generator: 'grpc-js',
    ok: r.ok,
    failed: r.failed,
    durationS,
    qps: r.ok / durationS,
    latencyMs: summarize(lat),
    targetRate: null,
    clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, r.ok),
    firstError: r.firstError,
    statusCodes: {},
  };
  reportResult(result);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`gRPC load child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
