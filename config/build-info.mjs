// Run by `npm run build` after tsc: writes dist/build-info.json with the git commit the build was
// made from, so GET / and the gRPC health check report it without needing git at run time.
// Outside a git checkout of this project (a tarball, a copy without .git) the commit is forty
// zeros unless QUIVER_COMMIT names it: the field is always a 40-character hex string, as Qdrant
// clients read it.

import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));
const UNKNOWN = '0'.repeat(40);

function git(...args) {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

function commit() {
  // A build from a tree without .git (a container build from a tarball) can be told its commit.
  const given = process.env.QUIVER_COMMIT;
  if (given !== undefined && /^[0-9a-f]{40}$/.test(given)) return given;
  try {
    // A tree without its own .git inside another repository must not report that repository's commit.
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== root) return UNKNOWN;
    const head = git('rev-parse', 'HEAD');
    return /^[0-9a-f]{40}$/.test(head) ? head : UNKNOWN;
  } catch {
    return UNKNOWN;
  }
}

mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'build-info.json'), `${JSON.stringify({ commit: commit() })}\n`);
