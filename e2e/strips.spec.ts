/**
 * The overview's health strips: real schedulers, the dashboard's
 * own alert evaluator recording the rollup (a round a second here).
 * (a) a freeze (SIGUSR1) shows as stalled on the strip; nothing is drawn
 *     before the scheduler registered, and no red at all before it;
 * (b) a takeover gap (the holder killed, another starting only after the
 *     lease lapsed) shows as no leader across the lapse as it happened, and
 *     clicking that segment opens that moment (`?at=`, UTC) on the scheduler page;
 * (c) with the browser in another zone, times show in it with UTC on hover,
 *     the switch to UTC is remembered, and `?at=` links stay UTC.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

/** How late the rollup may record a change: the evaluator's round (1 s in the e2e environment) on a loaded machine. */
const ROLLUP_SLACK_MS = 5_000;
const STRIP_TIMEOUT = 40_000; // the evaluator's round (1 s) plus the strips' poll (10 s), on a loaded machine
/**
 * A better health shows only from the next cell: a cell is drawn with the worst health seen in it (1 min in the
 * 1 h window, lib/status/strip.ts), so a scheduler registered (unknown) at :02 turns green on the strip at :00 of the
 * next minute — up to a cell, plus the round and the poll, after it turned green on the row.
 */
const BETTER_HEALTH_TIMEOUT = 60_000 + STRIP_TIMEOUT;

const segments = (row: Locator, health?: string) => row.locator(`[data-testid="strip-segment"]${health ? `[data-health="${health}"]` : ''}`);

/** Every drawn segment starts at or after the row's `since` (its registration when inside the window). */
async function nothingBefore(row: Locator): Promise<void> {
  const strip = row.getByTestId('strip');
  const since = await strip.getAttribute('data-since');
  expect(since, 'the strip says where drawing starts').toBeTruthy();
  const froms = await segments(row).evaluateAll((els) => els.map((el) => el.getAttribute('data-from')!));
  for (const from of froms) expect(Date.parse(from)).toBeGreaterThanOrEqual(Date.parse(since!));
}

async function registeredAt(page: Page, baseUrl: string, name: string): Promise<number> {
  const response = await page.request.get(`${baseUrl}/api/v1/strips?window=1h&name=${encodeURIComponent(name)}`);
  const body = (await response.json()) as { rows: { registeredAt: string | null }[] };
  return Date.parse(body.rows[0]!.registeredAt!);
}

test('a freeze shows as stalled and nothing is drawn before registration', async ({ schedulers, lease, overview, env }, testInfo) => {
  test.setTimeout(180_000); // up to a whole strip cell of waiting (BETTER_HEALTH_TIMEOUT) before the freeze
  const a = await schedulers.start(lease, 'A');
  await overview.goto(lease);
  const row = overview.row(lease);
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('progressing');
  await expect(segments(row, 'progressing').first()).toBeVisible({ timeout: BETTER_HEALTH_TIMEOUT });

  a.signal('SIGUSR1');
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('stalled');
  await expect(segments(row, 'stalled').first()).toBeVisible({ timeout: STRIP_TIMEOUT });
  await expect(row.getByTestId('strip')).toHaveAttribute('data-worst', 'stalled');
  await expect(row.getByTestId('strip-summary')).toContainText('worst stalled');
  await nothingBefore(row);
  // No red before registration: every stalled or no-leader segment starts after it.
  const born = await registeredAt(overview.page, env.baseUrl, lease);
  const red = await row
    .locator('[data-testid="strip-segment"][data-health="stalled"], [data-testid="strip-segment"][data-health="no_leader"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-from')!));
  for (const from of red) expect(Date.parse(from)).toBeGreaterThanOrEqual(born);
  // Focus says what the segment was, in words.
  await segments(row, 'stalled').first().focus();
  await expect(segments(row, 'stalled').first()).toHaveAttribute('aria-label', /^Stalled, .*open that moment$/);
  await keepScreenshot(overview.page, testInfo, 'overview-strip-stalled');
  a.signal('SIGUSR1');
});

test('a takeover gap shows as no leader as it happened, and its segment opens that moment', async ({
  schedulers,
  lease,
  overview,
  schedulerPage,
  env,
}, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  await overview.goto(lease);
  const row = overview.row(lease);
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('progressing');
  a.signal('SIGKILL');
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('no_leader');
  await expect(segments(row, 'no_leader').first()).toBeVisible({ timeout: STRIP_TIMEOUT });
  await schedulers.start(lease, 'B');
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('progressing');

  // The lapse as the logs say it happened: epoch 1 ended (expired) at `end`; a no-leader segment covers that instant.
  const detail = (await (await overview.page.request.get(`${env.baseUrl}/api/v1/schedulers/${encodeURIComponent(lease)}`)).json()) as {
    transitions: { epoch: number; to: string | null; ended: string | null }[];
  };
  const lapse = detail.transitions.find((t) => t.ended === 'expired');
  expect(lapse, 'the first tenure ended by expiry').toBeTruthy();
  const end = Date.parse(lapse!.to!);
  const gap = segments(row, 'no_leader').first();
  // The rollup learns of the lapse at the evaluator's next round (1 s here; later on a loaded machine) and the strip
  // draws from the start of the cell that round fell in: the segment starts at most that late.
  expect(Date.parse((await gap.getAttribute('data-from'))!)).toBeLessThanOrEqual(end + ROLLUP_SLACK_MS);
  expect(Date.parse((await gap.getAttribute('data-to'))!)).toBeGreaterThan(end);
  await nothingBefore(row);
  await keepScreenshot(overview.page, testInfo, 'overview-strip-takeover');

  const at = (await gap.getAttribute('data-at'))!;
  expect(at).toMatch(/Z$/); // links carry UTC
  await gap.click();
  await expect(schedulerPage.page).toHaveURL(new RegExp(`\\?at=${encodeURIComponent(at).replace(/[.]/g, '\\.')}$`));
  await expect(schedulerPage.asOfBanner).toBeVisible();
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'no_leader');
});

test.describe('in the viewer zone', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('times show in the browser zone with UTC on hover, the UTC switch is remembered, links stay UTC', async ({
    schedulers,
    lease,
    overview,
    schedulerPage,
  }, testInfo) => {
    await schedulers.start(lease, 'A');
    await schedulerPage.goto(lease);
    const since = schedulerPage.transition(1).locator('time').first();
    await expect(since).toHaveAttribute('data-mode', 'local');
    await expect(since).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT\+5:30$/);
    await since.hover();
    const tip = schedulerPage.transition(1).getByRole('tooltip').first();
    await expect(tip).toBeVisible();
    await expect(tip).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    // The same instant: local text minus 5 h 30 min is the UTC text.
    const local = (await since.innerText()).replace(' GMT+5:30', '');
    const utc = (await tip.innerText()).replace('Z', '');
    expect(Date.parse(`${local.replace(' ', 'T')}+05:30`)).toBe(Date.parse(`${utc.replace(' ', 'T')}Z`));
    await schedulerPage.showTimeline();
    await expect(schedulerPage.page.getByTestId('registered-at')).toContainText(/Registered at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT\+5:30/);
    await keepScreenshot(schedulerPage.page, testInfo, 'scheduler-local-time');

    await schedulerPage.page.getByTestId('time-utc').click();
    await expect(since).toHaveText(/Z$/);
    await overview.goto(lease);
    await expect(overview.page.getByTestId('time-utc')).toHaveAttribute('aria-pressed', 'true');
    const seg = segments(overview.row(lease)).first();
    await expect(seg).toBeVisible({ timeout: STRIP_TIMEOUT });
    expect(await seg.getAttribute('href')).toMatch(/\?at=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{3}Z$/);
  });
});

test('the overview with strips, on a desktop and a phone, light and dark (screenshots kept with the report)', async ({
  schedulers,
  lease,
  overview,
}, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  await schedulers.start(`${lease}-b`, 'B');
  // The browser tests' schedulers (all named e2e-…), not the 1,000 an earlier spec may have seeded in the
  // same run: this test's rows stay on the first page whatever ran before it.
  await overview.goto('e2e-');
  await expect(segments(overview.row(lease)).first()).toBeVisible({ timeout: STRIP_TIMEOUT });
  a.signal('SIGUSR1'); // one row stalls, beside the earlier tests' schedulers
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('stalled');
  await expect(segments(overview.row(lease), 'stalled').first()).toBeVisible({ timeout: STRIP_TIMEOUT });
  for (const [device, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await overview.page.setViewportSize(size);
      await overview.page.emulateMedia({ colorScheme: scheme });
      await expect(overview.page.getByTestId('strip-legend')).toBeVisible();
      await keepScreenshot(overview.page, testInfo, `overview-strips-${device}-${scheme}`);
    }
  }
  // Ordered by worst in window, the stalled row leads; the stalled filter keeps it.
  await overview.page.setViewportSize({ width: 1440, height: 900 });
  await overview.page.emulateMedia({ colorScheme: 'light' });
  await overview.goto(lease); // this test's two schedulers: one stalled, one progressing
  await overview.page.getByTestId('order-worst').click();
  await expect(overview.page.getByTestId('scheduler-row').first()).toHaveAttribute('data-name', lease);
  await expect(overview.page.getByTestId('scheduler-row')).toHaveCount(2);
  await overview.page.getByTestId('filter-stalled').click();
  await expect(overview.row(lease)).toBeVisible();
  await expect(overview.row(`${lease}-b`)).toHaveCount(0);
  expect(overview.page.url()).toContain('order=worst');
  a.signal('SIGUSR1');
});
