// GET and DELETE /issues (Qdrant's issues API): the workers' unindexed-field issues
// (src/workers/service/issues.ts), merged by id (the earliest timestamp kept), less those since
// resolved: an index now answers the key, or the collection is gone, as Qdrant clears them.

import type { IssueRecord } from '../../shared/shard-reports.js';
import type { Engine } from '../engine.js';

/** Whether an issue still stands: its collection exists and its key has no field index of a type it suggests. */
function stands(engine: Engine, issue: IssueRecord): boolean {
  const [, collection, ...key] = issue.id.split('/');
  if (collection === undefined || !engine.exists(collection)) return false;
  const have = engine.collection(collection).config.payload_schema[key.join('/')]?.type;
  const fixes = 'immediate' in issue.solution ? [issue.solution.immediate] : issue.solution.immediate_choice;
  return !fixes.some((f) => f.action.body['field_schema'] === have);
}

export async function doIssues(engine: Engine): Promise<{ issues: IssueRecord[] }> {
  const byId = new Map<string, IssueRecord>();
  for (const issue of await engine.workerIssues(false)) {
    const seen = byId.get(issue.id);
    if (seen === undefined || issue.timestamp < seen.timestamp) byId.set(issue.id, issue);
  }
  return { issues: [...byId.values()].filter((i) => stands(engine, i)).sort((a, b) => a.id.localeCompare(b.id)) };
}

export async function doClearIssues(engine: Engine): Promise<boolean> {
  await engine.workerIssues(true);
  return true;
}
