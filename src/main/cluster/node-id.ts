// This node's id in the cluster: a u64 (Qdrant's `peer_id`) created on the first start in cluster
// mode and kept in the data dir, so a restarted node is the same peer and resumes its replicas.
// Invariants: never 0; below 2^53, so JSON clients in JavaScript read it exactly; written whole
// (temp file, fsync, rename) so a crash mid-write leaves either no id or the complete one.

import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

export const NODE_ID_FILE = 'node-id';

export function readOrCreateNodeId(dataDir: string): number {
  const path = join(dataDir, NODE_ID_FILE);
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== null) {
    const id = Number(text);
    if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(id) || id === 0) {
      throw new ConfigError(`the node id in ${path} is not a positive integer below 2^53: ${JSON.stringify(text.slice(0, 40))}`);
    }
    return id;
  }
  // 53 random bits, never 0.
  const id = Number(randomBytes(8).readBigUInt64BE() >> 11n) || 1;
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${id}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dataDir, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return id;
}
