// One server per data dir. Two servers on one LMDB environment would each believe they own every
// shard and overwrite each other's writes, so start-up takes an exclusive lock first.
//
// The lock is a listening Unix socket, not a pid file: binding a socket name is exclusive in the
// kernel and the kernel releases it when the process ends, `kill -9` included, so a stale lock
// cannot exist and pid reuse cannot fool it. A second server that finds the name taken connects
// to it and reads the holder's pid, to name it in its message.
//
// On Linux the socket lives in the abstract namespace (no file), named by a digest of the data
// dir's real path, so symlinked spellings of one dir meet. Elsewhere it is `quiver.lock.sock`
// inside the data dir; a socket file left by a dead process refuses connections and is replaced.
// Limit: abstract names are per network namespace, so containers sharing one data dir over a
// volume must share the host's network namespace too (or run on macOS-style file sockets).

import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from './config.js';

export interface DataDirLock {
  release(): Promise<void>;
}

/** The socket name that guards `dataDir` (which must exist). */
export function lockAddress(dataDir: string): string {
  const real = realpathSync(dataDir);
  if (process.platform === 'linux') {
    return `\0quiver-data-dir-${createHash('sha256').update(real).digest('hex').slice(0, 40)}`;
  }
  return join(real, 'quiver.lock.sock');
}

/** The pid of the process holding `dataDir`'s lock, or null when nobody holds it. */
export function lockHolder(dataDir: string): Promise<number | null> {
  return askHolder(lockAddress(dataDir));
}

function askHolder(address: string): Promise<number | null> {
  return new Promise((resolve) => {
    const sock = connect(address);
    let connected = false;
    let text = '';
    sock.setEncoding('utf8');
    sock.setTimeout(2000, () => sock.destroy());
    sock.on('connect', () => (connected = true));
    sock.on('data', (chunk: string) => (text += chunk));
    // Refused or missing: nobody holds the name.
    sock.on('error', () => undefined);
    sock.on('close', () => {
      const pid = Number.parseInt(text, 10);
      // Someone listens even if it said nothing readable: the dir is taken; -1 stands for "pid unknown".
      resolve(!connected ? null : Number.isInteger(pid) ? pid : -1);
    });
  });
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Takes the lock of `dataDir` (created if missing) or throws a ConfigError naming the dir and
 * the pid of the server that holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  const server = createServer((sock) => sock.end(String(process.pid)));
  // The lock must not keep a stopping process alive.
  server.unref();
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 0) throw e;
      const pid = await askHolder(address);
      if (pid !== null) {
        throw new ConfigError(
          `data dir ${realpathSync(dataDir)} is in use by another Quiver server (pid ${pid === -1 ? 'unknown' : pid}); stop it or choose another SERVICE_DATA_DIR`,
        );
      }
      // A socket file left by a process that died (non-Linux only): nobody answers on it.
      rmSync(address, { force: true });
    }
  }
  return {
    release: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
