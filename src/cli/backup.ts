// `quiver backup DATA_DIR FILE` and `quiver restore FILE DATA_DIR`.
//
// A backup is one file: a compacted copy of the data dir's LMDB environment (quiver.mdb), made
// with LMDB's own copy (mdb_env_copy2 through lmdb-js `backup`) inside one read transaction, so
// it is a consistent snapshot of a running server's data (collections, points, API keys, admin,
// JWT secret) while the server goes on writing. Every write acknowledged before the backup began
// is in it. The HNSW graphs are not copied: a running server's saved graphs do not match its
// live data, so the restored server rebuilds them from the points at its first start.

import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { open } from 'lmdb';
import { lockHolder } from '../main/data-lock.js';
import { CliError } from './common.js';

const ENV_FILE = 'quiver.mdb';
const REQUIRED_DBS = ['catalog'];

export async function runBackup(dataDirArg: string, fileArg: string, log: (s: string) => void): Promise<void> {
  const source = join(resolve(dataDirArg), ENV_FILE);
  if (!existsSync(source)) throw new CliError(`${dataDirArg} is not a Quiver data dir (no ${ENV_FILE} in it)`);
  const file = resolve(fileArg);
  const tmp = `${file}.partial`;
  rmSync(tmp, { force: true });
  // Read-only: the copy takes a read transaction and never blocks the server's writers.
  const env = open({ path: source, readOnly: true, maxDbs: 16 });
  const t0 = performance.now();
  try {
    await env.backup(tmp, true);
  } finally {
    await env.close();
  }
  renameSync(tmp, file);
  log(`backed up ${dataDirArg} to ${fileArg} (${statSync(file).size} bytes, ${Math.round(performance.now() - t0)} ms); HNSW graphs are rebuilt at the first start after a restore`);
}

/** LMDB's meta page (page 0) holds MDB_MAGIC 0xBEEFC0DE after lmdb-js's 24-byte page header. */
function hasLmdbMagic(file: string): boolean {
  const head = Buffer.alloc(32);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, head, 0, head.length, 0) < head.length) return false;
  } finally {
    closeSync(fd);
  }
  return head.readUInt32LE(24) === 0xbeefc0de;
}

export async function runRestore(fileArg: string, dataDirArg: string, force: boolean, log: (s: string) => void): Promise<void> {
  const file = resolve(fileArg);
  if (!existsSync(file)) throw new CliError(`${fileArg}: no such file`);
  // The file must be an LMDB environment holding Quiver's databases before anything is replaced.
  // LMDB is handed only files with its meta-page magic: it may abort the process on others.
  if (!hasLmdbMagic(file)) throw new CliError(`${fileArg} is not a Quiver backup (not an LMDB file)`);
  try {
    const env = open({ path: file, readOnly: true, maxDbs: 16 });
    try {
      const names = new Set<unknown>(env.getKeys());
      const missing = REQUIRED_DBS.filter((n) => !names.has(n));
      if (missing.length > 0) throw new Error(`no ${missing.join(', ')} database`);
    } finally {
      await env.close();
    }
  } catch (e) {
    throw new CliError(`${fileArg} is not a Quiver backup (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    // Opening the copy leaves LMDB's lock file beside it; it is not part of the backup.
    rmSync(`${file}-lock`, { force: true });
  }
  const dataDir = resolve(dataDirArg);
  if (existsSync(dataDir)) {
    const pid = await lockHolder(dataDir);
    if (pid !== null) throw new CliError(`${dataDirArg} is in use by a running Quiver server (pid ${pid}); stop it first`);
    if (readdirSync(dataDir).length > 0) {
      if (!force) throw new CliError(`${dataDirArg} is not empty; pass --force to replace its contents`);
      // --force replaces a Quiver data dir, never an arbitrary folder (a mistyped path, a home dir).
      if (!existsSync(join(dataDir, ENV_FILE))) {
        throw new CliError(`${dataDirArg} is not empty and holds no ${ENV_FILE}: --force only replaces a Quiver data dir`);
      }
      // The old environment and its HNSW graphs go: graphs of other data must not be loaded.
      for (const entry of [ENV_FILE, `${ENV_FILE}-lock`, 'hnsw']) rmSync(join(dataDir, entry), { recursive: true, force: true });
    }
  }
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(file, join(dataDir, `${ENV_FILE}.partial`));
  renameSync(join(dataDir, `${ENV_FILE}.partial`), join(dataDir, ENV_FILE));
  log(`restored ${fileArg} into ${dataDirArg}; start the server on it (HNSW graphs are rebuilt at start)`);
}
