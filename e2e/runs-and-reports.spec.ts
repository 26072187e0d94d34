/**
 * What runs next and how well it went, in Chromium against the real server and
 * a real scheduler process: its page shows the next occurrence and its runs;
 * an operator asks "run now" with a reason and the holder runs it under its
 * lease (a second run, keyed by the moment asked, audited); the team's next
 * hour lists the scheduler at its next slot, a malformed selector changes
 * nothing, a team without schedulers reads "nothing starts"; the team's
 * reliability report has its row and exports it as CSV.
 */
import { expect, test } from './fixtures/test';
import { signInAsOperator, writeFromPage } from './support/operator';
import { keepScreenshot } from './support/screenshots';

const HOUR_MS = 3_600_000;

test('runs and run now on its page; the next hour and the reliability report of its team', async ({ schedulers, lease, page, env }, testInfo) => {
  // Hourly: the current hour's occurrence runs at start, then nothing until the next hour but what an operator asks.
  await schedulers.start(lease, 'A', { every: HOUR_MS, 'batch-size': 2_000, 'batch-work': 10 });
  await signInAsOperator(page, { baseUrl: env.baseUrl, token: env.operatorToken, name: 'dana', next: `/schedulers/${lease}` });
  const team = `team-${lease.slice(-8)}`;
  expect((await writeFromPage(page, 'PUT', `${env.baseUrl}/api/v1/schedulers/${lease}/labels`, { labels: { team }, reason: 'owner' })).status).toBe(200);

  const runs = page.getByTestId('run-row');
  // Hang guards, not speed checks: beside the gate's other lanes a scheduler's first occurrence has taken over 30 s.
  await expect(runs.first()).toHaveAttribute('data-outcome', 'completed', { timeout: 60_000 });
  // The next slot is a whole hour (due now only if the hour turned since the run).
  await expect(page.getByTestId('next-run')).toHaveAttribute('data-kind', /^(slot|due)$/);
  const nextAt = await page.getByTestId('next-run').locator('time').getAttribute('datetime');
  expect(Date.parse(nextAt!) % HOUR_MS).toBe(0);
  await expect(page.getByTestId('next-run')).toContainText('every 1 h');

  await page.getByTestId('run-now-open').click();
  await expect(page.getByTestId('run-now-confirm')).toBeDisabled(); // a reason is required
  await page.getByTestId('run-now-reason').fill('backfill after the outage');
  await page.getByTestId('run-now-confirm').click();
  await expect(page.getByTestId('run-now-asked')).toBeVisible();
  await expect(runs).toHaveCount(2, { timeout: 60_000 });
  // Newest first: the asked run, keyed by the moment asked, completed under the lease.
  await expect(runs.first()).toHaveAttribute('data-outcome', 'completed', { timeout: 60_000 });
  const asked = await runs.first().getAttribute('data-key');
  expect(asked).toMatch(new RegExp(`^${lease}@\\d{4}-`));
  await expect(page.getByTestId('audit-row').first()).toContainText('backfill after the outage');
  await keepScreenshot(page, testInfo, 'runs-after-run-now');

  const teamSelector = encodeURIComponent(`team=${team}`);
  await page.goto(`${env.baseUrl}/upcoming?selector=${teamSelector}`);
  const upcoming = page.getByTestId('upcoming-row');
  await expect(upcoming).toHaveCount(1);
  await expect(upcoming).toHaveAttribute('data-name', lease);
  expect(Date.parse((await upcoming.locator('time').first().getAttribute('datetime'))!) % HOUR_MS).toBe(0);
  await expect(upcoming).toContainText('held');
  await keepScreenshot(page, testInfo, 'next-hour-of-a-team');
  // A malformed selector: the parser's words, and neither the URL nor the rows change.
  await page.getByTestId('upcoming-selector').fill('team in (');
  await page.getByTestId('upcoming-apply').click();
  await expect(page.getByTestId('upcoming-selector-problem')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`selector=${teamSelector}$`));
  await expect(upcoming).toHaveCount(1);
  await page.getByTestId('upcoming-selector').fill(`team=${team}-none`);
  await page.getByTestId('upcoming-apply').click();
  await expect(page.getByTestId('upcoming-none')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`selector=${encodeURIComponent(`team=${team}-none`)}$`));

  await page.goto(`${env.baseUrl}/reliability?window=24h&selector=${teamSelector}`);
  const row = page.locator(`[data-testid="reliability-row"][data-name="${lease}"]`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId('reliability-total')).toContainText('All 1');
  // Every health's share is a figure or a dash, and the shown shares of one row add up to the whole window.
  const shares = (await row.locator('td.num').allTextContents()).map((text) => (text === '—' ? 0 : Number(text.replace(' %', ''))));
  expect(shares.reduce((a, b) => a + b, 0)).toBeGreaterThan(99);
  await page.getByTestId('reliability-window').selectOption('7d');
  await expect(page).toHaveURL(/window=7d/);
  await expect(row).toBeVisible();
  const csv = await page.request.get(new URL((await page.getByTestId('reliability-csv').getAttribute('href'))!, env.baseUrl).toString());
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect(await csv.text()).toContain(lease);
});
