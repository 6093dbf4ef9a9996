// The dashboard in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core,
// installed by .ci/install-chromium.sh) against the real server with auth on: sign in, create a
// collection, add and browse points with a filter and pages, query, manage an API key and switch
// auth, all through the page. Screenshots go to test/artifacts/ (git-ignored).

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, apiKeyHeader, createKey } from '../helpers/auth.js';
import { ARTIFACTS, CHROMIUM, haveChromium, message as messageOf, startDashboard, type Dashboard } from '../helpers/browser.js';
import { call, type TestServer } from '../helpers/server.js';

if (!haveChromium) console.warn(`dashboard browser test skipped: ${CHROMIUM} is missing (bash .ci/install-chromium.sh installs it on Debian as root)`);

let server: TestServer;
let dashboard: Dashboard | undefined;
let page: Page;
let readKey = '';

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

/** The message bar once it says something matching. */
function message(pattern: RegExp): Promise<string> {
  return messageOf(page, pattern);
}

async function rows(table: string): Promise<string[]> {
  return page.locator(`#${table} tbody tr`).allTextContents();
}

describe.skipIf(!haveChromium)('dashboard in Chromium, auth on', () => {
  beforeAll(async () => {
    dashboard = await startDashboard();
    ({ server, page } = dashboard);
    readKey = (await createKey(server.url, dashboard.jwt, { name: 'reader', permission: 'read' })).api_key;
  }, 120_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('opens at /dashboard and asks for a credential', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server.url}/dashboard`);
    expect(page.url()).toBe(`${server.url}/dashboard/`);
    expect(await page.title()).toBe('Quiver dashboard');
    await message(/auth enabled: sign in with an API key or the admin password/);
    expect(await page.locator('#login-form').isVisible()).toBe(true);
    await shot('1-sign-in');
    // Everything the page loads comes from the server itself (no CDN).
    expect(requests.every((u) => u.startsWith(server.url))).toBe(true);
  });

  it('a wrong password is refused with the server message', async () => {
    await page.selectOption('#cred-kind', 'password');
    await page.fill('#cred-value', 'not-the-password');
    await page.click('#login');
    await message(/Sign in: .*(invalid|wrong|incorrect)/i);
    expect(await page.locator('#login-form').isVisible()).toBe(true);
  });

  it('the admin password signs in (a JWT held in memory only) and lists collections', async () => {
    await page.fill('#cred-value', ADMIN_PASSWORD);
    await page.click('#login');
    await message(/Signed in as admin/);
    expect(await page.locator('#who').textContent()).toBe('Signed in as admin (JWT)');
    const stored = await page.evaluate(() => {
      // Runs in the page: the DOM globals, typed here because the tests compile without the DOM lib.
      const w = globalThis as unknown as { localStorage: { length: number }; sessionStorage: { length: number }; document: { cookie: string } };
      return { local: w.localStorage.length, session: w.sessionStorage.length, cookie: w.document.cookie };
    });
    expect(stored).toEqual({ local: 0, session: 0, cookie: '' });
    expect(await page.locator('#collections-empty').isVisible()).toBe(true);
  });

  it('creates a collection through the form', async () => {
    await page.fill('#new-name', 'ui_demo');
    await page.fill('#new-size', '4');
    await page.selectOption('#new-distance', 'Dot');
    await page.click('#create');
    await message(/Collection ui_demo created/);
    const row = page.locator('#collections-table tbody tr[data-name="ui_demo"]');
    expect(await row.locator('td').nth(1).textContent()).toBe('0');
    expect(await row.locator('td').nth(2).textContent()).toBe('green');
    expect(await row.locator('td').nth(3).textContent()).toBe('4 · Dot');
    // The server agrees.
    expect((await call(server.url, 'GET', '/collections/ui_demo/exists', undefined, apiKeyHeader(readKey))).body.result).toEqual({ exists: true });
  });

  it('adds points, then browses them page by page with next_page_offset', async () => {
    await page.locator('#collections-table tr[data-name="ui_demo"] button', { hasText: 'Browse' }).click();
    expect(await page.locator('#tab-points').isVisible()).toBe(true);
    const points = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, vector: [i + 1, 1, 0, 0], payload: { n: i + 1, color: i % 3 === 0 ? 'red' : 'blue' } }));
    await page.locator('#tab-points summary').click();
    await page.fill('#points-upsert', JSON.stringify(points));
    await page.click('#points-upsert-go');
    await message(/Upserted 25 point\(s\) into ui_demo/);
    await page.fill('#points-limit', '10');
    await page.click('#points-scroll');
    await expect.poll(() => page.locator('#points-page').textContent()).toBe('ui_demo: page 1, 10 points');
    expect(await page.locator('#points-table tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect((await rows('points-table'))[0]).toContain('"color": "red"');
    await page.click('#points-next');
    await expect.poll(() => page.locator('#points-page').textContent()).toBe('ui_demo: page 2, 10 points');
    expect(await page.locator('#points-table tbody tr').first().getAttribute('data-id')).toBe('11');
    await page.click('#points-next');
    await expect.poll(() => page.locator('#points-page').textContent()).toBe('ui_demo: page 3, 5 points (last page)');
    expect(await page.locator('#points-next').isDisabled()).toBe(true);
    await shot('3-points');
  });

  it('filters the browser with a JSON filter, and says what is wrong with a bad one', async () => {
    await page.fill('#points-filter', JSON.stringify({ must: [{ key: 'color', match: { value: 'red' } }] }));
    await page.click('#points-scroll');
    await expect.poll(() => page.locator('#points-page').textContent()).toBe('ui_demo: page 1, 9 points (last page)');
    for (const r of await rows('points-table')) expect(r).toContain('"color": "red"');
    await shot('3b-points-filtered');
    await page.fill('#points-filter', '{"must": [');
    await page.click('#points-scroll');
    await message(/Scroll: Filter is not valid JSON/);
    // A filter that is JSON but not a filter: the server's 400 message.
    await page.fill('#points-filter', '{"must": 5}');
    await page.click('#points-scroll');
    await message(/Scroll: .*must/);
    await page.fill('#points-filter', '');
  });

  it('the collection list shows the new count', async () => {
    await page.click('nav button[data-tab="collections"]');
    await page.click('#refresh-collections');
    await expect.poll(() => page.locator('#collections-table tr[data-name="ui_demo"] td').nth(1).textContent()).toBe('25');
    await shot('2-collections');
  });

  it('the query console runs a vector query and shows scores, best first', async () => {
    await page.click('nav button[data-tab="query"]');
    await page.selectOption('#query-collection', 'ui_demo');
    await page.fill('#query-input', '[1, 0, 0, 0]');
    await page.fill('#query-limit', '3');
    await page.click('#query-run');
    await message(/3 results from ui_demo/);
    const ids = await page.locator('#query-table tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')));
    expect(ids).toEqual(['25', '24', '23']);
    const scores = (await page.locator('#query-table td.score').allTextContents()).map(Number);
    expect(scores).toEqual([25, 24, 23]);
    await shot('4-query');
  });

  it('a query by point id leaves that point out; a filter narrows it; bad input is named', async () => {
    await page.fill('#query-input', '25');
    await page.fill('#query-filter', JSON.stringify({ must: [{ key: 'color', match: { value: 'red' } }] }));
    await page.click('#query-run');
    await message(/3 results from ui_demo/);
    const ids = await page.locator('#query-table tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')));
    expect(ids).toEqual(['22', '19', '16']);
    await page.fill('#query-filter', '');
    await page.fill('#query-input', 'hello');
    await page.click('#query-run');
    await message(/Query: "hello" is neither a JSON array nor a point id/);
    await page.fill('#query-input', '[1, 0]');
    await page.click('#query-run');
    await message(/Query: .*(dimension|Dimension)/);
  });

  it('creates an API key (shown once), lists it, and deletes it', async () => {
    await page.click('nav button[data-tab="access"]');
    await expect.poll(() => page.locator('#auth-state').textContent()).toBe('enabled');
    await page.fill('#key-name', 'ui-key');
    await page.check('#perm-read');
    await page.check('#perm-write');
    await page.click('#key-create');
    await message(/Key \d+ created/);
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    // The new key works against the API.
    expect((await call(server.url, 'GET', '/collections', undefined, apiKeyHeader(key))).status).toBe(200);
    const row = page.locator('#keys-table tbody tr', { hasText: 'ui-key' });
    expect(await row.locator('td').nth(2).textContent()).toBe('read,write');
    await shot('5-access');
    // The list never shows a key.
    for (const r of await rows('keys-table')) expect(r).not.toContain(key);
    await row.locator('button', { hasText: 'Delete' }).click();
    await message(/Key \d+ deleted/);
    expect(await page.locator('#keys-table tbody tr', { hasText: 'ui-key' }).count()).toBe(0);
    expect((await call(server.url, 'GET', '/collections', undefined, apiKeyHeader(key))).status).toBe(401);
  });

  it('the auth switch turns auth off and on (an admin JWT)', async () => {
    await page.click('#auth-disable');
    await message(/Auth disabled/);
    expect(await page.locator('#auth-state').textContent()).toBe('disabled');
    expect((await call(server.url, 'GET', '/collections')).status).toBe(200);
    // Key management is refused while auth is off, and the page says why.
    await page.click('#refresh-keys');
    await message(/API keys: API key management API requires auth_enabled=true/);
    await page.click('#auth-enable');
    await message(/Auth enabled/);
    expect(await page.locator('#auth-state').textContent()).toBe('enabled');
    expect((await call(server.url, 'GET', '/collections')).status).toBe(401);
  });

  it('a reload forgets the credential; a read key can browse but not manage keys or switch auth', async () => {
    await page.reload();
    await message(/sign in/);
    expect(await page.locator('#login-form').isVisible()).toBe(true);
    await page.selectOption('#cred-kind', 'api-key');
    await page.fill('#cred-value', readKey);
    await page.click('#login');
    await message(/Signed in with the API key/);
    expect(await page.locator('#collections-table tr[data-name="ui_demo"] td').nth(1).textContent()).toBe('25');
    await page.click('nav button[data-tab="access"]');
    await message(/API keys: Forbidden: this access token lacks the admin permission/);
    await page.click('#auth-disable');
    await message(/switching auth needs the admin password/);
    await shot('6-read-key');
    await page.click('#logout');
    await message(/Signed out/);
    expect(await page.locator('#login-form').isVisible()).toBe(true);
  });
});
