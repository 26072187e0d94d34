/**
 * What a security review found: after a real sign-in, `/login?next=/%5Cevil.example/x` sent
 * Chromium to http://evil.example/x. Every known bypass, signed in for real:
 * the browser stays on the dashboard and never asks another origin for
 * anything; a path of the dashboard is still honoured.
 */
import { expect, test } from './fixtures/test';

const BYPASSES = [
  '/%5Cevil.example/x',
  '/%09/evil.example/x',
  '/%5C/evil.example/x',
  '%5C%5Cevil.example/x',
  '//evil.example/x',
  '/%2F/evil.example/x',
  '%2F%2Fevil.example/x',
  '/%0A/evil.example/x',
  '/%0D%0A/evil.example/x',
  'https://evil.example/x',
  'javascript:alert(document.domain)',
];

test('a sign-in never leads to another origin, whatever ?next= says; a dashboard path is honoured', async ({ page, env }) => {
  test.setTimeout(180_000);
  const elsewhere: string[] = [];
  await page.route(/^(?!https?:\/\/127\.0\.0\.1[:/]).*/, (route) => {
    elsewhere.push(route.request().url());
    return route.abort();
  });
  const dashboard = new URL(env.baseUrl);
  const overview = new RegExp(`^${env.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`);
  const signInWith = async (next: string) => {
    await page.goto(`${env.baseUrl}/login?next=${next}`);
    await page.getByTestId('sign-in-name').fill('erin');
    await page.getByTestId('sign-in-token').fill(env.operatorToken);
    await page.getByTestId('sign-in-submit').click();
  };
  for (const next of BYPASSES) {
    await signInWith(next);
    await expect(page, next).toHaveURL(overview);
    expect(new URL(page.url()).origin, next).toBe(dashboard.origin);
  }
  expect(elsewhere).toEqual([]);
  await signInWith(encodeURIComponent('/audit'));
  await expect(page).toHaveURL(`${env.baseUrl}/audit`);
});
