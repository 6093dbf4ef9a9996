#!/usr/bin/env node
// @ts-check
// postinstall: compile src/native/float-text.cc (float32 arrays as JSON text, see
// src/shared/float-text.ts) into native/float-text/ (git-ignored). It never fails the install:
// without it (no C++17 toolchain, QUIVER_SKIP_NATIVE_BUILD=1) responses with vectors are written
// by the JavaScript in src/shared/float.ts, the same text about three times slower.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSmallAddon } from './node-gyp.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

buildSmallAddon({
  label: 'float text',
  here: HERE,
  out: process.env.QUIVER_FLOAT_TEXT_DIR ? resolve(process.env.QUIVER_FLOAT_TEXT_DIR) : join(HERE, '..', '..', 'native', 'float-text'),
  target: 'float_text',
  sources: ['float-text.cc'],
  // std::to_chars for float needs C++17 (GCC 11 and later); -O2 as node-gyp's Release.
  gyp: { 'cflags_cc!': ['-std=gnu++17'], 'cflags_cc+': ['-std=c++17', '-O2'] },
  smoke: (addon) =>
    `const out = new Uint8Array(128); const end = require(${JSON.stringify(addon)}).writeArrayJson(new Float32Array([0.1, -2, 1e-7]), out, 0);
     const text = Buffer.from(out.subarray(0, end)).toString('latin1');
     if (text !== '[0.1,-2,1e-7]') throw new Error('wrote ' + text);`,
});
