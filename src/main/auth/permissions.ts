// Who may call what: the permission bits of access tokens (docs/interface.md section 2.2) and the one table that
// gives every route an access rule (docs/decisions.md section 3). The REST hook and the gRPC
// interceptor both look a request up here; nothing else decides.
//
// A route with no entry is refused, never open. Adding a route means adding its line below;
// the route x credential matrix test lists the routes the running app registers and fails on
// any without an entry.

import { POINT_OPS, type PointOpSpec } from '../../shared/point-ops.js';

/** Permission bits of an access token. `admin` is independent of `read` and `write`. */
export const PERM = { read: 1, write: 2, admin: 4 } as const;
export type PermName = keyof typeof PERM;
const CANONICAL: readonly PermName[] = ['read', 'write', 'admin'];

/**
 * The access rule of a route. With auth enabled:
 * - `public`: anyone, credentials are not looked at (health checks, login).
 * - `read` / `write`: an access token with that bit, or an admin JWT.
 * - `list`: listing collections: as `read`; a scoped credential may list (and sees only the
 *   collections it may read) when it may read any.
 * - `manage`: changing a collection itself (create, update, delete, indexes, snapshots, cluster
 *   moves): as `write` for a key over every collection; a scoped credential needs it granted on
 *   the collection (scopes.ts MANAGE), which a tenant-bound scope never is.
 * - `admin`: an access token with the admin bit, or an admin JWT.
 * - `token_admin`: as `admin`; while auth is disabled, refused with 403 for everyone (docs/interface.md section 3.1, 5.3).
 * - `admin_jwt`: an admin JWT only, whether auth is enabled or not.
 * - `admin_bootstrap`: anyone while no admin user exists, afterwards as `admin`.
 * - `authenticated`: any valid credential (the not-found handler: no probing without one).
 * While auth is disabled, `read`, `list`, `write`, `manage` and `authenticated` are open to everyone; `admin`,
 * `admin_jwt` and `admin_bootstrap` keep asking for the credential.
 */
export type Access = 'public' | 'read' | 'list' | 'write' | 'manage' | 'admin' | 'token_admin' | 'admin_jwt' | 'admin_bootstrap' | 'authenticated';

/**
 * Each point operation's rule: its kind (read or write) in the registry; the writes the main
 * thread coordinates (field indexes, vector names) change the collection itself: manage.
 */
function pointAccess(spec: PointOpSpec): Access {
  return spec.kind === 'write' && spec.coordinated === 'main' ? 'manage' : spec.kind;
}
const POINT_ACCESS: Readonly<Record<string, Access>> = Object.fromEntries(Object.entries(POINT_OPS).map(([route, spec]: [string, PointOpSpec]) => [route, pointAccess(spec)]));
const GRPC_POINT_ACCESS: Readonly<Record<string, Access>> = Object.fromEntries(
  Object.values(POINT_OPS).flatMap((spec: PointOpSpec) => (spec.grpc === null ? [] : [[`/qdrant.Points/${spec.grpc}`, pointAccess(spec)]])),
);

/**
 * REST routes, keyed `METHOD url` exactly as fastify registers them (parameter names do not
 * matter: `:collection_name` and `:name` match alike). HEAD takes its GET's rule.
 */
export const REST_ACCESS: Readonly<Record<string, Access>> = {
  // health: always open
  'GET /': 'public',
  'GET /healthz': 'public',
  'GET /livez': 'public',
  'GET /readyz': 'public',

  // Prometheus metrics: collection names and traffic, so a read credential (a monitoring key)
  'GET /metrics': 'read',
  // telemetry: version, start time and the hnswlib build; read, as the metrics
  'GET /telemetry': 'read',
  // issues name collections and keys: read, as the telemetry; clearing them changes state
  'GET /issues': 'read',
  'GET /cluster/telemetry': 'read',
  'DELETE /issues': 'write',
  // cluster status: node ids and addresses; read, as the telemetry
  'GET /cluster': 'read',
  // cluster changes (moving replicas between nodes, removing a node): writes, as creating or
  // deleting a collection (open while auth is disabled, as Qdrant without an API key)
  'DELETE /cluster/peer/:peer_id': 'manage',
  'POST /collections/:collection_name/cluster': 'manage',

  // the API description (OpenAPI document and its interactive page): public, it holds no data
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
  'GET /docs/': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  'GET /docs/static/*': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',

  // the web dashboard's static files, each by its exact route (never a prefix): they hold no data,
  // the page asks for a credential and sends it with every API call it makes
  'GET /dashboard': 'public',
  'GET /dashboard/': 'public',
  'GET /dashboard/style.css': 'public',
  'GET /dashboard/app.js': 'public',

  // authentication (docs/interface.md section 4.1-4.6, docs/decisions.md section 3)
  'POST /auth/login': 'public',
  'POST /auth/admin': 'admin_bootstrap',
  'POST /auth/admin/reset-password': 'admin',
  'PATCH /auth/enabled': 'admin_jwt',
  'POST /auth/api_key': 'token_admin',
  'GET /auth/api_keys': 'token_admin',
  'DELETE /auth/api_key/:token_id': 'token_admin',
  'POST /auth/api_key/:token_id/rotate': 'token_admin',
  'PATCH /auth/api_key/:token_id': 'token_admin',

  // collections
  'GET /collections': 'list',
  'GET /collections/:collection_name': 'read',
  'GET /collections/:collection_name/exists': 'read',
  'GET /collections/:collection_name/optimizations': 'read',
  'GET /collections/:collection_name/cluster': 'read',
  'PUT /collections/:collection_name': 'manage',
  'PATCH /collections/:collection_name': 'manage',
  'DELETE /collections/:collection_name': 'manage',

  // points: the reads Quiver answers 501 to
  'POST /collections/:collection_name/points/search/groups': 'read',
  'POST /collections/:collection_name/points/query/groups': 'read',
  'POST /collections/:collection_name/points/recommend': 'read',
  'POST /collections/:collection_name/points/recommend/batch': 'read',
  'POST /collections/:collection_name/points/recommend/groups': 'read',
  'POST /collections/:collection_name/points/discover': 'read',
  'POST /collections/:collection_name/points/discover/batch': 'read',
  'POST /collections/:collection_name/points/search/matrix/pairs': 'read',
  'POST /collections/:collection_name/points/search/matrix/offsets': 'read',

  // the point operations (their registry, src/shared/point-ops.ts, says which read and which write)
  ...POINT_ACCESS,

  // docs/interface.md section 4.8 (501 today): reads are read, anything that would change state is write
  'GET /aliases': 'list',
  'GET /collections/:collection_name/aliases': 'read',
  'POST /aliases': 'manage',
  'POST /collections/aliases': 'manage',
  'GET /collections/:collection_name/snapshots': 'read',
  'POST /collections/:collection_name/snapshots': 'manage',
  'GET /collections/:collection_name/snapshots/:snapshot_name': 'read',
  'DELETE /collections/:collection_name/snapshots/:snapshot_name': 'manage',
  'PUT /collections/:collection_name/snapshots/:snapshot_name/recover': 'manage',
  'PUT /collections/:collection_name/snapshots/recover': 'manage',
  'POST /collections/:collection_name/operations/flush': 'manage',
  'POST /collections/:collection_name/operations/optimize': 'manage',
  'POST /collections/:collection_name/operations/rebuild_index': 'manage',
  'GET /collections/:collection_name/status': 'read',
  // Qdrant 1.19's vector names on a live collection (501 today): collection changes, as PATCH
  'PUT /collections/:collection_name/vectors/:vector_name': 'manage',
  'DELETE /collections/:collection_name/vectors/:vector_name': 'manage',
};

/**
 * gRPC methods, keyed by the full method path (`/package.Service/Method`), for the gRPC
 * interceptor. Same rules as REST; a method with no entry is refused.
 */
export const GRPC_ACCESS: Readonly<Record<string, Access>> = {
  '/qdrant.Qdrant/HealthCheck': 'public',

  '/qdrant.Collections/Get': 'read',
  '/qdrant.Collections/List': 'list',
  '/qdrant.Collections/CollectionExists': 'read',
  '/qdrant.Collections/CollectionClusterInfo': 'read',
  '/qdrant.Collections/ListCollectionAliases': 'read',
  '/qdrant.Collections/ListAliases': 'list',
  '/qdrant.Collections/Create': 'manage',
  '/qdrant.Collections/Update': 'manage',
  '/qdrant.Collections/Delete': 'manage',
  '/qdrant.Collections/UpdateAliases': 'manage',
  '/qdrant.Collections/UpdateCollectionClusterSetup': 'manage',
  // Unimplemented in Quiver (they answer UNIMPLEMENTED once let through), ruled like their kin.
  '/qdrant.Collections/ListShardKeys': 'read',
  '/qdrant.Collections/CreateShardKey': 'manage',
  '/qdrant.Collections/DeleteShardKey': 'manage',

  ...GRPC_POINT_ACCESS,
  // Unimplemented point methods, ruled like their kin.
  '/qdrant.Points/SearchGroups': 'read',
  '/qdrant.Points/QueryGroups': 'read',
  '/qdrant.Points/Recommend': 'read',
  '/qdrant.Points/RecommendBatch': 'read',
  '/qdrant.Points/RecommendGroups': 'read',
  '/qdrant.Points/Discover': 'read',
  '/qdrant.Points/DiscoverBatch': 'read',
  '/qdrant.Points/SearchMatrixPairs': 'read',
  '/qdrant.Points/SearchMatrixOffsets': 'read',
};

/** The gRPC methods whose request names no one collection; every other one names it in `collection_name`. */
export const GRPC_NO_COLLECTION: ReadonlySet<string> = new Set([
  '/qdrant.Qdrant/HealthCheck',
  '/qdrant.Collections/List',
  '/qdrant.Collections/ListAliases',
  '/qdrant.Collections/UpdateAliases',
]);

/** `:collection_name` and `:name` alike become `:`, so a table key matches any parameter names. */
export function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:[^/]+/g, ':')}`;
}

const REST_BY_KEY: ReadonlyMap<string, Access> = new Map(Object.entries(REST_ACCESS).map(([k, v]) => {
  const space = k.indexOf(' ');
  return [routeKey(k.slice(0, space), k.slice(space + 1)), v];
}));

/** The rule of a REST route as fastify registered it, or undefined: then the route is refused. */
export function restAccess(method: string, url: string): Access | undefined {
  const m = method.toUpperCase();
  return REST_BY_KEY.get(routeKey(m === 'HEAD' ? 'GET' : m, url));
}

/** The rule of a gRPC method path, or undefined: then the call is refused. */
export function grpcAccess(path: string): Access | undefined {
  return Object.hasOwn(GRPC_ACCESS, path) ? GRPC_ACCESS[path] : undefined;
}

/**
 * A permission string as a bitmask: comma-separated names from read, write, admin, in any order,
 * each at most once, nothing else (no spaces, no empty names). Null when it breaks the rule.
 */
export function parsePermission(text: string): number | null {
  if (text === '') return null;
  let mask = 0;
  for (const name of text.split(',')) {
    if (!Object.hasOwn(PERM, name)) return null;
    const bit = PERM[name as PermName];
    if ((mask & bit) !== 0) return null;
    mask |= bit;
  }
  return mask;
}

/** The canonical permission string: names in the order read, write, admin. */
export function formatPermission(mask: number): string {
  return CANONICAL.filter((n) => (mask & PERM[n]) !== 0).join(',');
}

export const PERMISSION_RULE = 'permission must be a comma-separated set of read, write, admin (each at most once, nothing else)';
