/**
 * (h) A Pixel 7 (and a 360 px phone) renders the overview, the scheduler
 * page, the Alerts page and the next hour without horizontal scrolling; axe
 * finds no serious or critical violations on them (and on a runbook), in
 * light and dark.
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, type Page } from '@playwright/test';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7'];

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

test.describe('on a Pixel 7', () => {
  test.use({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });

  test('overview, scheduler page and Alerts page fit the screen', async ({ schedulers, lease, overview, schedulerPage, page, env }, testInfo) => {
    await schedulers.start(lease, 'A');
    await overview.goto(lease);
    await expect.poll(() => overview.health(lease)).toBe('progressing');
    await overview.goto();
    await expect(page.getByTestId('scheduler-row').first()).toBeVisible();
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);
    await keepScreenshot(page, testInfo, 'overview-pixel7');

    await schedulerPage.goto(lease);
    await schedulerPage.showTimeline();
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);
    await keepScreenshot(page, testInfo, 'scheduler-page-pixel7');

    await page.goto(`${env.baseUrl}/alerts`);
    await expect(page.getByTestId('alert-rules')).toBeVisible();
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);
    await keepScreenshot(page, testInfo, 'alerts-pixel7');

    await page.goto(`${env.baseUrl}/upcoming`);
    await expect(page.getByTestId('upcoming-row').first()).toBeVisible();
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);

    await page.setViewportSize({ width: 360, height: 780 });
    await overview.goto();
    await expect(page.getByTestId('scheduler-row').first()).toBeVisible();
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violations (${colorScheme})`, async ({ schedulers, lease, overview, schedulerPage, page, env }, testInfo) => {
    await page.emulateMedia({ colorScheme });
    await schedulers.start(lease, 'A');
    await overview.goto(lease);
    await expect.poll(() => overview.health(lease)).toBe('progressing');
    await overview.goto();
    await expect(page.getByTestId('scheduler-row').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, testInfo, `overview-${colorScheme}`);

    await schedulerPage.goto(lease);
    await schedulerPage.showTimeline();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, testInfo, `scheduler-page-${colorScheme}`);

    await page.goto(`${env.baseUrl}/alerts`);
    await expect(page.getByTestId('alert-rules')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, testInfo, `alerts-${colorScheme}`);

    await page.goto(`${env.baseUrl}/runbooks/SchedulerStalled`);
    await expect(page.getByTestId('runbook')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${env.baseUrl}/upcoming`);
    await expect(page.getByTestId('upcoming-row').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
