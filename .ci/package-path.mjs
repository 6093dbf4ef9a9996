// The package path: `npm pack` of this checkout, installed into a new project the way a user's
// project would take it (`npm install <tarball>`, its postinstall building the native addons),
// then used there. Its `quiver` bin must run (--version, and `serve` from the installed files on a
// fresh data dir, its dashboard included), the installed client must talk to that server from a TypeScript file that
// type-checks against the package's own declarations, and a call with a wrong body must fail the
// type check (the types are real, not any). Run by .ci/run; exits 1 with the reason on failure.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'quiver-package-'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs a command, answering its stdout; on failure prints its output and throws (the server is stopped on the way out). */
function run(cmd, args, cwd, what, env = {}) {
  try {
    return execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', ...env } });
  } catch (e) {
    console.error(`${e.stdout ?? ''}${e.stderr ?? ''}`.split('\n').slice(-40).join('\n'));
    throw new Error(`${what} failed`);
  }
}

let server = null;
try {
  // The tarball, as `npm publish` would make it (prepack builds dist/); QUIVER_PACK_BUILT=1 says
  // this checkout's dist/ was just built (.ci/run: by npm ci's prepare), so it is packed as it is.
  run('npm', ['pack', '--pack-destination', work, ...(process.env.QUIVER_PACK_BUILT === '1' ? ['--ignore-scripts'] : [])], root, 'npm pack');
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack made no tarball');

  // A user's project, taking the package from the tarball.
  const app = join(work, 'app');
  run('mkdir', ['-p', app], work, 'mkdir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'quiver-package-check', private: true, type: 'module' }));
  run('npm', ['install', '--prefer-offline', join(work, tarball)], app, `npm install ${tarball}`);

  const version = run(join(app, 'node_modules', '.bin', 'quiver'), ['--version'], app, 'quiver --version').trim();
  if (version !== pkg.version) throw new Error(`quiver --version printed ${JSON.stringify(version)}, not ${pkg.version}`);

  // The installed server, through the bin.
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  server = spawn(join(app, 'node_modules', '.bin', 'quiver'), ['serve', '--rest-port', String(port), '--grpc-port', String(port + 1), '--data-dir', join(work, 'data')], {
    cwd: app,
    env: { PATH: process.env.PATH, SERVICE_HOST: '127.0.0.1', SERVICE_LOG_LEVEL: 'warn' },
    // Its stderr to a pipe read here, never inherited: an inherited one would hold a caller's pipe open.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server.stderr.on('data', (d) => process.stderr.write(d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`quiver serve exited with ${server.exitCode} before it was ready`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('quiver serve was not ready within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }

  // The dashboard, from the package's dist/ alone.
  for (const page of ['/dashboard/', '/dashboard/style.css', '/dashboard/app.js']) {
    const res = await fetch(`${url}${page}`);
    if (res.status !== 200) throw new Error(`the installed server answered ${page} with ${res.status}`);
  }

  // The client, typed: compiled against the package's declarations, then run.
  const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, outDir: 'out', types: [] } };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['use.ts'] }));
  writeFileSync(
    join(app, 'use.ts'),
    `import { QuiverClient, QuiverClientError, type ScoredPoint } from '${pkg.name}';
const client = new QuiverClient({ url: '${url}' });
await client.createCollection('c', { vectors: { size: 2, distance: 'Dot' } });
await client.upsert('c', { points: [{ id: 1, vector: [1, 0], payload: { n: 1 } }, { id: 2, vector: [0, 1] }] });
const hits: ScoredPoint[] = await client.search('c', { vector: [1, 0.1], limit: 1 });
let refused = '';
try { await client.getCollection('missing'); } catch (e) { if (e instanceof QuiverClientError) refused = String(e.status); }
console.log(JSON.stringify({ top: hits[0]?.id, refused }));
`,
  );
  run(process.execPath, [tsc, '-p', 'tsconfig.json'], app, 'type-checking a client call against the package');
  const out = JSON.parse(run(process.execPath, [join('out', 'use.js')], app, 'the client against quiver serve'));
  if (out.top !== 1 || out.refused !== '404') throw new Error(`the client got ${JSON.stringify(out)}, not {"top":1,"refused":"404"}`);

  // A wrong body must not type-check.
  writeFileSync(join(app, 'wrong.ts'), `import { QuiverClient } from '${pkg.name}';\nawait new QuiverClient().upsert('c', { points: 'none' });\n`);
  writeFileSync(join(app, 'tsconfig.wrong.json'), JSON.stringify({ ...tsconfig, files: ['wrong.ts'] }));
  let typed = false;
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.wrong.json', '--noEmit'], { cwd: app, stdio: 'pipe' });
  } catch {
    typed = true;
  }
  if (!typed) throw new Error("upsert with points: 'none' type-checked: the package's types are not the client's");

  // The CLI against the same server.
  const names = run(join(app, 'node_modules', '.bin', 'quiver'), ['--url', url, 'collections'], app, 'quiver collections').trim();
  if (names !== 'c') throw new Error(`quiver collections printed ${JSON.stringify(names)}, not "c"`);
  console.log(`package path: ${tarball} installs into a new project; its bin serves and lists, its typed client searches`);
} catch (e) {
  console.error(`package path: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  if (server !== null && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.on('exit', r));
  }
  rmSync(work, { recursive: true, force: true });
}
