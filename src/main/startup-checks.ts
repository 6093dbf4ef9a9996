// What start-up checks before it opens anything, so that a start that cannot serve stops with one
// line naming the cause (a ConfigError: exit 2, as a bad setting) and leaves nothing behind: the
// data dir must be a directory this process can use, and each port it will listen on must be
// free. A port taken between the probe and the listen still stops start-up the same way
// (listenFailure), and a start that fails after it created the data dir, or its store in an
// empty one, takes what it created away again (FreshDataDir).

import { accessSync, constants, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ConfigError, type Config } from './config.js';

/** Why listening on host:port failed, in words, or null for an error that is not about the address. */
function addressProblem(err: unknown): string | null {
  // node:net names it in `code`; grpc-js only in its message.
  const said = `${(err as NodeJS.ErrnoException | null)?.code ?? ''} ${err instanceof Error ? err.message : ''}`;
  if (said.includes('EADDRINUSE')) return 'the address is in use (another process listens on it)';
  if (said.includes('EACCES')) return 'permission denied (a port below 1024 needs privileges)';
  if (said.includes('EADDRNOTAVAIL')) return 'no such address on this machine';
  return null;
}

/** A ConfigError for a failed listen on `what`, or null when the error is not about the address. */
export function listenFailure(err: unknown, what: string, host: string, port: number): ConfigError | null {
  const why = addressProblem(err);
  return why === null ? null : new ConfigError(`cannot listen on ${host}:${port} for ${what}: ${why}`);
}

function probe(host: string, port: number): Promise<unknown> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', resolve);
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Every port start-up will listen on is free (a port of 0 is any free one). */
export async function checkPorts(config: Config, clusterPort: number | null): Promise<void> {
  const ports: [string, number][] = [
    ['REST (SERVICE_REST_PORT)', config.rest_port],
    ['gRPC (SERVICE_GRPC_PORT)', config.grpc_port],
    ...(clusterPort === null ? [] : [['the cluster port (SERVICE_CLUSTER_PORT)', clusterPort] as [string, number]]),
  ];
  for (const [what, port] of ports) {
    if (port === 0) continue;
    const err = await probe(config.host, port);
    if (err !== null) throw listenFailure(err, what, config.host, port) ?? err;
  }
}

/**
 * The data dir as start-up found it: whether this start creates it, or fills an empty one, so a
 * failed start can take back what it created (nothing of an existing store is touched).
 */
export class FreshDataDir {
  readonly #dir: string;
  readonly #created: boolean;
  #wasEmpty: boolean;
  #locked = false;

  /** Checks `dir` is a directory this process can read and write, or can be made one; ConfigError if not. */
  constructor(dir: string) {
    this.#dir = dir;
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // Missing: its nearest existing parent must let this process make it.
      this.#created = true;
      this.#wasEmpty = true;
      let parent = dirname(dir);
      while (!exists(parent) && dirname(parent) !== parent) parent = dirname(parent);
      if (!statSync(parent).isDirectory()) throw new ConfigError(`data dir ${dir} cannot be created: ${parent} is not a directory (SERVICE_DATA_DIR)`);
      if (!usable(parent)) throw new ConfigError(`data dir ${dir} cannot be created: ${parent} is not writable by this process (SERVICE_DATA_DIR)`);
      return;
    }
    if (!isDir) throw new ConfigError(`data dir ${dir} is not a directory (SERVICE_DATA_DIR)`);
    if (!usable(dir)) throw new ConfigError(`data dir ${dir} is not readable and writable by this process (SERVICE_DATA_DIR)`);
    this.#created = false;
    this.#wasEmpty = readdirSync(dir).length === 0;
  }

  /** This process holds the dir's lock now: what it holds is judged again (no other server writes there). */
  locked(): void {
    this.#locked = true;
    if (!this.#created) this.#wasEmpty = readdirSync(this.#dir).length === 0;
  }

  /** After a failed start, the lock still held: removes the dir this start created, or empties the one that was empty. */
  takeBack(): void {
    if (!this.#locked) return;
    if (this.#created) rmSync(this.#dir, { recursive: true, force: true });
    else if (this.#wasEmpty) for (const entry of readdirSync(this.#dir)) rmSync(join(this.#dir, entry), { recursive: true, force: true });
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function usable(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
