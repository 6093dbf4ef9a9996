// npm's `prestart` hook: `npm start` never compiles (install's `prepare` did), but without a
// build it says how to make one instead of failing on a missing module.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'src', 'main', 'index.js');
if (!existsSync(entry)) {
  process.stderr.write('quiver: no build in dist/; run `npm run build` (or `npm install`, which builds), then `npm start`\n');
  process.exit(1);
}
