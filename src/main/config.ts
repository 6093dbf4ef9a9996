// Configuration: config/default.json, then the optional file named by SERVICE_CONFIG, then the
// SERVICE_* environment variables (docs/decisions.md section 1). Validated once at start; a bad value
// stops start-up with a message naming where it came from.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

/** `host:port`, optionally with an http(s):// scheme: an etcd endpoint or NATS server. */
const ENDPOINT = '^(https?://|nats://)?(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):[0-9]{1,5}$';
const Endpoint = Type.String({ pattern: ENDPOINT });

/** Cluster mode (docs/cluster.md): on when both `etcd` and `nats` list servers (one alone refuses start-up); otherwise nothing of it runs. */
export const ClusterSchema = Type.Object(
  {
    /** etcd client endpoints (SERVICE_CLUSTER_ETCD); empty: single-node mode. */
    etcd: Type.Array(Endpoint, { maxItems: 64 }),
    /** NATS servers (SERVICE_CLUSTER_NATS). */
    nats: Type.Array(Endpoint, { maxItems: 64 }),
    /** Internal gRPC port for node-to-node worker requests (0 picks a free one). */
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    /** host:port the other nodes use to reach this one; default host:port. */
    advertise: Type.Optional(Type.String({ pattern: '^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):[0-9]{1,5}$' })),
    /** TTL of this node's membership lease; etcd raises it to its own minimum (2 s by default). */
    lease_seconds: Type.Integer({ minimum: 1, maximum: 3600 }),
    /** Replicas of each shard's JetStream stream (3 in production; 1 on a one-server NATS). */
    stream_replicas: Type.Integer({ minimum: 1, maximum: 5 }),
    /** How long a Dead replica (its node's lease gone) waits before the controller places a replacement elsewhere. */
    dead_grace_seconds: Type.Number({ minimum: 0, maximum: 86400 }),
    /** The longest a read across nodes waits for its replica before asking another too (ms; learned lower per read kind; 0: never hedge). */
    hedge_ms: Type.Integer({ minimum: 0, maximum: 600000 }),
    /** A shard is snapshotted (and its stream purged below) after this many log entries (0: never by count). */
    snapshot_entries: Type.Integer({ minimum: 0 }),
    /** ... or this many minutes after its last snapshot when it was written since (0: never by time). */
    snapshot_minutes: Type.Number({ minimum: 0 }),
    /** The internal port serves and dials TLS with tls_cert and tls_key, and requires peers' certificates signed by tls_ca_cert. */
    enable_tls: Type.Boolean(),
  },
  { additionalProperties: false },
);

const LogLevel = Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)));

export const ConfigSchema = Type.Object(
  {
    host: Type.String({ minLength: 1 }),
    rest_port: Type.Integer({ minimum: 0, maximum: 65535 }),
    grpc_port: Type.Integer({ minimum: 0, maximum: 65535 }),
    data_dir: Type.String({ minLength: 1 }),
    /** Worker threads; 0 means one per available core. */
    shards: Type.Integer({ minimum: 0, maximum: 256 }),
    /** shard_number of a collection created without one (Qdrant's single-node default: 1). */
    default_shard_number: Type.Integer({ minimum: 1, maximum: 1024 }),
    /** replication_factor of a collection created without one: copies of each shard, in distinct workers. */
    default_replication_factor: Type.Integer({ minimum: 1, maximum: 256 }),
    log_level: LogLevel,
    body_limit_mb: Type.Number({ exclusiveMinimum: 0, maximum: 4096 }),
    /** Largest gRPC message accepted (and sent), in MiB; larger ones answer RESOURCE_EXHAUSTED. gRPC caps lengths below 2 GiB. */
    grpc_max_message_mb: Type.Number({ exclusiveMinimum: 0, maximum: 2047 }),
    jwt_ttl_seconds: Type.Integer({ minimum: 1 }),
    jwt_secret: Type.Optional(Type.String({ minLength: 1 })),
    admin_password: Type.Optional(Type.String({ minLength: 1 })),
    /** One info line per REST request and gRPC call (method, route, status, duration, collection, request id). */
    access_log: Type.Boolean(),
    /** hnswlib-node build: the one compiled at install for this CPU when usable (auto), or forced. */
    hnsw_build: Type.Enum(['auto', 'native', 'portable']),
    /** Each shard saves its HNSW graphs in the background after this many writes (0: never by count). */
    graph_save_writes: Type.Integer({ minimum: 0 }),
    /** ... or when this many seconds passed since its last save and it was written since (0: never by time). */
    graph_save_seconds: Type.Number({ minimum: 0 }),
    /** A filtered read slower than this raises an issue for each unindexed key it filters on (GET /issues; Qdrant's slow_query_secs). */
    slow_query_secs: Type.Number({ minimum: 0 }),
    /** The share of approximate searches answered again exactly in the background, for live recall (/metrics quiver_live_recall); 0 turns it off. */
    live_recall_fraction: Type.Number({ minimum: 0, maximum: 1 }),
    /** REST and gRPC serve TLS with tls_cert and tls_key (Qdrant's service.enable_tls, tls.cert, tls.key); the files are read again when they change. */
    enable_tls: Type.Boolean(),
    tls_cert: Type.Optional(Type.String({ minLength: 1 })),
    tls_key: Type.Optional(Type.String({ minLength: 1 })),
    /** The CA that signs every node's certificate: the internal port requires one from each peer (cluster.enable_tls). */
    tls_ca_cert: Type.Optional(Type.String({ minLength: 1 })),
    cluster: ClusterSchema,
  },
  { additionalProperties: false },
);
export type FileConfig = Static<typeof ConfigSchema>;

export type ClusterConfig = Static<typeof ClusterSchema>;

/** The resolved configuration the server runs with. */
export interface Config extends FileConfig {
  /** Resolved worker count (never 0). */
  workers: number;
  /** advertise resolved (host:port when not set). */
  cluster: ClusterConfig & { advertise: string };
}

/** Whether this node runs in cluster mode (etcd and NATS both set: loadConfig refuses one alone), so single-node loads none of it. */
export function clusterEnabled(config: Pick<Config, 'cluster'>): boolean {
  return config.cluster.etcd.length > 0 && config.cluster.nats.length > 0;
}

const ENV: Record<string, { key: keyof FileConfig; kind: 'string' | 'int' | 'number' | 'bool' }> = {
  SERVICE_HOST: { key: 'host', kind: 'string' },
  SERVICE_REST_PORT: { key: 'rest_port', kind: 'int' },
  SERVICE_GRPC_PORT: { key: 'grpc_port', kind: 'int' },
  SERVICE_DATA_DIR: { key: 'data_dir', kind: 'string' },
  SERVICE_SHARDS: { key: 'shards', kind: 'int' },
  SERVICE_SHARD_NUMBER: { key: 'default_shard_number', kind: 'int' },
  SERVICE_REPLICATION_FACTOR: { key: 'default_replication_factor', kind: 'int' },
  SERVICE_LOG_LEVEL: { key: 'log_level', kind: 'string' },
  SERVICE_BODY_LIMIT_MB: { key: 'body_limit_mb', kind: 'number' },
  SERVICE_GRPC_MAX_MESSAGE_MB: { key: 'grpc_max_message_mb', kind: 'number' },
  SERVICE_JWT_TTL_SECONDS: { key: 'jwt_ttl_seconds', kind: 'int' },
  SERVICE_JWT_SECRET: { key: 'jwt_secret', kind: 'string' },
  SERVICE_ADMIN_PASSWORD: { key: 'admin_password', kind: 'string' },
  SERVICE_ACCESS_LOG: { key: 'access_log', kind: 'bool' },
  SERVICE_HNSW_BUILD: { key: 'hnsw_build', kind: 'string' },
  SERVICE_GRAPH_SAVE_WRITES: { key: 'graph_save_writes', kind: 'int' },
  SERVICE_GRAPH_SAVE_SECONDS: { key: 'graph_save_seconds', kind: 'number' },
  SERVICE_SLOW_QUERY_SECS: { key: 'slow_query_secs', kind: 'number' },
  SERVICE_LIVE_RECALL_FRACTION: { key: 'live_recall_fraction', kind: 'number' },
  SERVICE_ENABLE_TLS: { key: 'enable_tls', kind: 'bool' },
  SERVICE_TLS_CERT: { key: 'tls_cert', kind: 'string' },
  SERVICE_TLS_KEY: { key: 'tls_key', kind: 'string' },
  SERVICE_TLS_CA_CERT: { key: 'tls_ca_cert', kind: 'string' },
};

/** The cluster section's variables; lists are comma-separated. */
const CLUSTER_ENV: Record<string, { key: keyof ClusterConfig; kind: 'string' | 'int' | 'number' | 'list' | 'bool' }> = {
  SERVICE_CLUSTER_ETCD: { key: 'etcd', kind: 'list' },
  SERVICE_CLUSTER_NATS: { key: 'nats', kind: 'list' },
  SERVICE_CLUSTER_PORT: { key: 'port', kind: 'int' },
  SERVICE_CLUSTER_ADVERTISE: { key: 'advertise', kind: 'string' },
  SERVICE_CLUSTER_LEASE_SECONDS: { key: 'lease_seconds', kind: 'int' },
  SERVICE_CLUSTER_STREAM_REPLICAS: { key: 'stream_replicas', kind: 'int' },
  SERVICE_CLUSTER_DEAD_GRACE_SECONDS: { key: 'dead_grace_seconds', kind: 'int' },
  SERVICE_CLUSTER_HEDGE_MS: { key: 'hedge_ms', kind: 'int' },
  SERVICE_CLUSTER_SNAPSHOT_ENTRIES: { key: 'snapshot_entries', kind: 'int' },
  SERVICE_CLUSTER_SNAPSHOT_MINUTES: { key: 'snapshot_minutes', kind: 'number' },
  SERVICE_CLUSTER_ENABLE_TLS: { key: 'enable_tls', kind: 'bool' },
};

/** The spellings a boolean variable takes; anything else stops start-up. */
const BOOL: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false, on: true, off: false };

function boolOf(name: string, raw: string): boolean {
  const b = Object.hasOwn(BOOL, raw.toLowerCase()) ? BOOL[raw.toLowerCase()] : undefined;
  if (b === undefined) throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a boolean (true, false, 1, 0, on, off)`);
  return b;
}

export class ConfigError extends Error {}

const check = Compile(ConfigSchema);

function readJson(path: string, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`${what} (${path}): ${e instanceof Error ? e.message : String(e)}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

import { PROJECT_ROOT } from '../shared/paths.js';

export { PROJECT_ROOT };

/**
 * `overrides` (the `quiver serve` flags) win over the environment; `flagNames` maps their keys to
 * the flag spelling, so an error names what the user typed.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<FileConfig> = {},
  flagNames: Partial<Record<keyof FileConfig, string>> = {},
): Config {
  const merged: Record<string, unknown> = readJson(join(PROJECT_ROOT, 'config', 'default.json'), 'config/default.json');
  const file = env.SERVICE_CONFIG;
  if (file !== undefined && file !== '') {
    const fromFile = readJson(resolve(file), 'SERVICE_CONFIG');
    // A file's cluster section names only what it changes; the rest keeps the defaults.
    if (isObject(fromFile.cluster) && isObject(merged.cluster)) fromFile.cluster = { ...merged.cluster, ...fromFile.cluster };
    Object.assign(merged, fromFile);
  }
  for (const [name, { key, kind }] of Object.entries(ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (kind === 'string') {
      merged[key] = raw;
    } else if (kind === 'bool') {
      merged[key] = boolOf(name, raw);
    } else {
      const n = Number(raw);
      if (!Number.isFinite(n) || (kind === 'int' && !Number.isInteger(n))) {
        throw new ConfigError(`${name}=${JSON.stringify(raw)} is not ${kind === 'int' ? 'an integer' : 'a number'}`);
      }
      merged[key] = n;
    }
  }
  // A cluster section that is not an object is left for the schema check to name.
  const cluster: Record<string, unknown> = isObject(merged.cluster) ? { ...merged.cluster } : {};
  for (const [name, { key, kind }] of Object.entries(CLUSTER_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (kind === 'string') cluster[key] = raw;
    else if (kind === 'bool') cluster[key] = boolOf(name, raw);
    else if (kind === 'int' || kind === 'number') {
      const n = Number(raw);
      if (kind === 'int' ? !Number.isInteger(n) : !Number.isFinite(n)) throw new ConfigError(`${name}=${JSON.stringify(raw)} is not ${kind === 'int' ? 'an integer' : 'a number'}`);
      cluster[key] = n;
    } else {
      const items = raw.split(',').map((x) => x.trim());
      const bad = items.find((x) => !new RegExp(ENDPOINT).test(x) || Number(x.slice(x.lastIndexOf(':') + 1)) > 65535);
      if (bad !== undefined) {
        throw new ConfigError(`${name}=${JSON.stringify(raw)}: ${bad === '' ? 'an empty item' : JSON.stringify(bad)} is not a host:port endpoint (e.g. http://127.0.0.1:2379, comma-separated)`);
      }
      cluster[key] = items;
    }
  }
  if (isObject(merged.cluster)) merged.cluster = cluster;
  Object.assign(merged, overrides);
  if (!check.Check(merged)) {
    const first = check.Errors(merged)[0];
    const where = first?.instancePath ? first.instancePath.slice(1) : '';
    // cluster/etcd/0 is named by its variable, SERVICE_CLUSTER_ETCD.
    const clusterKey = where.startsWith('cluster/') ? where.split('/')[1] : undefined;
    const envName =
      (where in overrides ? flagNames[where as keyof FileConfig] : undefined) ??
      Object.entries(ENV).find(([, v]) => v.key === where)?.[0] ??
      (clusterKey === undefined ? undefined : Object.entries(CLUSTER_ENV).find(([, v]) => v.key === clusterKey)?.[0]);
    const allowed = first?.keyword === 'enum' ? (first.params as { allowedValues?: unknown[] }).allowedValues : undefined;
    throw new ConfigError(
      `invalid configuration${where ? ` '${where}'${envName ? ` (${envName})` : ''}` : ''}: ${first?.message ?? 'unknown error'}${allowed ? ` (${allowed.join(', ')})` : ''}`,
    );
  }
  const cfg = merged as FileConfig;
  // One switch: the control plane (etcd) and the write log (NATS) run together or not at all.
  if ((cfg.cluster.etcd.length > 0) !== (cfg.cluster.nats.length > 0)) {
    const [set, missing] = cfg.cluster.etcd.length > 0 ? ['SERVICE_CLUSTER_ETCD', 'SERVICE_CLUSTER_NATS'] : ['SERVICE_CLUSTER_NATS', 'SERVICE_CLUSTER_ETCD'];
    throw new ConfigError(`cluster mode needs both SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS: ${set} is set but ${missing} is not (cluster.${missing === 'SERVICE_CLUSTER_ETCD' ? 'etcd' : 'nats'} is empty)`);
  }
  checkTls(cfg);
  return {
    ...cfg,
    ...(cfg.tls_cert === undefined ? {} : { tls_cert: resolve(cfg.tls_cert) }),
    ...(cfg.tls_key === undefined ? {} : { tls_key: resolve(cfg.tls_key) }),
    ...(cfg.tls_ca_cert === undefined ? {} : { tls_ca_cert: resolve(cfg.tls_ca_cert) }),
    data_dir: resolve(cfg.data_dir),
    workers: cfg.shards === 0 ? availableParallelism() : cfg.shards,
    cluster: { ...cfg.cluster, advertise: cfg.cluster.advertise ?? `${cfg.host}:${cfg.cluster.port}` },
  };
}

/** The NATS servers holding the shards' write logs, or null when not in cluster mode. */
export function clusterNats(config: Pick<Config, 'cluster'>): string[] | null {
  return clusterEnabled(config) ? config.cluster.nats : null;
}

/** Whether access lines are written: switched on, and the log level lets info lines through. */
export function accessLogEnabled(config: Pick<Config, 'access_log' | 'log_level'>): boolean {
  return config.access_log && (config.log_level === 'info' || config.log_level === 'debug' || config.log_level === 'trace');
}

/** TLS settings that cannot all apply are refused, naming them, rather than half applied or left unused (tls.ts). */
function checkTls(cfg: FileConfig): void {
  const cluster = cfg.cluster.etcd.length > 0;
  if (cfg.enable_tls || cfg.cluster.enable_tls) {
    if (cfg.tls_cert === undefined || cfg.tls_key === undefined) {
      throw new ConfigError(`${cfg.enable_tls ? 'enable_tls (SERVICE_ENABLE_TLS)' : 'cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS)'} needs tls_cert (SERVICE_TLS_CERT) and tls_key (SERVICE_TLS_KEY): the PEM files of the certificate and its private key`);
    }
  } else if (cfg.tls_cert !== undefined || cfg.tls_key !== undefined) {
    // Files given with TLS off would be silently unused: a server meant to be private would serve in clear text.
    throw new ConfigError('tls_cert (SERVICE_TLS_CERT) or tls_key (SERVICE_TLS_KEY) is set but enable_tls (SERVICE_ENABLE_TLS) is off: turn it on to serve TLS, or unset them');
  }
  if (cfg.cluster.enable_tls) {
    if (!cluster) throw new ConfigError('cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) is for cluster mode: set SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS, or turn it off');
    if (cfg.tls_ca_cert === undefined) throw new ConfigError('cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) needs tls_ca_cert (SERVICE_TLS_CA_CERT): the CA that signs every node\'s certificate, which the internal port requires of its peers');
  } else if (cfg.tls_ca_cert !== undefined) {
    throw new ConfigError('tls_ca_cert (SERVICE_TLS_CA_CERT) is set but cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) is off: it is the internal port\'s CA; turn that on, or unset it');
  }
  // Keys would still cross the internal port in clear text.
  if (cfg.enable_tls && cluster && !cfg.cluster.enable_tls) {
    throw new ConfigError('enable_tls (SERVICE_ENABLE_TLS) in cluster mode needs cluster.enable_tls (SERVICE_CLUSTER_ENABLE_TLS) too: keys and requests would otherwise cross the internal port in clear text');
  }
}
