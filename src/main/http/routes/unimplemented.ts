// Qdrant endpoints Quiver does not offer (docs/interface.md section 4.8): they exist, so clients get a clear
// 501 in the data envelope instead of a 404, at the spec's paths and at Qdrant's own paths
// where those differ.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QuiverError } from '../../../shared/errors.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const UNIMPLEMENTED: readonly (readonly [Method, string, string])[] = [
  ['GET', '/aliases', 'Aliases'],
  ['POST', '/aliases', 'Aliases'],
  ['POST', '/collections/aliases', 'Aliases'],
  ['GET', '/collections/:collection_name/aliases', 'Aliases'],
  ['POST', '/collections/:collection_name/snapshots', 'Snapshots'],
  ['GET', '/collections/:collection_name/snapshots', 'Snapshots'],
  ['GET', '/collections/:collection_name/snapshots/:snapshot_name', 'Snapshots'],
  ['DELETE', '/collections/:collection_name/snapshots/:snapshot_name', 'Snapshots'],
  ['PUT', '/collections/:collection_name/snapshots/recover', 'Snapshot recovery'],
  ['PUT', '/collections/:collection_name/snapshots/:snapshot_name/recover', 'Snapshot recovery'],
  ['POST', '/collections/:collection_name/operations/flush', 'Flush'],
  ['POST', '/collections/:collection_name/operations/optimize', 'Optimization'],
  ['POST', '/collections/:collection_name/operations/rebuild_index', 'Index rebuild'],
  ['GET', '/collections/:collection_name/status', 'Collection status'],
  ['POST', '/collections/:collection_name/points/search/groups', 'Grouped search'],
  ['POST', '/collections/:collection_name/points/query/groups', 'Grouped query'],
  ['POST', '/collections/:collection_name/points/recommend', 'Recommendations'],
  ['POST', '/collections/:collection_name/points/recommend/batch', 'Recommendations'],
  ['POST', '/collections/:collection_name/points/recommend/groups', 'Recommendations'],
  ['POST', '/collections/:collection_name/points/discover', 'Discovery'],
  ['POST', '/collections/:collection_name/points/discover/batch', 'Discovery'],
];

export const unimplementedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const [method, url, feature] of UNIMPLEMENTED) {
    app.route({
      method,
      url,
      // The body is never read: there is nothing to validate.
      handler: async () => {
        throw QuiverError.featureNotImplemented(feature);
      },
    });
  }
};
