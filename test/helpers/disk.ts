// What a stopped server's data dir holds, read straight from its LMDB (the server must be stopped:
// one server per data dir).

import { openDb } from '../../src/shared/db.js';

/** The version of every point of one shard: in cluster mode, the log sequence that last wrote it. */
export function shardVersions(dataDir: string, collectionId: number, shard: number): number[] {
  const db = openDb(dataDir);
  try {
    const versions: number[] = [];
    for (const { value } of db.points.getRange({ start: [collectionId, shard], end: [collectionId, shard + 1] })) versions.push(value.v);
    return versions;
  } finally {
    void db.root.close();
  }
}
