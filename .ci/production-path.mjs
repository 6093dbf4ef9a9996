// The production path, checked the way config/Dockerfile builds it, without Docker: the files its
// build stage copies, from this checkout, installed with `npm ci` (which builds dist/ and the
// native addons) and pruned to production dependencies; then only what its run stage copies,
// in a folder of their own, started with its command on a fresh data dir. It must serve a write
// and a search and report the native hnswlib build. The file lists are read from the Dockerfile
// itself, so the two cannot drift apart. Run by .ci/run; exits 1 with the reason on failure.

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dockerfile = readFileSync(join(root, 'config', 'Dockerfile'), 'utf8');

// COPY lines: the build stage's (sources from the context) and the run stage's (--from=build).
const build = [];
const run = [];
for (const line of dockerfile.split('\n')) {
  const m = /^COPY\s+(.*)$/.exec(line.trim());
  if (m === null) continue;
  const parts = m[1].split(/\s+/);
  if (parts[0].startsWith('--from=')) run.push(parts[1].replace(/^\/app\//, ''));
  else build.push(...parts.slice(0, -1));
}
if (build.length === 0 || run.length === 0) throw new Error('config/Dockerfile: no COPY lines found');

const work = mkdtempSync(join(tmpdir(), 'quiver-production-'));
const fail = (why) => {
  throw new Error(why);
};

// Build stage: the copied files, `npm ci` (prepare builds dist/, postinstall the native addons), prune.
const stage1 = join(work, 'build');
mkdirSync(stage1);
for (const f of build) cpSync(join(root, f), join(stage1, f), { recursive: true });
const npm = (args, cwd) => {
  try {
    execFileSync('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  } catch (e) {
    // What npm and the build printed, for the reason.
    console.error(`${e.stdout ?? ''}${e.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
    console.error(`production path: npm ${args.join(' ')} failed in the Dockerfile's build stage`);
    process.exit(1);
  }
};
npm(['ci'], stage1);
npm(['prune', '--omit=dev'], stage1);

// Run stage: only what it copies.
const stage2 = join(work, 'run');
mkdirSync(stage2);
for (const f of run) cpSync(join(stage1, f), join(stage2, f), { recursive: true });

const port = 20000 + Math.floor(Math.random() * 20000);
const server = spawn(process.execPath, ['dist/src/main/index.js'], {
  cwd: stage2,
  env: { PATH: process.env.PATH, NODE_ENV: 'production', SERVICE_HOST: '127.0.0.1', SERVICE_REST_PORT: String(port), SERVICE_GRPC_PORT: String(port + 1), SERVICE_DATA_DIR: join(work, 'data'), SERVICE_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
const call = async (method, path, body) => {
  const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: await res.json() };
};
try {
  let ready = false;
  for (let i = 0; i < 300 && !ready; i++) {
    await new Promise((r) => setTimeout(r, 200));
    ready = await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false);
  }
  if (!ready) fail('the server in the run stage was not ready within 60 s');
  const created = await call('PUT', '/collections/p', { vectors: { size: 3, distance: 'Cosine' } });
  if (created.status !== 200) fail(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const upsert = await call('PUT', '/collections/p/points?wait=true', { points: [{ id: 1, vector: [1, 0, 0] }, { id: 2, vector: [0, 1, 0] }] });
  if (upsert.status !== 200) fail(`upsert answered ${upsert.status}: ${JSON.stringify(upsert.body)}`);
  const found = await call('POST', '/collections/p/points/query', { query: [1, 0.1, 0], limit: 1 });
  if (found.body?.result?.points?.[0]?.id !== 1) fail(`query answered ${JSON.stringify(found.body)}`);
  const telemetry = await call('GET', '/telemetry');
  const kind = telemetry.body?.result?.app?.hnsw_build?.kind;
  if (kind !== 'native') fail(`the run stage loaded the ${kind} hnswlib build, not the native one: ${JSON.stringify(telemetry.body?.result?.app?.hnsw_build)}`);
  // The dashboard's script is the build's bundle, the map's PCA library inside it: the run stage
  // has no dev dependencies to import it from.
  // The page and its stylesheet too: the run stage has no src/, only dist/.
  for (const page of ['/dashboard/', '/dashboard/style.css']) {
    const res = await fetch(`${url}${page}`);
    if (res.status !== 200) fail(`${page} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
  const dashboard = await fetch(`${url}/dashboard/app.js`);
  const script = await dashboard.text();
  if (dashboard.status !== 200) fail(`/dashboard/app.js answered ${dashboard.status}: ${script.slice(0, 200)}`);
  if (!script.includes('getExplainedVariance') || /\bfrom\s*['"]ml-pca['"]/.test(script)) fail('/dashboard/app.js is not the bundle with ml-pca inside');
  console.log(`production path: the Dockerfile's run stage (${run.join(', ')}) serves, with the native hnswlib build and the dashboard bundle`);
} catch (e) {
  console.error(`production path: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  if (server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  rmSync(work, { recursive: true, force: true });
}
