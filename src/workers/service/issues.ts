// This worker's issues (Qdrant's GET /issues): a filtered read slower than the slow-query
// threshold (config slow_query_secs, Qdrant's 1.2 s default) raises one issue per key it filters
// on without a field index that answers the condition, as Qdrant's unindexed-field issue, with the
// index to create as its solution. Raised once (a repeat keeps the first timestamp); the main
// thread merges the workers' issues and drops those an index or a deletion has since resolved
// (src/main/service/issues.ts); DELETE /issues clears them.

import type { Filter } from '../../shared/filter.js';
import type { IssueFix, IssueRecord } from '../../shared/shard-reports.js';
import type { CollectionMeta, PayloadSchemaType } from '../../shared/types.js';
import { unindexedKeys } from './strict-mode.js';

const issues = new Map<string, IssueRecord>();
let slowMs = 1200;

/** The threshold, from WorkerInit.slowQuerySecs (entry.ts). */
export function setSlowQuerySecs(secs: number): void {
  slowMs = secs * 1000;
}

/** The field index on `key` that would answer its filters. */
function fixFor(collection: string, key: string, schema: PayloadSchemaType): IssueFix {
  return {
    message: `Create an index on field '${key}' of schema ${JSON.stringify(schema)} in collection '${collection}'. Check the documentation for more details: https://qdrant.tech/documentation/concepts/indexing/#payload-index`,
    action: { method: 'PUT', uri: `/collections/${collection}/index`, headers: { 'content-type': 'application/json' }, body: { field_name: key, field_schema: schema } },
  };
}

/** A read of `meta` with `filters` took `ms`: issues for its unindexed keys when that is slow. */
export function noteRead(meta: CollectionMeta, filters: readonly (Filter | null)[], ms: number): void {
  if (ms < slowMs) return;
  for (const f of filters) {
    if (f === null) continue;
    for (const { key, types } of unindexedKeys(meta, f)) {
      const id = `UNINDEXED_FIELD/${meta.name}/${key}`;
      if (issues.has(id)) continue;
      // As Qdrant: a UUID index is never suggested; one fix is `immediate`, several a choice.
      const fixes = types.filter((t) => t !== 'uuid').map((schema) => fixFor(meta.name, key, schema));
      issues.set(id, {
        id,
        description: `Unindexed field '${key}' might be slowing queries down in collection '${meta.name}'`,
        solution: fixes.length === 1 ? { immediate: fixes[0]! } : { immediate_choice: fixes },
        timestamp: new Date().toISOString(),
      });
    }
  }
}

/** Runs a read and notes how long it took (noteRead). */
export async function timedRead<T>(meta: CollectionMeta, filters: readonly (Filter | null)[], read: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await read();
  noteRead(meta, filters, performance.now() - t0);
  return out;
}

/** The issues raised here, emptied after when `clear`. */
export function takeIssues(clear: boolean): IssueRecord[] {
  const out = [...issues.values()];
  if (clear) issues.clear();
  return out;
}
