// Facet counts (`POST /collections/{name}/facet`, gRPC Facet): the distinct values of an indexed
// payload key among the points a filter matches, each with how many points hold it, most
// frequent first (ties by value), as Qdrant answers. The key needs a keyword, uuid, integer or
// bool index, as in Qdrant. Every shard counts all its matching points. With `exact: true` the
// shards send every value and the totals are exact; by default (`exact: false`, as Qdrant) each
// sends only its FACET_TOP_FACTOR x limit most frequent values, so a key with many distinct values
// costs little, and a value rare in one shard may be under-counted, as Qdrant's approximate mode.

import { QuiverError } from '../../shared/errors.js';
import { type FacetValue } from '../../shared/protocol.js';
import { compareFacetValues } from '../../shared/shard-results.js';
import type { FacetRequest } from '../../shared/schemas/points.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { StrictMode } from './strict-mode.js';
import { refuseUnsupported } from './request-forms.js';
import { parseFilter } from './filter-parse.js';

const FACET_INDEX_TYPES = ['keyword', 'integer', 'uuid', 'bool'];
const DEFAULT_LIMIT = 10;
const FACET_TOP_FACTOR = 10;

export interface FacetHit {
  value: FacetValue;
  count: number;
}

export async function doFacet(engine: PointEngine, name: string, req: FacetRequest): Promise<{ hits: FacetHit[] }> {
  const meta = engine.collection(name);
  refuseUnsupported(req, ['shard_key']);
  const schema = meta.config.payload_schema[req.key];
  const type = schema?.type;
  // An integer index made with `lookup: false` maps no values to points: no facets, as in Qdrant.
  if (type === undefined || !FACET_INDEX_TYPES.includes(type) || (type === 'integer' && schema?.params?.['lookup'] === false)) {
    throw QuiverError.badInput(
      `Index required but not found for "${req.key}" of one of the following types: [${FACET_INDEX_TYPES.join(', ')}]. Help: create a payload index for this key`,
    );
  }
  const filter = parseFilter(req.filter);
  const limit = req.limit ?? DEFAULT_LIMIT;
  // An omitted limit is not held to strict mode, as in Qdrant.
  const strict = StrictMode.of(meta);
  strict?.limit(req.limit);
  strict?.filter(filter, 'retrieve');
  strict?.exact(req.exact === true);
  strict?.readTokens(StrictMode.readCost(filter));
  const top = req.exact === true ? null : Math.max(limit * FACET_TOP_FACTOR, 100);
  const parts = await engine.fanOut(meta, { op: 'facet', key: req.key, filter, top });
  const totals = new Map<FacetValue, number>();
  for (const { values, counts } of parts) values.forEach((v, i) => totals.set(v, (totals.get(v) ?? 0) + counts[i]!));
  const hits = [...totals].map(([value, count]) => ({ value, count }));
  hits.sort((a, b) => b.count - a.count || compareFacetValues(a.value, b.value));
  return { hits: hits.slice(0, limit) };
}
