// Headless Chromium for the dashboard tests: Debian's /usr/bin/chromium driven by playwright-core
// (installed by .ci/install-chromium.sh; the tests skip where it is missing), a fresh profile per
// test file, and the page's message bar read the way every dashboard test reads it.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_PASSWORD, login, setEnabled } from './auth.js';
import { removeDir, startServer, type TestServer } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = resolve(import.meta.dirname, '..', 'artifacts');
export const haveChromium = existsSync(CHROMIUM);

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'quiver-chromium-'));
  // A new empty profile (playwright takes it as the persistent context's directory, not as an arg).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    // These keep Chromium off the network and the GPU, and its colours plain sRGB (the map test
    // compares pixels); playwright adds --headless itself.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--force-color-profile=srgb'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // Deletions ask for confirmation; the tests say yes.
  page.on('dialog', (d) => void d.accept());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The message bar once it says something matching (inside a test: it polls). */
export async function message(page: Page, pattern: RegExp): Promise<string> {
  const bar = page.locator('#message');
  await expect.poll(async () => ((await bar.isVisible()) ? await bar.textContent() : ''), { timeout: 15_000 }).toMatch(pattern);
  return (await bar.textContent()) ?? '';
}

export interface Dashboard {
  server: TestServer;
  /** An admin JWT, for what a test sets up through the API. */
  jwt: string;
  page: Page;
  stop(): Promise<void>;
}

/** The real server with the admin password set and auth on, and a browser for its dashboard. */
export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const server = await startServer({ shards: 2, env: { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env } });
  const jwt = await login(server.url, ADMIN_PASSWORD);
  await setEnabled(server.url, jwt, true);
  const browser = await launch();
  return {
    server,
    jwt,
    page: browser.page,
    stop: async () => {
      await browser.close();
      await server.stop();
      removeDir(server.dataDir);
    },
  };
}
