// How one shard searches a multivector name (multi-space.ts): exactly, as there is no graph to
// walk. The candidates are the ids asked for (a prefetch's rerank, the ColBERT recipe), else the
// payload indexes' answer to the filter, else every point; each one holding the vector and
// passing the filter is scored by MaxSim against the query, or by a custom score (recommend,
// discover, context, relevance feedback) whose similarity is MaxSim against each example.

import type { CustomScore, SearchSpec } from '../../shared/protocol.js';
import type { MultiSpace } from '../index/multi-space.js';
import { customScore } from './custom-search.js';
import { slotsOf, type Scored, type SearchContext } from './search-planner.js';
import { TopK } from './top-k.js';

export function searchMulti(space: MultiSpace, spec: SearchSpec, ctx: Pick<SearchContext, 'ids' | 'predicate' | 'indexCandidates'>): Scored[] {
  const pred = ctx.predicate;
  const excluded = new Set(slotsOf(ctx.ids, spec.exclude));
  const candidates: Iterable<number> = spec.only !== null ? slotsOf(ctx.ids, spec.only) : ((pred !== null ? ctx.indexCandidates() : null) ?? space.slots());
  const custom = spec.custom as CustomScore | undefined;
  const top = new TopK(spec.k, custom !== undefined || space.higherIsBetter);
  for (const slot of candidates) {
    if (!space.has(slot) || excluded.has(slot) || (pred !== null && !pred(slot))) continue;
    // A custom score takes MaxSim as it is (higher is better for every distance), as Qdrant's.
    top.push(slot, custom === undefined ? space.score(spec.query, slot) : customScore(custom, (example) => space.maxSim(example, slot)));
  }
  return top.drain();
}
