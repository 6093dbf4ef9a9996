// What the OpenAPI document says of each route: its tag, summary, operationId (Qdrant's where
// Qdrant has the route) and what it answers. One onRoute hook applies the table as routes
// register, so the document, the /docs page (grouped by tag) and clients generated from it
// agree with the routes. A route with no line fails the boot; a hidden route (the document's
// own pages) needs none.
//
// Data routes answer the success envelope around their result, and the data error envelope on
// 4xx and 5xx; the auth routes answer their own message envelope on failure.

import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import Type from 'typebox';
import {
  ApiKeyCreatedOut,
  ApiKeyInfoOut,
  AuthMessageOut,
  CollectionClusterOut,
  CollectionExistsOut,
  OptimizationsOut,
  IssuesOut,
  ClusterTelemetryOut,
  CollectionInfoOut,
  CollectionsListOut,
  ErrorOut,
  LoginOut,
  Ok,
  VersionOut,
} from '../../shared/schemas/responses.js';
import { POINT_OPS, type PointOpSpec } from '../../shared/point-ops.js';
import { ClusterStatusOut } from './routes/cluster.js';
import { TelemetryOut } from './routes/telemetry.js';
import { UNIMPLEMENTED } from './routes/unimplemented.js';

type Tag = 'Service' | 'Auth' | 'Collections' | 'Points' | 'Search' | 'Indexes' | 'Not implemented';

interface RouteDoc {
  tag: Tag;
  operationId: string;
  summary: string;
  /** The `result` of a data route, or the whole body (`body`), or plain text (`text`). */
  result?: TSchema;
  body?: TSchema;
  text?: true;
}

export const TAGS: readonly { name: Tag; description: string }[] = [
  { name: 'Service', description: 'Version, health checks and metrics' },
  { name: 'Auth', description: 'Admin user, login, API keys and the auth switch' },
  { name: 'Collections', description: 'Create, inspect, change and delete collections' },
  { name: 'Points', description: 'Write, read, count and scroll points and payloads' },
  { name: 'Search', description: 'Similarity search and the Query API' },
  { name: 'Indexes', description: 'Payload field indexes' },
  { name: 'Not implemented', description: 'Qdrant endpoints Quiver does not offer: they answer 501' },
];

const C = '/collections/:collection_name';
const DOCS: Readonly<Record<string, RouteDoc>> = {
  'GET /': { tag: 'Service', operationId: 'root', summary: 'Name, version and commit of the running server', body: VersionOut },
  'GET /healthz': { tag: 'Service', operationId: 'healthz', summary: 'Kubernetes healthz endpoint', text: true },
  'GET /livez': { tag: 'Service', operationId: 'livez', summary: 'Kubernetes livez endpoint', text: true },
  'GET /readyz': { tag: 'Service', operationId: 'readyz', summary: 'Kubernetes readyz endpoint: 503 until every shard is loaded', text: true },
  'GET /metrics': { tag: 'Service', operationId: 'metrics', summary: 'Prometheus metrics (text exposition format)', text: true },
  'GET /cluster': { tag: 'Service', operationId: 'cluster_status', summary: "The cluster's state and members, from this node's view (disabled on a single node)", result: ClusterStatusOut },
  'DELETE /cluster/peer/:peer_id': { tag: 'Service', operationId: 'remove_peer', summary: 'Remove a node: its replicas are moved away first (force: dropped), then it leaves', result: Type.Boolean() },
  'GET /cluster/telemetry': { tag: 'Service', operationId: 'cluster_telemetry', summary: "Every collection's shards and replicas (peer, state, points), and the cluster's peers", result: ClusterTelemetryOut },
  'GET /issues': { tag: 'Service', operationId: 'get_issues', summary: 'Unindexed fields that slow filtered reads keep hitting, each with the index to create', result: IssuesOut },
  'DELETE /issues': { tag: 'Service', operationId: 'clear_issues', summary: 'Clear the issues', result: Type.Boolean() },
  'GET /telemetry': { tag: 'Service', operationId: 'telemetry', summary: 'Version, start time, system and the hnswlib-node build the workers loaded', result: TelemetryOut },

  'POST /auth/login': { tag: 'Auth', operationId: 'login', summary: 'Log in as the admin user: an admin JWT', body: LoginOut },
  'POST /auth/admin': { tag: 'Auth', operationId: 'create_admin', summary: 'Create the admin user', body: AuthMessageOut },
  'POST /auth/admin/reset-password': { tag: 'Auth', operationId: 'reset_admin_password', summary: 'Reset the admin password (revokes earlier JWTs)', body: AuthMessageOut },
  'PATCH /auth/enabled': { tag: 'Auth', operationId: 'set_auth_enabled', summary: 'Enable or disable authentication (admin JWT only)', result: Type.Boolean() },
  'POST /auth/api_key': { tag: 'Auth', operationId: 'create_api_key', summary: 'Create an API key (the key is shown once)', body: ApiKeyCreatedOut },
  'GET /auth/api_keys': { tag: 'Auth', operationId: 'list_api_keys', summary: 'List API keys', body: Type.Array(ApiKeyInfoOut) },
  'DELETE /auth/api_key/:token_id': { tag: 'Auth', operationId: 'delete_api_key', summary: 'Delete an API key', body: AuthMessageOut },
  'PATCH /auth/api_key/:token_id': { tag: 'Auth', operationId: 'update_api_key', summary: 'Change an API key: name, description, permission or scope (the key stays)', body: ApiKeyInfoOut },
  'POST /auth/api_key/:token_id/rotate': { tag: 'Auth', operationId: 'rotate_api_key', summary: 'Rotate an API key: a new key, the old one stops working', body: ApiKeyCreatedOut },

  'GET /collections': { tag: 'Collections', operationId: 'get_collections', summary: 'List collections', result: CollectionsListOut },
  [`GET ${C}`]: { tag: 'Collections', operationId: 'get_collection', summary: 'Collection info', result: CollectionInfoOut },
  [`PUT ${C}`]: { tag: 'Collections', operationId: 'create_collection', summary: 'Create collection', result: Type.Boolean() },
  [`PATCH ${C}`]: { tag: 'Collections', operationId: 'update_collection', summary: 'Update collection parameters', result: Type.Boolean() },
  [`DELETE ${C}`]: { tag: 'Collections', operationId: 'delete_collection', summary: 'Delete collection (the name is free once this answers)', result: Type.Boolean() },
  [`GET ${C}/exists`]: { tag: 'Collections', operationId: 'collection_exists', summary: 'Check the existence of a collection', result: CollectionExistsOut },
  [`GET ${C}/optimizations`]: { tag: 'Collections', operationId: 'get_optimizations', summary: "Background graph work per shard (a shard stands for a segment): running, and idle shards with ?with=idle_segments", result: OptimizationsOut },
  [`GET ${C}/cluster`]: { tag: 'Collections', operationId: 'collection_cluster_info', summary: 'Where the shards of a collection live', result: CollectionClusterOut },
  [`POST ${C}/cluster`]: { tag: 'Collections', operationId: 'update_collection_cluster', summary: 'Move, replicate or drop a shard replica, or abort a transfer (cluster mode)', result: Type.Boolean() },

  // The point operations' entries come from their registry (src/shared/point-ops.ts).
  ...Object.fromEntries(Object.entries(POINT_OPS).map(([route, spec]: [string, PointOpSpec]) => [route, spec.doc])),
};

/** Qdrant's operationIds of the routes that answer 501 (made up where Qdrant has no such path). */
const UNIMPLEMENTED_IDS: Readonly<Record<string, string>> = {
  'GET /aliases': 'get_collections_aliases',
  'POST /aliases': 'update_aliases_spec',
  'POST /collections/aliases': 'update_aliases',
  [`GET ${C}/aliases`]: 'get_collection_aliases',
  [`POST ${C}/snapshots`]: 'create_snapshot',
  [`GET ${C}/snapshots`]: 'list_snapshots',
  [`GET ${C}/snapshots/:snapshot_name`]: 'get_snapshot',
  [`DELETE ${C}/snapshots/:snapshot_name`]: 'delete_snapshot',
  [`PUT ${C}/snapshots/recover`]: 'recover_from_snapshot',
  [`PUT ${C}/snapshots/:snapshot_name/recover`]: 'recover_named_snapshot',
  [`POST ${C}/operations/flush`]: 'flush_collection',
  [`POST ${C}/operations/optimize`]: 'optimize_collection',
  [`POST ${C}/operations/rebuild_index`]: 'rebuild_index',
  [`GET ${C}/status`]: 'collection_status',
  [`POST ${C}/points/search/groups`]: 'search_point_groups',
  [`POST ${C}/points/query/groups`]: 'query_points_groups',
  [`POST ${C}/points/recommend`]: 'recommend_points',
  [`POST ${C}/points/recommend/batch`]: 'recommend_batch_points',
  [`POST ${C}/points/recommend/groups`]: 'recommend_point_groups',
  [`POST ${C}/points/discover`]: 'discover_points',
  [`POST ${C}/points/discover/batch`]: 'discover_batch_points',
  [`PUT ${C}/vectors/:vector_name`]: 'create_vector_name',
  [`DELETE ${C}/vectors/:vector_name`]: 'delete_vector_name',
};

function docOf(method: string, url: string): RouteDoc | undefined {
  const key = `${method} ${url}`;
  if (Object.hasOwn(DOCS, key)) return DOCS[key];
  const feature = UNIMPLEMENTED.find(([m, u]) => m === method && u === url)?.[2];
  const operationId = UNIMPLEMENTED_IDS[key];
  if (feature === undefined || operationId === undefined) return undefined;
  return { tag: 'Not implemented', operationId, summary: `${feature}: not implemented in Quiver (501)` };
}

function responses(doc: RouteDoc): Record<string, unknown> {
  const text = { content: { 'text/plain': { schema: Type.String() } } };
  if (doc.text === true) return { 200: { description: 'Plain text', ...text }, 503: { description: 'Not ready', ...text } };
  if (doc.tag === 'Auth') {
    const ok = doc.result !== undefined ? Ok(doc.result) : (doc.body ?? AuthMessageOut);
    return { 200: { description: 'Success', ...ok }, '4xx': { description: 'Refused', ...AuthMessageOut }, '5xx': { description: 'Failed', ...AuthMessageOut } };
  }
  const ok = doc.body ?? (doc.result !== undefined ? Ok(doc.result) : undefined);
  const err = { description: 'Error', ...ErrorOut };
  return { ...(ok === undefined ? { 501: err } : { 200: { description: 'Success', ...ok } }), '4xx': err, '5xx': err };
}

/** Gives each route its document entry as it registers; throws on a route with none. */
export function installRouteDocs(app: FastifyInstance): void {
  app.addHook('onRoute', (opts) => {
    if (opts.schema?.hide === true) return;
    const methods = (Array.isArray(opts.method) ? opts.method : [opts.method]).filter((m) => m !== 'HEAD');
    if (methods.length === 0) return;
    const doc = docOf(methods[0]!, opts.url);
    if (doc === undefined || methods.length > 1) {
      throw new Error(`route ${methods.join(',')} ${opts.url} has no entry in src/main/http/route-docs.ts`);
    }
    opts.schema = { ...opts.schema, tags: [doc.tag], summary: doc.summary, operationId: doc.operationId, response: responses(doc) };
  });
}
