// Which hnswlib-node build a real server's workers loaded, as an operator sees it: the 'engine
// ready' log line, quiver_hnsw_build_info on /metrics and GET /telemetry; SERVICE_HNSW_BUILD
// forcing either build; the fallback (with its reason) when the native build is missing or was
// made for a CPU with flags this one lacks (a tree copied between machines); and
// start-up refusing a forced native build it cannot use, or an unknown setting.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample, scrape } from '../helpers/metrics.js';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { loadHnswlib } from '../../src/workers/index/hnswlib-loader.js';

// What auto mode chooses on this machine: native where the install could build it, else portable.
const expected = loadHnswlib({ mode: 'auto' }).build;
const emptyNativeDir = mkdtempSync(join(tmpdir(), 'quiver-no-native-'));

/**
 * A native build as a tree copied from a newer machine leaves it: its record requires a flag this
 * CPU lacks. (The addon inside is the npm one: the loader must never get as far as loading it.)
 */
function foreignNativeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-foreign-native-'));
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  const require = createRequire(import.meta.url);
  copyFileSync(require.resolve('hnswlib-node/build/Release/addon.node'), join(dir, 'build', 'Release', 'addon.node'));
  const version = (JSON.parse(readFileSync(require.resolve('hnswlib-node/package.json'), 'utf8')) as { version: string }).version;
  const info = { hnswlibVersion: version, tier: 'future', cflags: ['-march=future'], requiredCpuFlags: ['sse2', 'quiver_no_such_cpu_flag'] };
  writeFileSync(join(dir, 'build-info.json'), JSON.stringify(info));
  return dir;
}
const foreignDir = foreignNativeDir();

let auto: TestServer;
let portable: TestServer;
let missing: TestServer;
let foreign: TestServer;
beforeAll(async () => {
  [auto, portable, missing, foreign] = await Promise.all([
    startServer({ shards: 1 }),
    startServer({ shards: 1, env: { SERVICE_HNSW_BUILD: 'portable' } }),
    startServer({ shards: 1, env: { QUIVER_NATIVE_DIR: emptyNativeDir } }),
    startServer({ shards: 1, env: { QUIVER_NATIVE_DIR: foreignDir } }),
  ]);
});
afterAll(async () => {
  for (const s of [auto, portable, missing, foreign]) {
    await s.stop();
    removeDir(s.dataDir);
  }
  for (const d of [emptyNativeDir, foreignDir]) rmSync(d, { recursive: true, force: true });
});

function readyLine(s: TestServer): Record<string, unknown> {
  const line = s.logs.find((l) => l.includes('"engine ready"'));
  expect(line).toBeDefined();
  return JSON.parse(line!) as Record<string, unknown>;
}

describe('the hnswlib build a server reports', () => {
  it("auto: the 'engine ready' line, /metrics and /telemetry name the build this machine gets", async () => {
    expect(readyLine(auto).hnsw_build).toBe(expected.description);
    expect(sample(await scrape(auto.url), 'quiver_hnsw_build_info', { build: expected.kind, flags: expected.flags })).toBe(1);
    const t = await call(auto.url, 'GET', '/telemetry');
    expect(t.status).toBe(200);
    expect(t.body.status).toBe('ok');
    expect(t.body.result.app).toMatchObject({
      name: 'quiver',
      version: '1.19.0',
      quiver_version: '0.1.0',
      hnsw_build: { kind: expected.kind, description: expected.description, flags: expected.flags, fallback_reason: expected.fallbackReason },
    });
    expect(typeof t.body.result.id).toBe('string');
    expect(Number.isNaN(Date.parse(t.body.result.app.startup))).toBe(false);
    expect(t.body.result.app.system.cores).toBeGreaterThanOrEqual(1);
    expect(t.body.result.collections).toEqual({ number_of_collections: 0 });
  });

  it('SERVICE_HNSW_BUILD=portable loads the npm build, with no fallback reason', async () => {
    expect(readyLine(portable).hnsw_build).toBe('portable (npm)');
    expect(readyLine(portable).hnsw_fallback_reason).toBeUndefined();
    const text = await scrape(portable.url);
    expect(sample(text, 'quiver_hnsw_build_info', { build: 'portable', flags: '' })).toBe(1);
    expect(sample(text, 'quiver_hnsw_build_info', { build: 'native', flags: expected.flags })).toBeUndefined();
    const t = await call(portable.url, 'GET', '/telemetry');
    expect(t.body.result.app.hnsw_build).toEqual({ kind: 'portable', description: 'portable (npm)', flags: '', fallback_reason: null });
  });

  it('auto without a native build falls back to the portable one and says why', async () => {
    const reason = `no native build at ${emptyNativeDir} (run npm run native:build)`;
    expect(readyLine(missing)).toMatchObject({ hnsw_build: 'portable (npm)', hnsw_fallback_reason: reason });
    const t = await call(missing.url, 'GET', '/telemetry');
    expect(t.body.result.app.hnsw_build).toEqual({ kind: 'portable', description: 'portable (npm)', flags: '', fallback_reason: reason });
  });

  it('auto with a native build for a CPU this one is not falls back, naming the missing flag', async () => {
    expect(readyLine(foreign)).toMatchObject({ hnsw_build: 'portable (npm)', hnsw_fallback_reason: 'this CPU lacks quiver_no_such_cpu_flag' });
    expect(sample(await scrape(foreign.url), 'quiver_hnsw_build_info', { build: 'portable', flags: '' })).toBe(1);
    expect((await call(foreign.url, 'GET', '/telemetry')).body.result.app.hnsw_build.fallback_reason).toBe('this CPU lacks quiver_no_such_cpu_flag');
  });

  it('both builds serve the same HNSW search results', async () => {
    const vectors = randomVectors(300, 16, 11);
    const query = randomVectors(5, 16, 12);
    const results: unknown[][] = [];
    for (const s of [auto, portable]) {
      await call(s.url, 'PUT', '/collections/b', { vectors: { size: 16, distance: 'Euclid' }, hnsw_config: { m: 16, ef_construct: 200 } });
      expect((await call(s.url, 'PUT', '/collections/b/points?wait=true', { points: vectors.map((vector, id) => ({ id, vector })) })).status).toBe(200);
      const out = [];
      for (const vector of query) {
        const r = await call(s.url, 'POST', '/collections/b/points/search', { vector, limit: 5, params: { hnsw_ef: 200 } });
        expect(r.status).toBe(200);
        out.push((r.body.result as { id: number }[]).map((p) => p.id));
      }
      results.push(out);
    }
    expect(results[0]).toEqual(results[1]);
    expect((await call(auto.url, 'GET', '/telemetry')).body.result.collections).toEqual({ number_of_collections: 1 });
  });
});

describe('start-up refuses a build setting it cannot honour', () => {
  const dataDir = tempDataDir();
  afterAll(() => removeDir(dataDir));

  it('SERVICE_HNSW_BUILD=native without a usable native build: exit 2 naming the setting and the reason', async () => {
    await expect(startServer({ dataDir, shards: 1, env: { SERVICE_HNSW_BUILD: 'native', QUIVER_NATIVE_DIR: emptyNativeDir } })).rejects.toThrow(
      `server exited with 2 before listening:\nquiver: SERVICE_HNSW_BUILD=native, but the native hnswlib build cannot be used: no native build at ${emptyNativeDir} (run npm run native:build)`,
    );
  });

  it('SERVICE_HNSW_BUILD=native with a build for another CPU: exit 2 naming the missing flag', async () => {
    await expect(startServer({ dataDir, shards: 1, env: { SERVICE_HNSW_BUILD: 'native', QUIVER_NATIVE_DIR: foreignDir } })).rejects.toThrow(
      'quiver: SERVICE_HNSW_BUILD=native, but the native hnswlib build cannot be used: this CPU lacks quiver_no_such_cpu_flag',
    );
  });

  it('an unknown SERVICE_HNSW_BUILD: exit 2 listing the allowed values', async () => {
    await expect(startServer({ dataDir, shards: 1, env: { SERVICE_HNSW_BUILD: 'fast' } })).rejects.toThrow(
      "server exited with 2 before listening:\nquiver: invalid configuration 'hnsw_build' (SERVICE_HNSW_BUILD): must be equal to one of the allowed values (auto, native, portable)",
    );
  });
});
