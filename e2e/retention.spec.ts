/**
 * Asking past the horizon: a notification link from weeks ago (`?at=` 30 days
 * old) opens a page that says "no longer kept (retention 7 days)" and names
 * the oldest instant kept — in the server-rendered HTML (before any script
 * runs), and on screen — never a blank page and never "unknown". The API
 * behind it answers 410 outside_retention. The server runs with the default
 * retention (no LEASEBOARD_RETAIN_* set by the global setup).
 */
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

const DAY = 86_400_000;

test('a scheduler page opened with an ?at= 30 days old says "no longer kept (retention 7 days)"', async ({
  schedulers,
  lease,
  schedulerPage,
  page,
  env,
}, testInfo) => {
  await schedulers.start(lease, 'A');
  const at = new Date(Date.now() - 30 * DAY).toISOString();
  const url = `${env.baseUrl}/schedulers/${encodeURIComponent(lease)}?at=${encodeURIComponent(at)}`;

  // Server-rendered: the words are in the HTML itself, not only after hydration.
  const html = await page.request.get(url);
  expect(html.status()).toBe(200);
  const text = await html.text();
  expect(text).toContain('no longer kept (retention 7 days)');
  expect(text).toContain('data-testid="detail-not-kept"');

  await schedulerPage.goto(lease, at);
  await expect(schedulerPage.notKept).toContainText('no longer kept (retention 7 days)');
  await expect(schedulerPage.notKept).toContainText('The oldest instant kept is');
  const oldestKeptTime = schedulerPage.notKept.getByTestId('oldest-kept');
  await expect(oldestKeptTime).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  const oldestKept = Date.parse((await oldestKeptTime.getAttribute('datetime'))!);
  expect(oldestKept).toBeGreaterThan(Date.now() - 7 * DAY - 60_000);
  expect(oldestKept).toBeLessThan(Date.now() - 7 * DAY + 60_000);
  await expect(page.getByTestId('detail-error')).not.toContainText(/unknown/i);
  await keepScreenshot(page, testInfo, 'scheduler-at-not-kept');

  // The API the page reads: 410 with the machine-readable retention, for `?at=` and for history.
  const api = `${env.baseUrl}/api/v1/schedulers/${encodeURIComponent(lease)}`;
  for (const path of [`?at=${encodeURIComponent(at)}`, `/history?from=${encodeURIComponent(at)}`]) {
    const answer = await page.request.get(`${api}${path}`);
    expect(answer.status(), path).toBe(410);
    expect(await answer.json()).toMatchObject({ error: { code: 'outside_retention', retention: { keptMs: 7 * DAY, keptFor: '7 days' } } });
  }

  await page.getByTestId('back-to-live').click();
  await expect(page).toHaveURL(`${env.baseUrl}/schedulers/${lease}`);
  await expect(schedulerPage.health).toHaveAttribute('data-health', /.+/);
});

test('an ?at= inside the horizon shows the rebuilt status and its timeline, as before', async ({ schedulers, lease, schedulerPage, page }) => {
  await schedulers.start(lease, 'A');
  await schedulerPage.goto(lease);
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'progressing');
  const at = (await schedulerPage.momentLink.textContent())!.replace(/^.*\?at=/, '');
  await schedulerPage.goto(lease, decodeURIComponent(at));
  await expect(schedulerPage.asOfBanner).toBeVisible();
  await expect(schedulerPage.notKept).toHaveCount(0);
  await schedulerPage.showTimeline();
  await expect(page.getByTestId('history-not-kept')).toHaveCount(0);
});
