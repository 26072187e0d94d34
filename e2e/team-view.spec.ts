/**
 * A team's view from a link: `/?selector=team=payments,env!=dev&group=service`
 * opens, on a desktop, one dense table of that team's schedulers grouped by
 * service, each group under its health summary (over the whole selection);
 * every column sorts (aria-sort says how); ↓/j ↑/k move between rows and Enter
 * opens one; the filter box refuses a malformed selector with the parser's
 * words and changes nothing; on a phone the same view is cards.
 * The fleet: the 1,000 labelled schedulers of ./fixtures/scale-fleet.ts —
 * payments and not dev is exactly 100 of them, four services of 25.
 */
import type { Locator, Page } from '@playwright/test';
import { HEALTH_SEVERITY } from '../lib/status';
import { seedScaleFleet } from './fixtures/scale-fleet';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test.beforeAll(seedScaleFleet);

const TEAM_VIEW = `?selector=${encodeURIComponent('team=payments,env!=dev')}&group=service`;
const SERVICES = ['svc-0', 'svc-1', 'svc-2', 'svc-3'];

const names = (rows: Locator) => rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-name') ?? ''));
const focusedRow = (page: Page) => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-name') ?? null);

test("a team's view from a link: a table grouped by service with its summary, sortable, keyboard-navigable", async ({ page, env }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${env.baseUrl}/${TEAM_VIEW}`);
  const table = page.getByTestId('scheduler-table');
  const rows = page.getByTestId('scheduler-row');
  await expect(rows).toHaveCount(100);
  expect(await table.evaluate((el) => getComputedStyle(el).display)).toBe('table');
  // The filter's counts are the team's: 100, not the fleet's 1,000 and more.
  await expect(page.getByTestId('count-all')).toHaveText('100');
  await expect(page.getByTestId('selector-input')).toHaveValue('team=payments,env!=dev');
  await expect(page.getByTestId('group-input')).toHaveValue('service');

  const groups = page.getByTestId('row-group');
  await expect(groups).toHaveCount(4);
  expect(await groups.evaluateAll((els) => els.map((el) => el.getAttribute('data-group')))).toEqual(SERVICES);
  for (const service of SERVICES) {
    const group = page.locator(`[data-testid="row-group"][data-group="${service}"]`);
    await expect(group.getByTestId('group-name')).toHaveText(`service=${service}`);
    await expect(group.getByTestId('group-total')).toHaveText('25 schedulers');
    const members = group.getByTestId('scheduler-row');
    await expect(members).toHaveCount(25);
    const labels = await group.getByTestId('labels').allInnerTexts();
    expect(labels.every((text) => text.includes('team=payments') && text.includes(`service=${service}`) && text.includes('env=prod'))).toBe(true);
    // The summary counts each health of the group as its rows show it (the store's facts may move between polls:
    // both are read in one evaluation, so a re-render between reading the badges and the rows cannot split them).
    await expect
      .poll(() =>
        group.evaluate((el, healths) => {
          const badge = (health: string) => el.querySelector(`[data-testid="group-count-${health}"]`)?.getAttribute('data-count');
          const shown = healths.map((health) => Number(badge(health) ?? 0));
          const rowHealths = [...el.querySelectorAll('[data-testid="scheduler-row"]')].map((row) => row.getAttribute('data-health'));
          const counted = healths.map((health) => rowHealths.filter((h) => h === health).length);
          return JSON.stringify(shown) === JSON.stringify(counted);
        }, HEALTH_SEVERITY),
      )
      .toBe(true);
    // Unknown is never green.
    const unknown = group.getByTestId('group-count-unknown');
    if ((await unknown.count()) > 0) await expect(unknown).toHaveClass(/tone-unknown/);
  }
  await keepScreenshot(page, testInfo, 'team-view-1440px');

  // Sorting: the list's order is health, worst first; a header sorts the rows within each group.
  const sortName = page.getByTestId('sort-name');
  await expect(page.getByTestId('sort-health')).toHaveAttribute('aria-sort', 'descending');
  await expect(sortName).not.toHaveAttribute('aria-sort', /.+/);
  await sortName.getByRole('button').click();
  await expect(sortName).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('sort-health')).not.toHaveAttribute('aria-sort', /.+/);
  const firstGroup = page.locator('[data-testid="row-group"][data-group="svc-0"]').getByTestId('scheduler-row');
  const ascending = await names(firstGroup);
  expect(ascending).toEqual([...ascending].sort());
  await sortName.getByRole('button').click();
  await expect(sortName).toHaveAttribute('aria-sort', 'descending');
  expect(await names(firstGroup)).toEqual([...ascending].reverse());
  const sortEpoch = page.getByTestId('sort-epoch');
  await sortEpoch.getByRole('button').click();
  await expect(sortEpoch).toHaveAttribute('aria-sort', 'ascending');
  const epochs = (await firstGroup.getByTestId('epoch').allInnerTexts()).map((text) => (text.trim() === '—' ? Infinity : Number(text)));
  expect(epochs).toEqual([...epochs].sort((a, b) => a - b));
  // Groups stay in their order whatever the sort.
  expect(await groups.evaluateAll((els) => els.map((el) => el.getAttribute('data-group')))).toEqual(SERVICES);

  // Keyboard: ↓/j and ↑/k move between rows, across groups; Enter opens the scheduler.
  const order = await names(rows);
  await rows.first().getByTestId('scheduler-link').focus();
  await page.keyboard.press('j');
  expect(await focusedRow(page)).toBe(order[1]);
  await page.keyboard.press('ArrowDown');
  expect(await focusedRow(page)).toBe(order[2]);
  await page.keyboard.press('k');
  expect(await focusedRow(page)).toBe(order[1]);
  await page.keyboard.press('End');
  expect(await focusedRow(page)).toBe(order[99]);
  await page.keyboard.press('ArrowUp');
  expect(await focusedRow(page)).toBe(order[98]);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/schedulers/${order[98]}$`));
});

test("the filter box edits the team's selector; a malformed one shows the parser's error and changes nothing", async ({ page, env }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${env.baseUrl}/${TEAM_VIEW}`);
  const rows = page.getByTestId('scheduler-row');
  await expect(rows).toHaveCount(100);
  const url = page.url();

  await page.getByTestId('selector-input').fill('team in (payments');
  await page.getByTestId('label-apply').click();
  await expect(page.getByTestId('selector-error')).toHaveText('selector: unclosed "(" in "team in (payments"');
  await expect(page.getByTestId('selector-input')).toHaveAttribute('aria-invalid', 'true');
  expect(page.url()).toBe(url);
  await expect(rows).toHaveCount(100);

  await page.getByTestId('selector-input').fill('team=payments,env!=dev,service in (svc-1)');
  await page.getByTestId('group-input').fill('');
  await page.getByTestId('label-apply').click();
  await expect(page.getByTestId('selector-error')).toHaveCount(0);
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId('row-group')).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]selector=team%3Dpayments%2Cenv%21%3Ddev%2Cservice\+in\+%28svc-1%29$/);
  // The search and the health filter still apply within the selection, and the URL keeps all of it.
  await page.getByTestId('search-input').fill('sched-00');
  await expect(page).toHaveURL(/[?&]q=sched-00/);
  await expect(page).toHaveURL(/[?&]selector=/);
  await page.reload();
  await expect(page.getByTestId('selector-input')).toHaveValue('team=payments,env!=dev,service in (svc-1)');
  await expect(rows).toHaveCount(Number((await page.getByTestId('page-range').innerText()).split(' of ')[1]));

  // A link whose selector is malformed is not applied: it says why, and shows what it could.
  await page.goto(`${env.baseUrl}/?selector=${encodeURIComponent('team in (a')}`);
  await expect(page.getByTestId('selector-error')).toHaveText('Not applied: selector: unclosed "(" in "team in (a"');
  await expect(page.getByTestId('selector-input')).toHaveValue('team in (a');
});

test("on a phone a team's view is cards, grouped under the same summaries", async ({ page, env }, testInfo) => {
  await page.setViewportSize({ width: 412, height: 915 });
  await page.goto(`${env.baseUrl}/${TEAM_VIEW}`);
  const rows = page.getByTestId('scheduler-row');
  await expect(rows).toHaveCount(100);
  const group = page.locator('[data-testid="row-group"][data-group="svc-0"]');
  expect(await group.evaluate((el) => getComputedStyle(el).display)).toBe('grid');
  expect(await rows.first().evaluate((el) => getComputedStyle(el).display)).toBe('grid');
  await expect(group.getByTestId('group-summary')).toBeVisible();
  await expect(page.locator('.scheduler-table thead')).toHaveCSS('position', 'absolute');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
  await keepScreenshot(page, testInfo, 'team-view-phone');
});
