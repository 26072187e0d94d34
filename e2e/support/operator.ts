/** An operator in the browser: signed in with the local operator token, and writing as the dashboard itself does. */
import { expect, type Page } from '@playwright/test';

/** Signs in through the login page with the operator token (a typed name), then lands on `next`. */
export async function signInAsOperator(page: Page, options: { baseUrl: string; token: string; name: string; next: string }): Promise<void> {
  await page.goto(`${options.baseUrl}/login?next=${encodeURIComponent(options.next)}`);
  await page.getByTestId('sign-in-name').fill(options.name);
  await page.getByTestId('sign-in-token').fill(options.token);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('identity')).toHaveAttribute('data-role', 'operator');
}

/** An operator write from the page itself (same origin, its session cookie, the action header), as the UI sends them. */
export async function writeFromPage(page: Page, method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-leaseboard-action': '1' },
        body: JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { method, path, body },
  );
}
