// Facet counts (`POST /collections/{name}/facet`, gRPC Facet): the distinct values of an indexed
// payload key among the points a filter matches, each with how many points hold it, most
// frequent first (ties by value), as Qdrant answers. The key needs a keyword, uuid, integer or
// bool index, as in Qdrant. Counts are always exact here: every shard counts all its matching
// points and the main thread adds them up, so `exact` changes nothing.

import { QuiverError } from '../../shared/errors.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FacetRequest } from '../../shared/schemas/points.js';
import type { Engine } from '../engine.js';
import { refuseUnsupported } from './convert.js';
import { parseFilter } from './filter-parse.js';

const FACET_INDEX_TYPES = ['keyword', 'integer', 'uuid', 'bool'];
const DEFAULT_LIMIT = 10;

export interface FacetHit {
  value: FacetValue;
  count: number;
}

function compareValues(a: FacetValue, b: FacetValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

export async function doFacet(engine: Engine, name: string, req: FacetRequest): Promise<{ hits: FacetHit[] }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const type = meta.config.payload_schema[req.key]?.type;
  if (type === undefined || !FACET_INDEX_TYPES.includes(type)) {
    throw QuiverError.badInput(
      `Index required but not found for "${req.key}" of one of the following types: [${FACET_INDEX_TYPES.join(', ')}]. Help: create a payload index for this key`,
    );
  }
  const filter = parseFilter(req.filter);
  const parts = await engine.router.fanOut<'facet'>(meta, { op: 'facet', key: req.key, filter });
  const totals = new Map<FacetValue, number>();
  for (const { values, counts } of parts) values.forEach((v, i) => totals.set(v, (totals.get(v) ?? 0) + counts[i]!));
  const hits = [...totals].map(([value, count]) => ({ value, count }));
  hits.sort((a, b) => b.count - a.count || compareValues(a.value, b.value));
  return { hits: hits.slice(0, req.limit ?? DEFAULT_LIMIT) };
}
