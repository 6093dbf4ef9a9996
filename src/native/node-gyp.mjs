// @ts-check
// What both install-time builds (build-hnswlib.mjs, build-malloc-trim.mjs) need of node-gyp:
// where it is, and where Node's own headers are. Plain JavaScript on Node built-ins only: it runs
// before `tsc`, and under `npm ci --omit=dev`.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** npm passes its bundled node-gyp to lifecycle scripts; run by hand, find npm's own copy. */
export function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  for (const c of candidates) if (c && existsSync(c)) return c;
  throw new Error('node-gyp not found (npm bundles it; set npm_config_node_gyp)');
}

/**
 * Node's own headers, so node-gyp never downloads them: npm's nodedir setting, else the
 * include/node folder that Node's distributions install beside bin/node. null lets node-gyp
 * look in its cache (and download there as a last resort).
 * @returns {string | null}
 */
export function nodeHeaders() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? prefix : null;
}
