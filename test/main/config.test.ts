import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterNats, ConfigError, loadConfig, PROJECT_ROOT } from '../../src/main/config.js';

const dir = mkdtempSync(join(tmpdir(), 'quiver-config-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: unknown): string {
  const p = join(dir, `config-${n++}.json`);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

/** Expects loadConfig(env) to throw a ConfigError whose message matches every pattern. */
function bad(env: NodeJS.ProcessEnv, ...patterns: (string | RegExp)[]): void {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${JSON.stringify(env)} to be rejected`).toBeInstanceOf(ConfigError);
  expect(caught).toBeInstanceOf(Error);
  for (const p of patterns) expect((caught as Error).message).toMatch(p);
}

const defaults = JSON.parse(readFileSync(join(PROJECT_ROOT, 'config', 'default.json'), 'utf8')) as Record<string, unknown>;

describe('loadConfig: defaults', () => {
  it('finds the project root (the folder with package.json and config/default.json)', () => {
    expect(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).name).toBe('quiver-vectordb');
  });

  it('an empty environment gives config/default.json, with data_dir made absolute', () => {
    const cfg = loadConfig({});
    const shards = defaults.shards as number;
    expect(cfg).toEqual({
      ...defaults,
      data_dir: resolve(defaults.data_dir as string),
      workers: shards === 0 ? availableParallelism() : shards,
      cluster: { ...(defaults.cluster as object), advertise: `${defaults.host as string}:${(defaults.cluster as { port: number }).port}` },
    });
    expect(isAbsolute(cfg.data_dir)).toBe(true);
  });

  it('the defaults are a sane server configuration', () => {
    const cfg = loadConfig({});
    expect(cfg.host.length).toBeGreaterThan(0);
    expect(Number.isInteger(cfg.rest_port)).toBe(true);
    expect(cfg.rest_port).not.toBe(cfg.grpc_port);
    expect(cfg.workers).toBeGreaterThanOrEqual(1);
    expect(cfg.body_limit_mb).toBeGreaterThan(0);
    // gRPC accepts vector batches of at least 64 MiB per request by default.
    expect(cfg.grpc_max_message_mb).toBeGreaterThanOrEqual(64);
    expect(cfg.jwt_secret).toBeUndefined();
    expect(cfg.admin_password).toBeUndefined();
  });

  it('does not read process.env when given an env object', () => {
    const saved = process.env.SERVICE_REST_PORT;
    process.env.SERVICE_REST_PORT = 'abc';
    try {
      expect(() => loadConfig({})).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env.SERVICE_REST_PORT;
      else process.env.SERVICE_REST_PORT = saved;
    }
  });
});

describe('loadConfig: SERVICE_* overrides', () => {
  it('every variable reaches its key, numbers parsed', () => {
    const cfg = loadConfig({
      SERVICE_HOST: '0.0.0.0',
      SERVICE_REST_PORT: '7001',
      SERVICE_GRPC_PORT: '7002',
      SERVICE_DATA_DIR: '/var/lib/quiver',
      SERVICE_SHARDS: '3',
      SERVICE_SHARD_NUMBER: '4',
      SERVICE_REPLICATION_FACTOR: '3',
      SERVICE_LOG_LEVEL: 'debug',
      SERVICE_BODY_LIMIT_MB: '0.5',
      SERVICE_GRPC_MAX_MESSAGE_MB: '128',
      SERVICE_JWT_TTL_SECONDS: '60',
      SERVICE_JWT_SECRET: 's3cret',
      SERVICE_ADMIN_PASSWORD: 'hunter2',
      SERVICE_ACCESS_LOG: 'off',
      SERVICE_HNSW_BUILD: 'portable',
      SERVICE_GRAPH_SAVE_WRITES: '500',
      SERVICE_GRAPH_SAVE_SECONDS: '2.5',
      SERVICE_SLOW_QUERY_SECS: '0.25',
      SERVICE_LIVE_RECALL_FRACTION: '0.5',
      SERVICE_CLUSTER_ETCD: 'http://10.0.0.1:2379, 10.0.0.2:2379',
      SERVICE_CLUSTER_NATS: 'nats://10.0.0.1:4222',
      SERVICE_CLUSTER_PORT: '7003',
      SERVICE_CLUSTER_ADVERTISE: 'node1.example:7003',
      SERVICE_CLUSTER_LEASE_SECONDS: '4',
      SERVICE_CLUSTER_STREAM_REPLICAS: '1',
      SERVICE_CLUSTER_DEAD_GRACE_SECONDS: '5',
      SERVICE_CLUSTER_HEDGE_MS: '250',
      SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '5000',
      SERVICE_CLUSTER_SNAPSHOT_MINUTES: '0.5',
    });
    expect(cfg).toEqual({
      host: '0.0.0.0',
      rest_port: 7001,
      grpc_port: 7002,
      data_dir: '/var/lib/quiver',
      shards: 3,
      default_shard_number: 4,
      default_replication_factor: 3,
      log_level: 'debug',
      body_limit_mb: 0.5,
      grpc_max_message_mb: 128,
      jwt_ttl_seconds: 60,
      jwt_secret: 's3cret',
      admin_password: 'hunter2',
      access_log: false,
      hnsw_build: 'portable',
      graph_save_writes: 500,
      graph_save_seconds: 2.5,
      slow_query_secs: 0.25,
      live_recall_fraction: 0.5,
      enable_tls: false,
      cluster: { etcd: ['http://10.0.0.1:2379', '10.0.0.2:2379'], nats: ['nats://10.0.0.1:4222'], port: 7003, advertise: 'node1.example:7003', lease_seconds: 4, stream_replicas: 1, dead_grace_seconds: 5, hedge_ms: 250, snapshot_entries: 5000, snapshot_minutes: 0.5, enable_tls: false },
      workers: 3,
    });
  });

  it('collection defaults: shard_number and replication_factor 1 unless set; 0 or a fraction stops start-up naming the variable', () => {
    const cfg = loadConfig({});
    expect([cfg.default_shard_number, cfg.default_replication_factor]).toEqual([1, 1]);
    expect(() => loadConfig({ SERVICE_SHARD_NUMBER: '0' })).toThrow(/'default_shard_number' \(SERVICE_SHARD_NUMBER\)/);
    expect(() => loadConfig({ SERVICE_REPLICATION_FACTOR: '0' })).toThrow(/'default_replication_factor' \(SERVICE_REPLICATION_FACTOR\)/);
    expect(() => loadConfig({ SERVICE_REPLICATION_FACTOR: '1.5' })).toThrow('SERVICE_REPLICATION_FACTOR="1.5" is not an integer');
  });

  it('a relative SERVICE_DATA_DIR is resolved to an absolute path', () => {
    expect(loadConfig({ SERVICE_DATA_DIR: 'some/rel' }).data_dir).toBe(resolve('some/rel'));
  });

  it('empty values are ignored', () => {
    const cfg = loadConfig({ SERVICE_REST_PORT: '', SERVICE_HOST: '', SERVICE_CONFIG: '' });
    expect(cfg.rest_port).toBe(defaults.rest_port);
    expect(cfg.host).toBe(defaults.host);
  });

  it('unrelated variables are ignored', () => {
    expect(loadConfig({ SERVICE_UNKNOWN: 'x', PORT: '1', REST_PORT: '2' }).rest_port).toBe(defaults.rest_port);
  });

  it('shards 0 resolves workers to the available parallelism; shards n gives n workers', () => {
    const auto = loadConfig({ SERVICE_SHARDS: '0' });
    expect(auto.shards).toBe(0);
    expect(auto.workers).toBe(availableParallelism());
    expect(loadConfig({ SERVICE_SHARDS: '1' }).workers).toBe(1);
    expect(loadConfig({ SERVICE_SHARDS: '256' }).workers).toBe(256);
  });

  it('port 0 and 65535 are allowed', () => {
    expect(loadConfig({ SERVICE_REST_PORT: '0', SERVICE_GRPC_PORT: '65535' })).toMatchObject({ rest_port: 0, grpc_port: 65535 });
  });
});

describe('loadConfig: SERVICE_CONFIG file', () => {
  it('a file overrides the defaults, and the environment overrides the file', () => {
    const p = file({ rest_port: 7100, shards: 2, log_level: 'warn', host: '10.0.0.1' });
    const cfg = loadConfig({ SERVICE_CONFIG: p, SERVICE_REST_PORT: '7200', SERVICE_LOG_LEVEL: 'error' });
    expect(cfg.rest_port).toBe(7200);
    expect(cfg.log_level).toBe('error');
    expect(cfg.shards).toBe(2);
    expect(cfg.workers).toBe(2);
    expect(cfg.host).toBe('10.0.0.1');
    // Keys the file does not set keep their defaults.
    expect(cfg.grpc_port).toBe(defaults.grpc_port);
  });

  it('file-only secrets are kept', () => {
    const p = file({ jwt_secret: 'from-file', admin_password: 'pw' });
    expect(loadConfig({ SERVICE_CONFIG: p })).toMatchObject({ jwt_secret: 'from-file', admin_password: 'pw' });
    expect(loadConfig({ SERVICE_CONFIG: p, SERVICE_JWT_SECRET: 'from-env' }).jwt_secret).toBe('from-env');
  });

  it('a missing file is a ConfigError naming SERVICE_CONFIG and the path', () => {
    const p = join(dir, 'does-not-exist.json');
    bad({ SERVICE_CONFIG: p }, /SERVICE_CONFIG/, p);
  });

  it('a file that is not JSON, or not a JSON object, is a ConfigError naming SERVICE_CONFIG', () => {
    bad({ SERVICE_CONFIG: file('{ rest_port: 1 ') }, /SERVICE_CONFIG/);
    bad({ SERVICE_CONFIG: file([1, 2]) }, /SERVICE_CONFIG/, /not a JSON object/);
    bad({ SERVICE_CONFIG: file('null') }, /SERVICE_CONFIG/, /not a JSON object/);
    bad({ SERVICE_CONFIG: file('"x"') }, /SERVICE_CONFIG/, /not a JSON object/);
  });

  it('a bad value in the file is a ConfigError naming the key', () => {
    bad({ SERVICE_CONFIG: file({ rest_port: 'x' }) }, /'rest_port'/);
    bad({ SERVICE_CONFIG: file({ shards: 1000 }) }, /'shards'/);
  });

  it('an unknown key in the file is a ConfigError naming it', () => {
    bad({ SERVICE_CONFIG: file({ rest_prot: 1 }) }, /rest_prot/);
  });

  it('a bad file value can be fixed by the environment', () => {
    expect(loadConfig({ SERVICE_CONFIG: file({ rest_port: 'x' }), SERVICE_REST_PORT: '8000' }).rest_port).toBe(8000);
  });
});

describe('loadConfig: bad values name the variable', () => {
  it.each([
    ['SERVICE_REST_PORT', 'abc', /integer/],
    ['SERVICE_REST_PORT', '1.5', /integer/],
    ['SERVICE_REST_PORT', '70000', /65535/],
    ['SERVICE_REST_PORT', '-1', />= 0/],
    ['SERVICE_GRPC_PORT', 'x', /integer/],
    ['SERVICE_SHARDS', '-1', />= 0/],
    ['SERVICE_SHARDS', '257', /256/],
    ['SERVICE_SHARDS', 'two', /integer/],
    ['SERVICE_LOG_LEVEL', 'loud', /log_level/],
    ['SERVICE_BODY_LIMIT_MB', '0', /body_limit_mb/],
    ['SERVICE_BODY_LIMIT_MB', '-5', /body_limit_mb/],
    ['SERVICE_BODY_LIMIT_MB', 'lots', /number/],
    ['SERVICE_BODY_LIMIT_MB', '5000', /4096/],
    ['SERVICE_GRPC_MAX_MESSAGE_MB', '0', /grpc_max_message_mb/],
    ['SERVICE_GRPC_MAX_MESSAGE_MB', '4096', /2047/],
    ['SERVICE_JWT_TTL_SECONDS', '0', />= 1/],
    ['SERVICE_JWT_TTL_SECONDS', 'Infinity', /integer/],
    ['SERVICE_ACCESS_LOG', 'maybe', /not a boolean/],
    ['SERVICE_ACCESS_LOG', 'yes please', /not a boolean/],
    ['SERVICE_GRAPH_SAVE_WRITES', '-1', />= 0/],
    ['SERVICE_GRAPH_SAVE_WRITES', '1.5', /integer/],
    ['SERVICE_GRAPH_SAVE_SECONDS', '-2', />= 0/],
    ['SERVICE_GRAPH_SAVE_SECONDS', 'soon', /number/],
    ['SERVICE_CLUSTER_ETCD', 'localhost', /"localhost" is not a host:port endpoint/],
    ['SERVICE_CLUSTER_ETCD', 'http://127.0.0.1:2379,,127.0.0.1:2380', /an empty item is not a host:port endpoint/],
    ['SERVICE_CLUSTER_ETCD', '127.0.0.1:99999', /"127.0.0.1:99999" is not a host:port endpoint/],
    ['SERVICE_CLUSTER_ETCD', 'ftp://127.0.0.1:2379', /not a host:port endpoint/],
    ['SERVICE_CLUSTER_NATS', 'nats://a b:4222', /not a host:port endpoint/],
    ['SERVICE_CLUSTER_PORT', '70000', /65535/],
    ['SERVICE_CLUSTER_PORT', 'x', /integer/],
    ['SERVICE_CLUSTER_ADVERTISE', 'no-port', /cluster\/advertise/],
    ['SERVICE_CLUSTER_LEASE_SECONDS', '0', />= 1/],
    ['SERVICE_CLUSTER_LEASE_SECONDS', '2.5', /integer/],
  ])('%s=%s', (name, value, detail) => {
    bad({ [name]: value }, new RegExp(name), detail);
  });

  it('SERVICE_ACCESS_LOG takes true/false, 1/0, on/off in any case; the access log is on by default', () => {
    expect(loadConfig({}).access_log).toBe(true);
    for (const v of ['true', '1', 'on', 'ON', 'True']) expect(loadConfig({ SERVICE_ACCESS_LOG: v }).access_log).toBe(true);
    for (const v of ['false', '0', 'off', 'OFF', 'False']) expect(loadConfig({ SERVICE_ACCESS_LOG: v }).access_log).toBe(false);
  });

  it('TLS: off by default; on, it needs both files (paths made absolute); in cluster mode only with the internal port on TLS too, which needs a CA', () => {
    expect(loadConfig({}).enable_tls).toBe(false);
    const on = loadConfig({ SERVICE_ENABLE_TLS: 'on', SERVICE_TLS_CERT: '/etc/quiver/cert.pem', SERVICE_TLS_KEY: 'key.pem' });
    expect([on.enable_tls, on.tls_cert, on.tls_key]).toEqual([true, '/etc/quiver/cert.pem', resolve('key.pem')]);
    const needs = 'enable_tls (SERVICE_ENABLE_TLS) needs tls_cert (SERVICE_TLS_CERT) and tls_key (SERVICE_TLS_KEY): the PEM files of the certificate and its private key';
    bad({ SERVICE_ENABLE_TLS: 'true' }, needs);
    bad({ SERVICE_ENABLE_TLS: 'true', SERVICE_TLS_CERT: 'c.pem' }, needs);
    const cluster = { SERVICE_CLUSTER_ETCD: '127.0.0.1:2379', SERVICE_CLUSTER_NATS: '127.0.0.1:4222' };
    const files = { SERVICE_TLS_CERT: 'c.pem', SERVICE_TLS_KEY: 'k.pem' };
    bad({ SERVICE_ENABLE_TLS: 'true', ...files, ...cluster }, 'enable_tls (SERVICE_ENABLE_TLS) in cluster mode needs cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) too: keys and requests would otherwise cross the internal port in clear text');
    // The internal port: cluster mode, the pair and a CA.
    const internal = loadConfig({ SERVICE_CLUSTER_ENABLE_TLS: 'true', ...files, SERVICE_TLS_CA_CERT: 'ca.pem', ...cluster });
    expect([internal.cluster.enable_tls, internal.enable_tls, internal.tls_ca_cert]).toEqual([true, false, resolve('ca.pem')]);
    expect(loadConfig({ SERVICE_ENABLE_TLS: 'true', SERVICE_CLUSTER_ENABLE_TLS: 'on', ...files, SERVICE_TLS_CA_CERT: 'ca.pem', ...cluster }).enable_tls).toBe(true);
    bad({ SERVICE_CLUSTER_ENABLE_TLS: 'true', ...files, ...cluster }, "cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) needs tls_ca_cert (SERVICE_TLS_CA_CERT): the CA that signs every node's certificate, which the internal port requires of its peers");
    bad({ SERVICE_CLUSTER_ENABLE_TLS: 'true', SERVICE_TLS_CA_CERT: 'ca.pem', ...cluster }, 'cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) needs tls_cert (SERVICE_TLS_CERT) and tls_key (SERVICE_TLS_KEY): the PEM files of the certificate and its private key');
    bad({ SERVICE_CLUSTER_ENABLE_TLS: 'true', ...files, SERVICE_TLS_CA_CERT: 'ca.pem' }, 'cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) is for cluster mode: set SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS, or turn it off');
    bad({ SERVICE_ENABLE_TLS: 'true', ...files, SERVICE_TLS_CA_CERT: 'ca.pem' }, "tls_ca_cert (SERVICE_TLS_CA_CERT) is set but cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) is off: it is the internal port's CA; turn that on, or unset it");
    bad({ SERVICE_CLUSTER_ENABLE_TLS: 'maybe' }, 'SERVICE_CLUSTER_ENABLE_TLS="maybe" is not a boolean (true, false, 1, 0, on, off)');
    // Files named with TLS off are refused, not left unused.
    bad({ SERVICE_TLS_CERT: 'c.pem' }, 'tls_cert (SERVICE_TLS_CERT) or tls_key (SERVICE_TLS_KEY) is set but enable_tls (SERVICE_ENABLE_TLS) is off: turn it on to serve TLS, or unset them');
  });

  it('SERVICE_LIVE_RECALL_FRACTION: 0.01 by default, 0 to 1 accepted, outside refused naming the variable', () => {
    expect(loadConfig({}).live_recall_fraction).toBe(0.01);
    for (const f of ['0', '1', '0.25']) expect(loadConfig({ SERVICE_LIVE_RECALL_FRACTION: f }).live_recall_fraction).toBe(Number(f));
    bad({ SERVICE_LIVE_RECALL_FRACTION: '1.5' }, "invalid configuration 'live_recall_fraction' (SERVICE_LIVE_RECALL_FRACTION): must be <= 1");
    bad({ SERVICE_LIVE_RECALL_FRACTION: '-0.1' }, "invalid configuration 'live_recall_fraction' (SERVICE_LIVE_RECALL_FRACTION): must be >= 0");
  });

  it('access_log in a file must be a boolean', () => {
    bad({ SERVICE_CONFIG: file({ access_log: 'no' }) }, /access_log/);
  });

  it('SERVICE_HNSW_BUILD: auto by default, the three modes accepted, anything else refused with the list', () => {
    expect(loadConfig({}).hnsw_build).toBe('auto');
    for (const mode of ['auto', 'native', 'portable']) expect(loadConfig({ SERVICE_HNSW_BUILD: mode }).hnsw_build).toBe(mode);
    bad({ SERVICE_HNSW_BUILD: 'avx2' }, "invalid configuration 'hnsw_build' (SERVICE_HNSW_BUILD): must be equal to one of the allowed values (auto, native, portable)");
  });

  it('cluster mode is off by default; the advertised address defaults to host and cluster port', async () => {
    const { clusterEnabled } = await import('../../src/main/config.js');
    expect(clusterEnabled(loadConfig({}))).toBe(false);
    const cfg = loadConfig({ SERVICE_HOST: '10.1.2.3', SERVICE_CLUSTER_ETCD: '127.0.0.1:2379', SERVICE_CLUSTER_NATS: '127.0.0.1:4222' });
    expect(clusterEnabled(cfg)).toBe(true);
    expect(cfg.cluster).toEqual({ etcd: ['127.0.0.1:2379'], nats: ['127.0.0.1:4222'], port: 6575, advertise: '10.1.2.3:6575', lease_seconds: 10, stream_replicas: 3, dead_grace_seconds: 30, hedge_ms: 1000, snapshot_entries: 100000, snapshot_minutes: 60, enable_tls: false });
  });

  it('one switch: SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS together; one alone is refused naming the other', () => {
    bad({ SERVICE_CLUSTER_ETCD: '127.0.0.1:2379' }, 'cluster mode needs both SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS: SERVICE_CLUSTER_ETCD is set but SERVICE_CLUSTER_NATS is not (cluster.nats is empty)');
    bad({ SERVICE_CLUSTER_NATS: '127.0.0.1:4222' }, 'cluster mode needs both SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS: SERVICE_CLUSTER_NATS is set but SERVICE_CLUSTER_ETCD is not (cluster.etcd is empty)');
    bad({ SERVICE_CONFIG: file({ cluster: { etcd: ['h:1'] } }) }, /SERVICE_CLUSTER_NATS is not/);
    bad({ SERVICE_CLUSTER_ETCD: '127.0.0.1:2379', SERVICE_CLUSTER_NATS: '127.0.0.1:4222', SERVICE_CLUSTER_DEAD_GRACE_SECONDS: 'soon' }, 'SERVICE_CLUSTER_DEAD_GRACE_SECONDS="soon" is not an integer');
  });

  it("a file's cluster section keeps the defaults it does not name; a bad one names the key", () => {
    expect(loadConfig({ SERVICE_CONFIG: file({ cluster: { lease_seconds: 3 } }) }).cluster).toMatchObject({ etcd: [], port: 6575, lease_seconds: 3 });
    bad({ SERVICE_CONFIG: file({ cluster: { etcd: ['nowhere'] } }) }, /'cluster\/etcd\/0' \(SERVICE_CLUSTER_ETCD\)/);
    bad({ SERVICE_CONFIG: file({ cluster: { leases: 3 } }) }, /cluster/, /leases/);
    bad({ SERVICE_CONFIG: file({ cluster: 5 }) }, /'cluster'/);
  });

  it('SERVICE_CLUSTER_NATS names the shard write logs; SERVICE_CLUSTER_STREAM_REPLICAS sets their replicas; bad values named', () => {
    expect(clusterNats(loadConfig({}))).toBeNull();
    const cfg = loadConfig({ SERVICE_CLUSTER_ETCD: '127.0.0.1:2379', SERVICE_CLUSTER_NATS: 'nats://127.0.0.1:4222, 127.0.0.1:4223', SERVICE_CLUSTER_STREAM_REPLICAS: '1' });
    expect(cfg.cluster).toMatchObject({ nats: ['nats://127.0.0.1:4222', '127.0.0.1:4223'], stream_replicas: 1 });
    expect(clusterNats(cfg)).toEqual(['nats://127.0.0.1:4222', '127.0.0.1:4223']);
    // A file's section keeps what the environment does not set.
    expect(loadConfig({ SERVICE_CONFIG: file({ cluster: { etcd: ['h:2'], nats: ['h:1'], stream_replicas: 5 } }), SERVICE_CLUSTER_STREAM_REPLICAS: '3' }).cluster).toMatchObject({ nats: ['h:1'], stream_replicas: 3 });
    bad({ SERVICE_CLUSTER_STREAM_REPLICAS: 'two' }, 'SERVICE_CLUSTER_STREAM_REPLICAS="two" is not an integer');
    bad({ SERVICE_CLUSTER_STREAM_REPLICAS: '0' }, "invalid configuration 'cluster/stream_replicas' (SERVICE_CLUSTER_STREAM_REPLICAS)");
    bad({ SERVICE_CLUSTER_NATS: 'nats://127.0.0.1:4222,' }, /SERVICE_CLUSTER_NATS=.*an empty item/);
  });

  it('shard snapshots: every 100,000 entries or 60 minutes unless set; 0 turns either off; bad values named', () => {
    expect(loadConfig({}).cluster).toMatchObject({ snapshot_entries: 100_000, snapshot_minutes: 60 });
    expect(loadConfig({ SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '0', SERVICE_CLUSTER_SNAPSHOT_MINUTES: '0' }).cluster).toMatchObject({ snapshot_entries: 0, snapshot_minutes: 0 });
    expect(loadConfig({ SERVICE_CONFIG: file({ cluster: { snapshot_minutes: 5 } }) }).cluster).toMatchObject({ snapshot_entries: 100_000, snapshot_minutes: 5 });
    bad({ SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '1e3.5' }, 'SERVICE_CLUSTER_SNAPSHOT_ENTRIES="1e3.5" is not an integer');
    bad({ SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '-1' }, "invalid configuration 'cluster/snapshot_entries' (SERVICE_CLUSTER_SNAPSHOT_ENTRIES)");
    bad({ SERVICE_CLUSTER_SNAPSHOT_MINUTES: 'hourly' }, 'SERVICE_CLUSTER_SNAPSHOT_MINUTES="hourly" is not a number');
    bad({ SERVICE_CLUSTER_SNAPSHOT_MINUTES: '-2' }, "invalid configuration 'cluster/snapshot_minutes' (SERVICE_CLUSTER_SNAPSHOT_MINUTES)");
  });

  it('hedged reads: at most 1000 ms unless set; 0 turns hedging off; bad values named', () => {
    expect(loadConfig({}).cluster.hedge_ms).toBe(1000);
    expect(loadConfig({ SERVICE_CLUSTER_HEDGE_MS: '0' }).cluster.hedge_ms).toBe(0);
    expect(loadConfig({ SERVICE_CONFIG: file({ cluster: { hedge_ms: 150 } }) }).cluster.hedge_ms).toBe(150);
    bad({ SERVICE_CLUSTER_HEDGE_MS: '0.5' }, 'SERVICE_CLUSTER_HEDGE_MS="0.5" is not an integer');
    bad({ SERVICE_CLUSTER_HEDGE_MS: '-1' }, "invalid configuration 'cluster/hedge_ms' (SERVICE_CLUSTER_HEDGE_MS)");
  });

  it('accepts every documented log level', () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      expect(loadConfig({ SERVICE_LOG_LEVEL: level }).log_level).toBe(level);
    }
  });
});
