/**
 * OpenID Connect sign-in in real Chromium, through a real provider's login
 * and consent pages (oidc-provider, started here), on a dashboard server of
 * its own started as `npm start` starts it, with LEASEBOARD_ANONYMOUS=none:
 * the overview sends a visitor to the sign-in page, single sign-on signs them
 * in as the operator their group maps to, and signing out ends the session
 * here and sends the browser to the provider's end-session page. An admin (by
 * group) makes, sees used and revokes a service token on the Tokens page.
 */
import type { ChildProcess } from 'node:child_process';
import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { freePort } from '../db/free-port';
import { runDashboard } from '../examples/demo/next-build';
import { expect, test } from './fixtures/test';
import { E2E_BUILD_ENV } from './support/build';
import { E2E_BASE_PATH } from './support/e2e-env';
import { E2E_OIDC_CLIENT, startE2eProvider } from './support/oidc-provider';

const ROOT = path.resolve(__dirname, '..');

let provider: Awaited<ReturnType<typeof startE2eProvider>>;
let server: ChildProcess;
let dashboard: string;

async function answers(url: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the OIDC dashboard server exited with ${server.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${deadlineMs} ms`);
}

/** From the overview, through the sign-in page and the provider's own login and consent pages, back to the overview. */
async function signInThroughProvider(page: Page, login: string): Promise<void> {
  await page.goto(`${dashboard}/`);
  await expect(page).toHaveURL(`${dashboard}/login?next=%2F`);
  await page.getByTestId('oidc-sign-in').click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${dashboard}/?$`)); // Next drops the trailing slash
}

test.beforeAll(async ({ env }) => {
  const port = await freePort();
  dashboard = `http://127.0.0.1:${port}${E2E_BASE_PATH}`;
  provider = await startE2eProvider({
    redirectUri: `${dashboard}/api/v1/session/oidc/callback`,
    postLogoutUri: `${dashboard}/`,
    accounts: { alice: ['payments'], ada: ['sre-admins'] },
  });
  const serverEnv = { ...E2E_BUILD_ENV };
  delete serverEnv.HOST;
  server = runDashboard(ROOT, ['-p', String(port)], {
    env: {
      ...serverEnv,
      DATABASE_URL: env.databaseUrl,
      LEASEBOARD_HOST_JOBS: 'off',
      LEASEBOARD_PUBLIC_URL: dashboard,
      LEASEBOARD_SESSION_SECRET: randomBytes(32).toString('base64url'),
      LEASEBOARD_ANONYMOUS: 'none',
      LEASEBOARD_OIDC_ISSUER: provider.issuer,
      LEASEBOARD_OIDC_CLIENT_ID: E2E_OIDC_CLIENT.id,
      LEASEBOARD_OIDC_CLIENT_SECRET: E2E_OIDC_CLIENT.secret,
      LEASEBOARD_OIDC_ROLES: 'payments=operator,sre-admins=admin',
    },
  });
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  await answers(`${dashboard}/api/healthz`, 60_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${log}`);
  });
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await provider?.close();
});

test('single sign-on through the provider’s pages, as the operator a group maps to; sign-out ends it here and there', async ({ page }) => {
  const anonymous = await fetch(`${dashboard}/api/v1/schedulers`);
  expect(anonymous.status).toBe(401);
  expect((await fetch(`${dashboard}/api/healthz`)).status).toBeLessThan(500);

  await signInThroughProvider(page, 'alice');
  const identity = page.getByTestId('identity');
  await expect(identity).toHaveAttribute('data-role', 'operator');
  await expect(identity).toContainText('alice');

  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/session/end`));
  const after = await page.request.get(`${dashboard}/api/v1/session`);
  expect(await after.json()).toMatchObject({ role: 'viewer', via: 'anonymous' });
  expect((await page.request.get(`${dashboard}/api/v1/schedulers`)).status()).toBe(401);
});

test('an admin makes a service token on the Tokens page, shown once; a script reads with it and its use shows; revoked, it is refused', async ({ page }) => {
  await signInThroughProvider(page, 'ada');
  await expect(page.getByTestId('identity')).toHaveAttribute('data-role', 'admin');
  await page.getByTestId('tokens-link').click();
  await expect(page).toHaveURL(`${dashboard}/tokens`);

  const name = `e2e-report-${randomBytes(3).toString('hex')}`;
  await page.getByTestId('token-create-open').click();
  await page.getByTestId('token-name').fill(name);
  await page.getByTestId('token-target').fill('team=payments');
  await expect(page.getByTestId('token-create-confirm')).toBeDisabled(); // a reason is required
  await page.getByTestId('token-create-reason').fill('nightly report script');
  await page.getByTestId('token-create-confirm').click();
  const secret = (await page.getByTestId('token-secret').textContent())!;
  expect(secret).toMatch(/^lbs_[0-9a-f]{12}\./);
  const row = page.locator(`[data-testid="token-row"][data-name="${name}"]`);
  await expect(row).toContainText('read');
  await expect(row).toContainText('team=payments');
  await expect(row.getByTestId('token-last-used')).toHaveText('never');

  // A script with it reads what anonymous visitors may not (LEASEBOARD_ANONYMOUS=none); the page shows the use.
  const bearer = { authorization: `Bearer ${secret}` };
  expect((await fetch(`${dashboard}/api/v1/schedulers`, { headers: bearer })).status).toBe(200);
  await page.reload();
  await expect(row.getByTestId('token-last-used').locator('time')).toBeVisible();
  expect(await page.content(), 'the secret is shown once, at creation').not.toContain(secret.split('.')[1]);

  await row.getByTestId('token-revoke-open').click();
  // Each row has its dialog: the suite's other specs leave tokens of their own.
  await row.getByTestId('token-revoke-reason').fill('script retired');
  await row.getByTestId('token-revoke-confirm').click();
  await expect(row).toHaveAttribute('data-revoked', 'true');
  expect((await fetch(`${dashboard}/api/v1/schedulers`, { headers: bearer })).status).toBe(401);
});
