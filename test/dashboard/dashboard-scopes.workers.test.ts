// API keys' collection scopes in the dashboard's Access tab, in headless Chromium against the real
// server with auth on: a bad tenant filter named before sending and the server's 400 shown, a
// scoped key with a tenant filter created and listed with its scope, its scope edited (PATCH) and
// made unscoped, each checked against what the key can then do through the API. Screenshots go to
// test/artifacts/ (git-ignored).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeader, bearer } from '../helpers/auth.js';
import { haveChromium, message as messageOf, startDashboard, type Dashboard } from '../helpers/browser.js';
import { call, type TestServer } from '../helpers/server.js';
import { shot, signInAsAdmin } from './steps.js';

const tenant = (t: string): unknown => ({ must: [{ key: 'tenant', match: { value: t } }] });

let server: TestServer;
let dashboard: Dashboard | undefined;
let page: Page;
let key = '';

function message(pattern: RegExp): Promise<string> {
  return messageOf(page, pattern);
}

/** The ids of the orders the key can read, in id order. */
async function visible(): Promise<number[]> {
  const r = await call(server.url, 'POST', '/collections/orders/points/scroll', { limit: 100 }, apiKeyHeader(key));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.result.points as { id: number }[]).map((p) => p.id);
}

const keyRow = () => page.locator('#keys-table tbody tr', { hasText: 'acme-ingest' });
/** The list's Collections cell, one text per scope entry with its tenant filter left out. */
const scopeLines = () => keyRow().locator('td').nth(3).locator('li').evaluateAll((lis) => lis.map((li) => (li.firstChild?.textContent ?? '') + (li.childNodes[1]?.textContent ?? '')));
const entry = (form: string, i: number) => page.locator(`#${form} .scope-entry`).nth(i);

describe.skipIf(!haveChromium)('dashboard: API key scopes in Chromium', () => {
  beforeAll(async () => {
    dashboard = await startDashboard();
    ({ server, page } = dashboard);
    const admin = bearer(dashboard.jwt);
    for (const name of ['orders', 'other']) expect((await call(server.url, 'PUT', `/collections/${name}`, { vectors: { size: 2, distance: 'Dot' } }, admin)).status).toBe(200);
    const points = [1, 2, 3, 4, 5, 6].map((id) => ({ id, vector: [id, 1], payload: { tenant: id % 2 === 0 ? 'acme' : 'beta' } }));
    expect((await call(server.url, 'PUT', '/collections/orders/points?wait=true', { points }, admin)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('the admin signs in and opens the Access tab', async () => {
    await signInAsAdmin(page, server.url);
    await page.click('nav button[data-tab="access"]');
    await expect.poll(() => page.locator('#auth-state').textContent()).toBe('enabled');
  });

  it('names a tenant filter that is not JSON before sending, and shows the server 400 for one it refuses', async () => {
    const keysBefore = (await call(server.url, 'GET', '/auth/api_keys', undefined, bearer(dashboard?.jwt ?? ''))).body.length as number;
    await page.fill('#key-name', 'acme-ingest');
    await page.uncheck('#perm-read');
    await page.click('#key-add-entry');
    expect(await page.locator('#key-perm-legend').textContent()).toBe('Permission outside collections');
    await entry('key-scope', 0).locator('.scope-collection').fill('orders');
    await entry('key-scope', 0).locator('.scope-write').check();
    await entry('key-scope', 0).locator('.scope-filter').fill('{"must": [');
    await page.click('#key-create');
    await message(/Create key: collection 1 \(orders\): the tenant filter is not valid JSON/);
    // JSON, but a filter that cannot tell tenants apart: the server's own message.
    await entry('key-scope', 0).locator('.scope-filter').fill(JSON.stringify({ must: [{ has_id: [1] }] }));
    await page.click('#key-create');
    await message(/Create key: scope\[0\]\.filter.*has_id cannot bind a tenant/);
    expect((await call(server.url, 'GET', '/auth/api_keys', undefined, bearer(dashboard?.jwt ?? ''))).body.length).toBe(keysBefore);
  });

  it('creates a scoped key with a tenant filter and lists it with its scope', async () => {
    await entry('key-scope', 0).locator('.scope-filter').fill(JSON.stringify(tenant('acme')));
    await page.click('#key-add-entry');
    await entry('key-scope', 1).locator('.scope-collection').fill('logs_*');
    await shot(page, '7a-scoped-key-form');
    await page.click('#key-create');
    await message(/Key \d+ created/);
    key = (await page.locator('#new-key-value').textContent()) ?? '';
    // The form is ready for the next key.
    expect(await page.locator('#key-scope .scope-entry').count()).toBe(0);
    expect(await page.locator('#key-perm-legend').textContent()).toBe('Permission');
    // The key reads acme's orders only, and no collection outside its scope.
    expect(await visible()).toEqual([2, 4, 6]);
    expect((await call(server.url, 'GET', '/collections/other', undefined, apiKeyHeader(key))).status).toBe(403);
    expect(await keyRow().locator('td').nth(2).textContent()).toBe('none');
    expect(await scopeLines()).toEqual(['orders: read,write', 'logs_*: read']);
    const marker = keyRow().locator('details.tenant summary');
    expect(await marker.count()).toBe(1);
    expect(JSON.parse((await marker.getAttribute('title')) ?? '')).toEqual(tenant('acme'));
    await marker.click();
    expect(JSON.parse((await keyRow().locator('details.tenant pre').textContent()) ?? '')).toEqual(tenant('acme'));
    await shot(page, '7-scoped-key');
  });

  it('edits the scope in place: the same key now reads another tenant', async () => {
    await keyRow().locator('button', { hasText: 'Edit scope' }).click();
    expect(await page.locator('#edit-key').isVisible()).toBe(true);
    expect(await page.locator('#edit-key-title').textContent()).toMatch(/^Scope of key \d+ \(acme-ingest\)$/);
    expect(await page.locator('#edit-perm-legend').textContent()).toBe('Permission outside collections');
    expect(await page.locator('#edit-key-scope .scope-collection').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))).toEqual(['orders', 'logs_*']);
    expect(await entry('edit-key-scope', 0).locator('.scope-write').isChecked()).toBe(true);
    expect(await entry('edit-key-scope', 1).locator('.scope-write').isChecked()).toBe(false);
    expect(JSON.parse(await entry('edit-key-scope', 0).locator('.scope-filter').inputValue())).toEqual(tenant('acme'));
    await entry('edit-key-scope', 0).locator('.scope-filter').fill(JSON.stringify(tenant('beta')));
    await entry('edit-key-scope', 1).locator('button', { hasText: 'Remove' }).click();
    await shot(page, '8-edit-scope');
    await page.click('#edit-key-save');
    await message(/Key \d+ updated: 1 collection\(s\)/);
    expect(await page.locator('#edit-key').isVisible()).toBe(false);
    expect(await scopeLines()).toEqual(['orders: read,write']);
    expect(await visible()).toEqual([1, 3, 5]);
  });

  it('shows the server 400 of an edit and keeps the form; no collections and a permission make it unscoped', async () => {
    await keyRow().locator('button', { hasText: 'Edit scope' }).click();
    await page.click('#edit-key-add-entry');
    await entry('edit-key-scope', 1).locator('.scope-collection').fill('orders');
    await page.click('#edit-key-save');
    await message(/Edit scope: scope\[1\]\.collection: "orders" is named twice/);
    expect(await page.locator('#edit-key').isVisible()).toBe(true);
    await entry('edit-key-scope', 1).locator('.scope-filter').fill('[oops');
    await page.click('#edit-key-save');
    await message(/Edit scope: collection 2 \(orders\): the tenant filter is not valid JSON/);
    // Every collection removed, still no permission: the server says the key needs one.
    for (let n = 2; n > 0; n--) await entry('edit-key-scope', 0).locator('button', { hasText: 'Remove' }).click();
    expect(await page.locator('#edit-perm-legend').textContent()).toBe('Permission');
    await page.click('#edit-key-save');
    await message(/Edit scope: Invalid permission: a key over every collection needs one/);
    expect(await scopeLines()).toEqual(['orders: read,write']);
    await page.check('#edit-perm-read');
    await page.click('#edit-key-save');
    await message(/Key \d+ updated: every collection/);
    expect(await keyRow().locator('td').nth(2).textContent()).toBe('read');
    expect(await keyRow().locator('td').nth(3).textContent()).toBe('all');
    expect(await visible()).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await call(server.url, 'GET', '/collections/other', undefined, apiKeyHeader(key))).status).toBe(200);
  });
});
