// `GET /collections/{name}/optimizations` (Qdrant 1.19's getOptimizations), from what Quiver does
// in the background: a shard stands for a segment, and its background graph work for an
// optimization. A shard rebuilding its graphs after a PATCH (m, ef_construct, quantization,
// indexing turned on) runs Qdrant's `config_mismatch`; one adding rows replayed at start to a
// restored graph runs `indexing`. Nothing is ever queued (a shard starts its work at once), and no
// history is kept, so `completed` is always empty. Each shard has a fixed UUID made from the
// collection's and the shard's numbers.

import { QuiverError } from '../../shared/errors.js';
import type { ShardInfo } from '../../shared/shard-reports.js';
import type { Engine } from '../engine.js';

const WITH = ['queued', 'completed', 'idle_segments'] as const;
type With = (typeof WITH)[number];

interface SegmentInfo {
  uuid: string;
  points_count: number;
}

export interface OptimizationsOut {
  summary: { queued_optimizations: number; queued_segments: number; queued_points: number; idle_segments: number };
  running: { uuid: string; optimizer: string; status: 'optimizing'; segments: SegmentInfo[]; progress: { name: string } }[];
  queued?: never[];
  completed?: never[];
  idle_segments?: SegmentInfo[];
}

/** A shard's segment UUID: fixed for the collection and shard (version 8, custom). */
export function segmentUuid(collection: number, shard: number): string {
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
  return `00000000-${hex((collection >>> 12) & 0xffff, 4)}-8${hex(collection & 0xfff, 3)}-8000-${hex(shard, 12)}`;
}

/** The `with` query parameter: a comma-separated list of the optional parts. */
function parseWith(raw: string | undefined): Set<With> {
  const out = new Set<With>();
  for (const part of (raw ?? '').split(',')) {
    const p = part.trim();
    if (p === '') continue;
    if (!(WITH as readonly string[]).includes(p)) throw QuiverError.badInput(`Deserialize error in query parameters: with: unknown variant \`${p}\`, expected one of ${WITH.map((w) => `\`${w}\``).join(', ')}`);
    out.add(p as With);
  }
  return out;
}

function optimizerOf(s: ShardInfo): string | null {
  if (s.rebuilding) return 'config_mismatch';
  if (s.catchingUp) return 'indexing';
  return null;
}

export async function doOptimizations(engine: Engine, name: string, query: { with?: string; completed_limit?: number }): Promise<OptimizationsOut> {
  const meta = engine.collection(name);
  const parts = parseWith(query.with);
  const shards = (await engine.fanOut(meta, { op: 'shardInfo' })).filter((s) => !s.secondary);
  const segment = (s: ShardInfo): SegmentInfo => ({ uuid: segmentUuid(meta.id, s.shard), points_count: s.points });
  const running: OptimizationsOut['running'] = [];
  const idle: SegmentInfo[] = [];
  for (const s of shards) {
    const optimizer = optimizerOf(s);
    if (optimizer === null) idle.push(segment(s));
    else running.push({ uuid: segment(s).uuid, optimizer, status: 'optimizing', segments: [segment(s)], progress: { name: optimizer } });
  }
  const out: OptimizationsOut = { summary: { queued_optimizations: 0, queued_segments: 0, queued_points: 0, idle_segments: idle.length }, running };
  if (parts.has('queued')) out.queued = [];
  if (parts.has('completed')) out.completed = [];
  if (parts.has('idle_segments')) out.idle_segments = idle;
  return out;
}
