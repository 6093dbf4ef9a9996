// `npm run bench:tls`: what TLS costs a search over REST (issue 31). Two fresh servers on the same
// data, one plain and one serving TLS with a certificate made here (bench/lib/certs.ts), each
// given BENCH_N x BENCH_DIM random Cosine points; then autocannon (BENCH_CONNECTIONS connections,
// new TLS sessions only at connect, as a client pool would) searches each for BENCH_SECONDS,
// alternating, BENCH_ROUNDS times: QPS and latency beside each other, same run. The process runs
// itself again with NODE_EXTRA_CA_CERTS naming the CA, so its own fetch trusts the certificate.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { callOk, cleanups, ENTRY, envInt, progress, rng, runBench, stopAll, trackChild } from './common.js';
import { autocannonRun, loadFigures } from './lib/autocannon.js';
import { makeCa, makeServerCert, OPENSSL } from './lib/certs.js';
import { fmt, table } from './lib/report.js';

const CFG = {
  n: envInt('BENCH_N', 20_000),
  dim: envInt('BENCH_DIM', 128),
  workers: envInt('BENCH_WORKERS', availableParallelism()),
  connections: envInt('BENCH_CONNECTIONS', 16),
  seconds: envInt('BENCH_SECONDS', 10),
  rounds: envInt('BENCH_ROUNDS', 2),
  timeoutS: envInt('BENCH_TIMEOUT_S', 900),
};

async function startOne(scratch: string, name: string, port: number, tls: { cert: string; key: string } | null): Promise<{ url: string; stop: () => Promise<void> }> {
  const env = { ...process.env, SERVICE_HOST: '127.0.0.1', SERVICE_REST_PORT: String(port), SERVICE_GRPC_PORT: String(port + 1), SERVICE_DATA_DIR: join(scratch, name), SERVICE_SHARDS: String(CFG.workers), SERVICE_ACCESS_LOG: 'false', SERVICE_LOG_LEVEL: 'warn' };
  const p = spawn(process.execPath, [ENTRY], { env: tls === null ? env : { ...env, SERVICE_ENABLE_TLS: 'true', SERVICE_TLS_CERT: tls.cert, SERVICE_TLS_KEY: tls.key }, stdio: ['ignore', 'ignore', 'inherit'] });
  trackChild(p);
  const url = `${tls === null ? 'http' : 'https'}://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (p.exitCode !== null) throw new Error(`the ${name} server exited with ${p.exitCode}`);
    if (await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false)) break;
    if (i > 3000) throw new Error(`the ${name} server was not ready within 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url, stop: () => new Promise<void>((r) => (p.exitCode !== null ? r() : (p.once('exit', () => r()), p.kill('SIGTERM')))) };
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-tls-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const certs = process.env.QUIVER_BENCH_TLS_DIR;
  if (certs === undefined) {
    // Once more, trusting a CA made here (Node reads NODE_EXTRA_CA_CERTS only at start).
    const ca = makeCa(scratch);
    const child = spawn(process.execPath, process.argv.slice(1), { env: { ...process.env, NODE_EXTRA_CA_CERTS: ca, QUIVER_BENCH_TLS_DIR: scratch }, stdio: 'inherit' });
    process.exitCode = await new Promise<number>((r) => child.on('exit', (code) => r(code ?? 1)));
    return;
  }
  const pair = makeServerCert(certs, 'server', '0C03');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const servers = { plain: await startOne(scratch, 'plain', port, null), tls: await startOne(scratch, 'tls', port + 10, pair) };
  const r = rng(7);
  const vectors = Array.from({ length: CFG.n }, () => Array.from({ length: CFG.dim }, () => r() - 0.5));
  for (const [name, s] of Object.entries(servers)) {
    progress(`${name}: ingest ${CFG.n} x ${CFG.dim}`);
    await callOk(s.url, 'PUT', '/collections/t', JSON.stringify({ vectors: { size: CFG.dim, distance: 'Cosine' } }));
    for (let i = 0; i < CFG.n; i += 1000) {
      await callOk(s.url, 'PUT', '/collections/t/points?wait=true', JSON.stringify({ points: vectors.slice(i, i + 1000).map((vector, k) => ({ id: i + k, vector })) }));
    }
  }
  const bodies = Array.from({ length: 200 }, () => JSON.stringify({ vector: Array.from({ length: CFG.dim }, () => r() - 0.5), limit: 10 }));
  const rows: string[][] = [];
  for (let round = 1; round <= CFG.rounds; round++) {
    for (const [name, s] of Object.entries(servers)) {
      progress(`round ${round}: ${name}`);
      const f = loadFigures(await autocannonRun(s.url, '/collections/t/points/search', bodies, CFG.seconds, CFG.connections));
      rows.push([`${round}`, name, fmt(f.qps), fmt(f.latencyMs.p50, 2), fmt(f.latencyMs.p99, 2), String(f.non2xx + f.errors)]);
    }
  }
  await servers.plain.stop();
  await servers.tls.stop();
  await stopAll();
  process.stdout.write(
    `\nREST search over TLS beside plain: ${CFG.n} x ${CFG.dim} Cosine, ${CFG.workers} workers, ${CFG.connections} connections, ${CFG.seconds} s a run (TLS 1.3, ECDSA P-256)\n\n${table(['round', 'server', 'QPS', 'p50 ms', 'p99 ms', 'failed'], rows).join('\n')}\n`,
  );
}

if (OPENSSL === null) {
  process.stderr.write('bench:tls needs openssl (bash .ci/install-openssl.sh)\n');
  process.exit(1);
}
runBench(main, CFG.timeoutS);
