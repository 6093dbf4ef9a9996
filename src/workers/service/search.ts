// Legacy similarity search (`points/search`, `points/search/batch`, gRPC Search): each request
// planned by nearest.ts and run together, one round trip per shard for the whole batch.

import type { SearchRequest } from '../../shared/schemas/search.js';
import { DEFAULT_VECTOR, type CollectionMeta, type ScoredPoint } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { parseFilter } from './filter-parse.js';
import { checkResultWindow } from './limits.js';
import { planNearest, runPlannedSearches, type NearestRequest, type PlannedSearch } from './nearest.js';
import { refuseUnsupported, withVectorOf } from './request-forms.js';
import { StrictMode } from './strict-mode.js';
import { timedRead } from './issues.js';

/** A search request's options in the planner's terms. */
function searchOptions(
  r: Pick<SearchRequest, 'offset' | 'filter' | 'params' | 'score_threshold' | 'with_payload' | 'with_vector' | 'with_vectors'>,
): Pick<NearestRequest, 'offset' | 'filter' | 'params' | 'scoreThreshold' | 'withPayload' | 'withVector'> {
  return {
    offset: r.offset ?? 0,
    filter: parseFilter(r.filter),
    params: r.params,
    scoreThreshold: r.score_threshold,
    withPayload: r.with_payload,
    withVector: withVectorOf(r),
  };
}

function fromSearch(meta: CollectionMeta, r: SearchRequest): PlannedSearch {
  refuseUnsupported(r, ['shard_key']);
  const named = Array.isArray(r.vector) ? { name: DEFAULT_VECTOR, vector: r.vector } : r.vector;
  const opts = searchOptions(r);
  checkResultWindow(r.limit, opts.offset);
  const strict = StrictMode.of(meta);
  strict?.limit(r.limit);
  strict?.params(r.params);
  strict?.filter(opts.filter, 'retrieve');
  strict?.readTokens(StrictMode.readCost(opts.filter));
  return planNearest(meta, {
    ...opts,
    vectorName: named.name,
    vector: named.vector,
    limit: r.limit,
    exclude: [],
  });
}

export async function doSearchBatch(engine: PointEngine, name: string, reqs: SearchRequest[]): Promise<ScoredPoint[][]> {
  const meta = engine.collection(name);
  StrictMode.of(meta)?.searchBatch(reqs.length);
  const plans = reqs.map((r) => fromSearch(meta, r));
  return timedRead(meta, plans.map((p) => p.spec.filter), () => runPlannedSearches(engine, meta, plans));
}

export async function doSearch(engine: PointEngine, name: string, req: SearchRequest): Promise<ScoredPoint[]> {
  const [res] = await doSearchBatch(engine, name, [req]);
  return res ?? [];
}
