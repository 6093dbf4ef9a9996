// The start-up checks alone: a listen failure named for what it is (node:net's code, or grpc-js's
// message), and a failed start taking back only what it created, only while it holds the lock.

import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/main/config.js';
import { FreshDataDir, listenFailure } from '../../src/main/startup-checks.js';
import { removeDir, tempDataDir } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('start-up checks', () => {
  it('name a listen failure by its code or, for grpc-js, its message; leave other errors alone', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:9'), { code: 'EADDRINUSE' });
    const rest = listenFailure(inUse, 'REST (SERVICE_REST_PORT)', '127.0.0.1', 9);
    expect(rest).toBeInstanceOf(ConfigError);
    expect(rest?.message).toBe('cannot listen on 127.0.0.1:9 for REST (SERVICE_REST_PORT): the address is in use (another process listens on it)');
    const grpc = new Error('No address added out of total 1 resolved errors: [listen EACCES: permission denied 0.0.0.0:80]');
    expect(listenFailure(grpc, 'gRPC (SERVICE_GRPC_PORT)', '0.0.0.0', 80)?.message).toBe('cannot listen on 0.0.0.0:80 for gRPC (SERVICE_GRPC_PORT): permission denied (a port below 1024 needs privileges)');
    expect(listenFailure(new Error('something else'), 'REST', 'h', 1)).toBeNull();
  });

  it('take back a dir the start created, or empty the one it found empty; never a store, never without the lock', () => {
    const parent = tempDataDir();
    dirs.push(parent);
    const created = join(parent, 'created');
    const a = new FreshDataDir(created);
    mkdirSync(created);
    writeFileSync(join(created, 'quiver.mdb'), 'x');
    a.takeBack();
    // Not locked: nothing is taken (another server may be writing there).
    expect(existsSync(created)).toBe(true);
    a.locked();
    a.takeBack();
    expect(existsSync(created)).toBe(false);

    const empty = join(parent, 'empty');
    mkdirSync(empty);
    const b = new FreshDataDir(empty);
    b.locked();
    writeFileSync(join(empty, 'quiver.mdb'), 'x');
    b.takeBack();
    expect(readdirSync(empty)).toEqual([]);

    const store = join(parent, 'store');
    mkdirSync(store);
    writeFileSync(join(store, 'quiver.mdb'), 'data');
    const c = new FreshDataDir(store);
    c.locked();
    c.takeBack();
    expect(readdirSync(store)).toEqual(['quiver.mdb']);
  });
});
