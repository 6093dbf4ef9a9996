// npm's `prepare` hook (run after `npm install` / `npm ci` in this folder): runs `npm run build`
// once, so `npm start` only runs node. With dev dependencies omitted
// (`npm ci --omit=dev`) TypeScript is absent: an existing dist/ is kept as it is, and without
// one the install still succeeds, since `npm start` then says how to build.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  const built = existsSync(join(root, 'dist', 'src', 'main', 'index.js'));
  console.log(
    built
      ? 'quiver: TypeScript is not installed (dev dependencies omitted); using the existing build in dist/'
      : 'quiver: TypeScript is not installed and dist/ holds no build; build on a machine with dev dependencies (npm ci && npm run build) and copy dist/ here',
  );
  process.exit(0);
}
// The build itself is `npm run build` (package.json says what it runs): one list of steps.
const npm = process.env.npm_execpath;
const r = npm !== undefined
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit', cwd: root })
  : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
