/**
 * (g) Behind a proxy that serves only the /ops/leaseboard prefix: the
 * overview, the scheduler page and "copy link to this moment" (?at=) all work,
 * and no request the page makes escapes the prefix.
 */
import { E2E_BASE_PATH } from './support/e2e-env';
import { expect, test } from './fixtures/test';

test('overview, scheduler page and ?at= links work under the proxy prefix', async ({ schedulers, lease, overview, schedulerPage, page, env }) => {
  await schedulers.start(lease, 'A');
  const requested: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === env.proxyOrigin) requested.push(url.pathname);
  });

  // Nothing is served outside the prefix.
  const outside = await page.request.get(`${env.proxyOrigin}/api/v1/schedulers`);
  expect(outside.status()).toBe(404);

  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  // Client-side navigation through <Link> keeps the prefix.
  await overview.cell(lease, 'scheduler-link').click();
  await expect(page).toHaveURL(`${env.baseUrl}/schedulers/${lease}`);
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'progressing');
  await schedulerPage.showTimeline();

  // "Copy link to this moment": the copied URL carries the prefix and opens the as-of view.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-moment-link').click();
  // The page writes the clipboard after the click, asynchronously: read until the link is there.
  const readClipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await expect.poll(async () => (await readClipboard()).startsWith(`${env.baseUrl}/schedulers/${lease}?at=`), 'the copied link').toBe(true);
  const copied = await readClipboard();
  // The link on screen follows each poll (it names the moment shown), so it may already name a later
  // moment than the one copied; both carry the prefix and the same path.
  const copiedPath = new URL(copied).pathname;
  expect(copiedPath).toBe(`${E2E_BASE_PATH}/schedulers/${lease}`);
  await expect(schedulerPage.momentLink).toHaveText(new RegExp(`^${copiedPath}\\?at=\\d{4}-`));

  await page.goto(copied);
  await expect(schedulerPage.asOfBanner).toBeVisible();
  await expect(schedulerPage.asOfBanner).toContainText('As of');
  await expect(page.getByTestId('observed-status')).toHaveCount(0);
  await expect(schedulerPage.epoch).toHaveText(/^\d+$/);

  // As-of mode is not polled: once the as-of view's own reads have answered (the network idle for 500 ms, which a
  // polling page never is), the page asks nothing more about this scheduler for a few poll intervals. Only the
  // scheduler's reads count: the header's alert badge polls on every page, live or not, every 10 s, and on a
  // loaded machine the window can reach its next poll.
  await page.waitForLoadState('networkidle');
  const schedulerReads = () => requested.filter((p) => p.startsWith(`${E2E_BASE_PATH}/api/v1/schedulers/${lease}`));
  const before = schedulerReads();
  await page.waitForTimeout(3 * env.pollIntervalMs); // an observation window, not an assertion on timing
  expect(schedulerReads(), 'reads of the scheduler from the as-of view').toEqual(before);

  await schedulerPage.page.getByTestId('back-to-live').click();
  await expect(page).toHaveURL(`${env.baseUrl}/schedulers/${lease}`);
  await expect(page.getByTestId('observed-status')).toBeVisible();

  expect(requested.length).toBeGreaterThan(0);
  expect(requested.filter((path) => !path.startsWith(`${E2E_BASE_PATH}/`) && path !== E2E_BASE_PATH)).toEqual([]);
});

test('public/: the manifest, its icons and the favicon set are served under the prefix', async ({ page, env }) => {
  await page.goto(env.baseUrl);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', `${E2E_BASE_PATH}/manifest.webmanifest`);
  const manifestUrl = new URL(`${E2E_BASE_PATH}/manifest.webmanifest`, env.proxyOrigin).toString();
  const manifest = await page.request.get(manifestUrl);
  expect(manifest.status()).toBe(200);
  const { icons, start_url } = (await manifest.json()) as { icons: { src: string }[]; start_url: string };
  expect(new URL(start_url, manifestUrl).pathname).toBe(`${E2E_BASE_PATH}/`);
  for (const src of [
    ...icons.map((i) => new URL(i.src, manifestUrl).toString()),
    ...['stalled', 'no-leader', 'unknown', 'not-observed'].map((h) => `${env.baseUrl}/favicons/${h}.svg`),
  ]) {
    expect((await page.request.get(src)).status(), src).toBe(200);
  }
});
