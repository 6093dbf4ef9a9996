#!/usr/bin/env node
// @ts-check
// postinstall: compile src/native/malloc-trim.c (glibc's malloc_trim for JavaScript; see
// src/shared/malloc-trim.ts) into native/malloc-trim/ (git-ignored). Plain JavaScript on Node
// built-ins only, like build-hnswlib.mjs. It never fails the install: without it (not Linux with
// glibc, no toolchain, QUIVER_SKIP_NATIVE_BUILD=1) the server runs as before, only without
// handing glibc's free arena pages back after a burst.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSmallAddon } from './node-gyp.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

buildSmallAddon({
  label: 'malloc_trim',
  here: HERE,
  out: process.env.QUIVER_MALLOC_TRIM_DIR ? resolve(process.env.QUIVER_MALLOC_TRIM_DIR) : join(HERE, '..', '..', 'native', 'malloc-trim'),
  target: 'malloc_trim',
  sources: ['malloc-trim.c'],
  requires: () => {
    if (process.platform !== 'linux') return `glibc only, this is ${process.platform}`;
    const report = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report?.getReport() ?? {});
    return report.header?.glibcVersionRuntime === undefined ? 'not glibc' : null;
  },
  smoke: (addon) => `if (typeof require(${JSON.stringify(addon)}).trim() !== 'boolean') throw new Error('trim() gave no boolean')`,
});
