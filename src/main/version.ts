import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './config.js';

/** The Qdrant REST API version Quiver answers as, so Qdrant clients' compatibility check passes. */
export const QDRANT_API_VERSION = '1.19.0';

export const QUIVER_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
