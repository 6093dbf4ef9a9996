// Run by `npm run build`: bundles the dashboard's script (src/dashboard/app.ts and the modules it
// imports, the PCA library ml-pca among them) into the one file the page loads,
// dist/src/dashboard/app.js, with index.html and style.css copied beside it. One file, because
// the server serves a fixed list of dashboard routes (src/main/http/routes/dashboard.ts) and the
// page's CSP allows scripts from the server only.
// `tsc -p src/dashboard/tsconfig.json` type-checks the same sources first; rolldown only strips
// the types. The library is a dev dependency: it is needed here, at build time, never at run time.

import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'src', 'dashboard');
// Earlier builds emitted one file per module here; only the bundle is served.
rmSync(out, { recursive: true, force: true });
await build({
  input: join(root, 'src', 'dashboard', 'app.ts'),
  cwd: root,
  platform: 'browser',
  logLevel: 'warn',
  output: { file: join(out, 'app.js'), format: 'esm' },
});
// The page and its stylesheet beside the script, so that dist/ alone serves the dashboard (the
// Docker image's run stage and the npm package carry dist/, not src/).
for (const f of ['index.html', 'style.css']) copyFileSync(join(root, 'src', 'dashboard', f), join(out, f));
