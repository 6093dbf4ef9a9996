// The gRPC bench's pure helpers whose mistakes would silently skew the gRPC figures: the gRPC
// frame h2load sends, h2load's summary text, the shell's `times` line, the split of the calls in
// flight over processes, and the /metrics counters that confirm h2load's successes were gRPC OK.

import { describe, expect, it } from 'vitest';
import { counterBy, parseH2load, parseTimes, splitClients } from '../../bench/lib/h2load.js';
import { checkSearchAnswer, encodeSearches, grpcFrame, unframe } from '../../bench/lib/grpc-search.js';

// captured from h2load 1.52 (nghttp2-client, Debian 12) against Quiver's gRPC port
const CAPTURED = `starting benchmark...
spawning thread #0: 8 total client(s). Timing-based test with 0s of warm-up time and 2s of main duration for measurements.
Warm-up started for thread #0.
progress: 100% of clients started
Warm-up phase is over for thread #0.
Main benchmark duration is started for thread #0.
Application protocol: h2c
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 2.02s, 696.50 req/s, 50.94KB/s
requests: 1393 total, 1401 started, 1393 done, 1393 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 1393 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 101.88KB (104322) total, 7.68KB (7869) headers (space savings 95.94%), 54.41KB (55720) data
                     min         max         mean         sd        +/- sd
time for request:     1.13ms    230.10ms     11.33ms     24.77ms    94.83%
time for connect:       59us       132us       101us        24us    62.50%
time to 1st byte:   105.05ms    106.03ms    105.69ms       308us    75.00%
req/s           :      84.69       89.18       86.75        1.32    75.00%
0m0.000000s 0m0.000000s
0m0.020000s 0m0.030000s
`;

describe('grpcFrame / unframe', () => {
  it('prefixes flag 0 and the big-endian length, and unframe gives the message back', () => {
    const msg = Buffer.alloc(300, 7);
    const f = grpcFrame(msg);
    expect(f.length).toBe(305);
    expect([...f.subarray(0, 5)]).toEqual([0, 0, 0, 1, 44]);
    expect(unframe(f).equals(msg)).toBe(true);
  });

  it('frames an empty message as five bytes', () => {
    expect([...grpcFrame(new Uint8Array(0))]).toEqual([0, 0, 0, 0, 0]);
  });

  it('rejects compressed, short and mis-sized frames', () => {
    const f = grpcFrame(Buffer.from([1, 2, 3]));
    expect(() => unframe(f.subarray(0, 4))).toThrow('has no frame');
    expect(() => unframe(Buffer.concat([f, Buffer.from([9])]))).toThrow('frame says 3 bytes, body has 4');
    const compressed = Buffer.from(f);
    compressed[0] = 1;
    expect(() => unframe(compressed)).toThrow('compressed');
  });
});

describe('encodeSearches / checkSearchAnswer', () => {
  it('encodes one SearchPoints per vector, carrying the collection name', () => {
    const m = encodeSearches('bench', [[0.5, 1], [1, 0.5]], 10, 64);
    expect(m).toHaveLength(2);
    expect(m[0]!.equals(m[1]!)).toBe(false);
    expect(m[0]!.includes(Buffer.from('bench'))).toBe(true);
  });

  it('rejects an answer without the asked number of points', () => {
    // an empty SearchResponse message: no result
    expect(() => checkSearchAnswer(Buffer.alloc(0), 10)).toThrow('expected 10 points');
  });
});

describe('parseH2load', () => {
  it('reads a captured summary', () => {
    const f = parseH2load(CAPTURED);
    expect(f).toEqual({
      durationS: 2.02,
      total: 1393,
      started: 1401,
      succeeded: 1393,
      failed: 0,
      errored: 0,
      timeout: 0,
      non2xx: 0,
      latencyMs: { min: 1.13, max: 230.1, mean: 11.33 },
    });
  });

  it('counts non-2xx statuses and microsecond and millisecond durations', () => {
    const t = CAPTURED.replace('finished in 2.02s', 'finished in 140.13ms')
      .replace('0 failed, 0 errored', '5 failed, 2 errored')
      .replace('1393 2xx, 0 3xx, 0 4xx, 0 5xx', '1386 2xx, 0 3xx, 3 4xx, 2 5xx')
      .replace('1.13ms    230.10ms', '862us    230.10ms');
    const f = parseH2load(t);
    expect(f.durationS).toBeCloseTo(0.14013, 6);
    expect(f.failed).toBe(5);
    expect(f.errored).toBe(2);
    expect(f.non2xx).toBe(5);
    expect(f.latencyMs.min).toBeCloseTo(0.862, 6);
  });

  it('throws when h2load printed no summary (it could not connect, say)', () => {
    expect(() => parseH2load('starting benchmark...\nNo protocol negotiated. Aborted.\n')).toThrow('no summary');
  });
});

describe('parseTimes', () => {
  it("sums the children's user and system time of the last line", () => {
    expect(parseTimes(CAPTURED)).toBeCloseTo(0.05, 9);
    expect(parseTimes('0m0.00s 0m0.00s\n1m2.50s 0m0.25s\n')).toBeCloseTo(62.75, 9);
  });

  it('is NaN when there is no times line', () => {
    expect(parseTimes('finished in 2.02s')).toBeNaN();
  });
});

describe('splitClients', () => {
  it('keeps the calls in flight: connections x streams', () => {
    expect(splitClients(64, 8, 1)).toEqual([8, 8, 8, 8, 8, 8, 8, 8]);
    expect(splitClients(64, 8, 8)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(splitClients(64, 3, 1)).toEqual([22, 21, 21]);
  });

  it('uses fewer processes than connections never, and at least one connection', () => {
    expect(splitClients(4, 8, 1)).toEqual([1, 1, 1, 1]);
    expect(splitClients(64, 8, 32)).toEqual([1, 1]);
    expect(splitClients(1, 8, 4)).toEqual([1]);
  });
});

describe('counterBy', () => {
  const METRICS = `# HELP quiver_grpc_responses_total gRPC calls by final status code
# TYPE quiver_grpc_responses_total counter
quiver_grpc_responses_total{method="/qdrant.Points/Search",code="NOT_FOUND"} 12
quiver_grpc_responses_total{method="/qdrant.Points/Search",code="OK"} 1401
quiver_grpc_responses_total{code="OK",method="/qdrant.Points/Upsert"} 3
quiver_grpc_responses_total_other{method="/qdrant.Points/Search",code="OK"} 99
`;
  it("sums a counter by a label among the matching samples, whatever the labels' order", () => {
    const m = counterBy(METRICS, 'quiver_grpc_responses_total', 'code', { method: '/qdrant.Points/Search' });
    expect([...m]).toEqual([
      ['NOT_FOUND', 12],
      ['OK', 1401],
    ]);
    expect(counterBy(METRICS, 'quiver_grpc_responses_total', 'code', { method: '/qdrant.Points/Upsert' }).get('OK')).toBe(3);
  });
});
