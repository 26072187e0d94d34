/**
 * 1,000 schedulers: server-side pages of 100, worst first, with counts,
 * filter by health and search by name — all through the URL, so a reload
 * server-renders the same view. Seeded in bulk with the status bench's SQL
 * (./fixtures/scale-fleet.ts) under names `sched-00001…`.
 */
import { HEALTH_SEVERITY } from '../lib/status';
import { seedScaleFleet } from './fixtures/scale-fleet';
import { expect, test } from './fixtures/test';

test.beforeAll(seedScaleFleet);

test('1,000 schedulers: pages of 100, worst first, filter and search', async ({ overview, page }) => {
  await overview.goto('sched-');
  const rows = page.getByTestId('scheduler-row');
  await expect(rows).toHaveCount(100);
  await expect(page.getByTestId('page-range')).toHaveText('1–100 of 1000');

  const rank = (health: string | null) => HEALTH_SEVERITY.indexOf(health as (typeof HEALTH_SEVERITY)[number]);
  const ranks = (await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-health')))).map(rank);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-range')).toHaveText('101–200 of 1000');
  await expect(page).toHaveURL(/[?&]page=2/);

  await page.getByTestId('filter-no_leader').click();
  await expect(page).toHaveURL(/[?&]health=no_leader/);
  // Counts are over all schedulers; the page range counts those matching filter and search.
  await expect(page.getByTestId('page-range')).toHaveText(/^1–\d+ of \d+$/);
  const matching = Number((await page.getByTestId('page-range').innerText()).split(' of ')[1]);
  expect(matching).toBeGreaterThan(0);
  expect(matching).toBeLessThanOrEqual(Number(await page.getByTestId('count-no_leader').innerText()));
  await expect.poll(() => rows.evaluateAll((els) => els.every((el) => el.getAttribute('data-health') === 'no_leader'))).toBe(true);

  await page.getByTestId('filter-all').click();
  await page.getByTestId('search-input').fill('sched-0000');
  await expect(page).toHaveURL(/[?&]q=sched-0000/);
  await expect(page.getByTestId('page-range')).toHaveText('1–9 of 9');

  // The URL is the view: a reload server-renders the same page.
  await page.reload();
  await expect(page.getByTestId('search-input')).toHaveValue('sched-0000');
  await expect(rows).toHaveCount(9);
  expect(await overview.hasHorizontalScroll()).toBe(false);
});
