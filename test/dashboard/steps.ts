// Steps the dashboard's browser tests share: the admin's sign-in, a full-page screenshot into test/artifacts/.

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../helpers/auth.js';
import { ARTIFACTS, message } from '../helpers/browser.js';

export async function signInAsAdmin(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/dashboard/`);
  await page.selectOption('#cred-kind', 'password');
  await page.fill('#cred-value', ADMIN_PASSWORD);
  await page.click('#login');
  await message(page, /Signed in as admin/);
}

/** test/artifacts/dashboard-<name>.png, the whole page. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}
