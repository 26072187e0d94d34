/**
 * Operator actions and the surface around them, in Chromium against the real
 * server: every page carries the security headers and a nonce CSP with zero
 * violations; a viewer is offered no action; an operator signs in with the
 * local token, disables a scheduler with a reason (shown as done only once the
 * server confirmed it, then audited), and enables it again; the SSO identity
 * header counts only from the trusted proxy address.
 */
import http from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test';
import { E2E_SSO } from './support/e2e-env';
import { keepScreenshot } from './support/screenshots';

/** Collects CSP violations the page reports (the DOM event, and Chromium's console message). */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return violations;
}

test('every page carries the security headers and a nonce CSP, with zero violations', async ({ schedulers, lease, page, env }) => {
  await schedulers.start(lease, 'A');
  const violations = await watchCsp(page);
  for (const path of [
    '/',
    `/schedulers/${lease}`,
    '/alerts',
    '/upcoming',
    '/reliability',
    '/tokens',
    '/runbooks/SchedulerStalled',
    '/audit',
    '/login',
    '/no-such-page',
  ]) {
    const response = await page.goto(`${env.baseUrl}${path}`);
    const headers = response!.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(
      csp.split('; ').find((d) => d.startsWith('script-src')),
      path,
    ).not.toContain('unsafe-inline');
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('same-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    await expect(page.locator('main')).toBeVisible();
  }
  await page.goto(`${env.baseUrl}/schedulers/${lease}`);
  await page.getByTestId('timeline-section').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('timeline')).toBeVisible();
  expect(violations).toEqual([]);
  const api = await page.request.get(`${env.baseUrl}/api/v1/schedulers`);
  expect(api.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
});

test('a viewer is offered no action; an operator disables and enables with a reason, confirmed and audited', async ({
  schedulers,
  lease,
  page,
  env,
  schedulerPage,
}, testInfo) => {
  await schedulers.start(lease, 'A');
  await schedulerPage.goto(lease);
  await expect(page.getByTestId('identity')).toHaveAttribute('data-role', 'viewer');
  await expect(page.getByTestId('intent-viewer-note')).toBeVisible();
  await expect(page.getByTestId('intent-open')).toHaveCount(0);

  await page.getByTestId('sign-in-link').click();
  await page.getByTestId('sign-in-name').fill('carol');
  await page.getByTestId('sign-in-token').fill(env.operatorToken);
  await page.getByTestId('sign-in-submit').click();
  await expect(page).toHaveURL(new RegExp(`/schedulers/${lease}$`));
  await expect(page.getByTestId('identity')).toHaveAttribute('data-role', 'operator');

  // The answer is held back: until the server confirms, the page must not claim the change.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/intent', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('intent-open').click();
  await expect(page.getByTestId('intent-confirm')).toBeDisabled(); // a reason is required
  await page.getByTestId('intent-reason').fill('storage migration');
  await page.getByTestId('intent-confirm').click();
  await expect(page.getByTestId('intent-confirm')).toHaveText('Waiting for the server…');
  await expect(page.getByTestId('intent-confirmed')).toHaveCount(0);
  await expect(page.getByTestId('intent-state')).toContainText('Enabled');
  release();
  await expect(page.getByTestId('intent-confirmed')).toContainText('enabled → disabled by carol');
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'disabled');
  await expect(page.getByTestId('intent-state')).toContainText('Disabled by carol');
  await expect(page.getByTestId('audit-row').first()).toContainText('storage migration');
  await expect(page.getByTestId('audit-row').first()).toContainText('enabled → disabled');
  await keepScreenshot(page, testInfo, 'scheduler-disabled-by-operator');
  await page.unroute('**/intent');

  await page.getByTestId('intent-open').click();
  await page.getByTestId('intent-reason').fill('migration done');
  await page.getByTestId('intent-confirm').click();
  await expect(page.getByTestId('intent-confirmed')).toContainText('disabled → enabled by carol');
  await expect.poll(() => schedulerPage.health.getAttribute('data-health')).not.toBe('disabled');

  await page.goto(`${env.baseUrl}/audit`);
  const rows = page.locator(`[data-testid="audit-row"]:has(a:text-is("${lease}"))`);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-action', 'scheduler.enable');
  // How the identity was established: the operator token, with a name typed at sign-in (not verified).
  await expect(rows.first().getByTestId('audit-identified-by')).toHaveText('operator token, name typed');
});

/** GET /api/v1/session straight to the server, from a chosen local address, asserting an SSO identity. */
function sessionFrom(directUrl: string, localAddress: string): Promise<{ role: string; who: string | null; via: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${directUrl}/api/v1/session`, { localAddress, headers: { [E2E_SSO.header]: E2E_SSO.operator } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve(JSON.parse(body)));
    });
    request.on('error', reject);
  });
}

test('the SSO identity header counts only from the trusted proxy address', async ({ env }) => {
  expect(await sessionFrom(env.directUrl, '127.0.0.1')).toMatchObject({ role: 'viewer', who: null, via: 'anonymous' });
  expect(await sessionFrom(env.directUrl, E2E_SSO.proxyAddress)).toEqual({
    role: 'operator',
    who: E2E_SSO.operator,
    via: 'proxy',
    localSignIn: true,
    oidcSignIn: false,
  });
});
