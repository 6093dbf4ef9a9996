// The embedding phase's table (bench/run/embedding.ts) and issue 27's targets beside their
// figures: RssAnon growth as a share of the raw float32 vectors, less the payloads' share
// measured in the same run (float32 with payloads in memory or on disk, against none).

import { fmt, mib, table } from './report-format.js';
import type { EmbeddingFigures, EmbeddingResult } from '../run/embedding.js';

export function embeddingReport(e: EmbeddingFigures): string[] {
  const out: string[] = [];
  const efs = Object.keys(e.results[0]?.recall ?? {}).map(Number);
  out.push(`embedding scale (issue 27): ${fmt(e.n)} x ${e.dim} Cosine, clustered, SERVICE_SHARDS=${e.workers}, one shard, a fresh server each; raw float32 ${mib(e.rawBytes)}, payloads' JSON ${mib(e.payloadJsonBytes)}`);
  out.push(
    ...table(
      ['configuration', 'RssAnon growth', 'x raw float32', 'RssFile growth', 'ingest pts/s', 'oversampling', ...efs.flatMap((ef) => [`recall@10 ef ${ef}`, `QPS ef ${ef}`]), 'kill -9: ready | all indexed ms'],
      e.results.map((r) => [
        r.label,
        mib(r.anonGrowth),
        fmt(r.anonGrowth / e.rawBytes, 2),
        mib(r.fileGrowth),
        fmt(r.ingestRate),
        r.oversampling === null ? '-' : String(r.oversampling),
        ...efs.flatMap((ef) => [fmt(r.recall[ef]!, 3), fmt(r.qps[ef]!)]),
        r.readyAfterKillMs === undefined ? '-' : `${fmt(r.readyAfterKillMs)} | ${fmt(r.indexedAfterKillMs ?? NaN)}`,
      ]),
    ),
  );
  const binary = e.results.find((r) => r.quantized === 'binary');
  if (binary?.sweep !== undefined) out.push(`binary, recall@10 at ef 128 by oversampling: ${binary.sweep.map((s) => `${s.oversampling}: ${fmt(s.recall, 3)}`).join(', ')}`);
  const by = (p: (r: EmbeddingResult) => boolean): EmbeddingResult | undefined => e.results.find(p);
  const none = by((r) => r.quantized === null && r.payloads === 'none');
  const float = by((r) => r.quantized === null && r.payloads === 'memory');
  const floatDisk = by((r) => r.quantized === null && r.payloads === 'disk');
  const int8 = by((r) => r.quantized === 'scalar');
  if (none === undefined || float === undefined || floatDisk === undefined || int8 === undefined || binary === undefined) return out;
  // The payloads' RssAnon share on disk: float32 with payloads on disk less float32 without (0 at
  // least: two fresh servers differ by tens of MiB either way, and a negative share would only
  // tighten the quantized targets below).
  const diskShare = Math.max(0, floatDisk.anonGrowth - none.anonGrowth);
  const share = (r: EmbeddingResult): number => (r.anonGrowth - diskShare) / e.rawBytes;
  const ef = 128;
  const rows: [string, string, boolean][] = [
    ['payloads on disk: RssAnon share <= 0.25x their JSON', `${mib(floatDisk.anonGrowth - none.anonGrowth)} = ${fmt((floatDisk.anonGrowth - none.anonGrowth) / e.payloadJsonBytes, 2)}x (in memory: ${mib(float.anonGrowth - none.anonGrowth)})`, diskShare <= 0.25 * e.payloadJsonBytes],
    ['int8, on disk: RssAnon growth less the payloads\' share <= 0.45x raw float32', fmt(share(int8), 2), share(int8) <= 0.45],
    [`int8: recall@10 at ef ${ef} >= 0.95 and within 0.01 of float32`, `${fmt(int8.recall[ef] ?? NaN, 3)} (float32 ${fmt(float.recall[ef] ?? NaN, 3)})`, (int8.recall[ef] ?? 0) >= 0.95 && (int8.recall[ef] ?? 0) >= (float.recall[ef] ?? 1) - 0.01],
    [`int8: QPS at ef ${ef} >= float32's`, `${fmt(int8.qps[ef] ?? NaN)} (float32 ${fmt(float.qps[ef] ?? NaN)})`, (int8.qps[ef] ?? 0) >= (float.qps[ef] ?? Infinity)],
    ['binary, on disk: RssAnon growth less the payloads\' share <= 0.2x raw float32', fmt(share(binary), 2), share(binary) <= 0.2],
    ['int8 and binary: ready after kill -9 no slower than float32 (payloads in memory)', `${fmt(int8.readyAfterKillMs ?? NaN)} and ${fmt(binary.readyAfterKillMs ?? NaN)} ms (float32 ${fmt(float.readyAfterKillMs ?? NaN)} ms)`, Math.max(int8.readyAfterKillMs ?? Infinity, binary.readyAfterKillMs ?? Infinity) <= (float.readyAfterKillMs ?? 0)],
    ['binary: recall@10 >= 0.90 at some oversampling (ef 128)', binary.sweep?.map((s) => `${s.oversampling}: ${fmt(s.recall, 3)}`).join(', ') ?? '-', (binary.sweep ?? []).some((s) => s.recall >= 0.9)],
  ];
  out.push('', 'targets (issue 27; ratios within this run)', ...table(['target', 'figure', 'met'], rows.map(([t, f, met]) => [t, f, met ? 'met' : 'NOT MET'])));
  return out;
}
