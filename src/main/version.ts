import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './config.js';

/** The Qdrant REST API version Quiver answers as, so Qdrant clients' compatibility check passes. */
export const QDRANT_API_VERSION = '1.19.0';

export const QUIVER_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** What GET / and the gRPC health check call themselves, as Qdrant's say `qdrant - vector search engine`. */
export const TITLE = 'quiver - vector search engine';

const UNKNOWN_COMMIT = '0'.repeat(40);

/**
 * The git commit of the build: `npm run build` writes it to dist/build-info.json
 * (config/build-info.mjs). Running from source, or from a build made without git, it is forty zeros.
 */
export const BUILD_COMMIT = ((): string => {
  try {
    const { commit } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'dist', 'build-info.json'), 'utf8')) as { commit?: unknown };
    return typeof commit === 'string' && /^[0-9a-f]{40}$/.test(commit) ? commit : UNKNOWN_COMMIT;
  } catch {
    return UNKNOWN_COMMIT;
  }
})();
