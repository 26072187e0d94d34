/**
 * (a) an active progressing scheduler shows its leader, epoch, renewal age
 *     and a recent last-progress time;
 * (b) SIGUSR1 freezes progress: the row says stalled while the renewal age
 *     stays fresh (authority and progress read apart); unfreeze → progressing.
 */
import { expect, test } from './fixtures/test';
import { E2E_TIMINGS } from './fixtures/schedulers';
import { keepScreenshot } from './support/screenshots';

test('an active progressing scheduler shows leader, epoch, renewal age and recent progress', async ({ schedulers, lease, overview }, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  // Hydration mismatches and script errors surface as console errors; the demo probe's 404 is expected.
  const errors: string[] = [];
  overview.page.on('pageerror', (error) => errors.push(error.message));
  overview.page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.includes('/api/demo/processes')) errors.push(message.text());
  });
  await overview.goto(lease);

  await expect(overview.row(lease)).toBeVisible();
  await expect.poll(() => overview.health(lease)).toBe('progressing');
  await expect(overview.cell(lease, 'leader-token')).toHaveText(a.token!);
  await expect(overview.cell(lease, 'leader-label')).toHaveText('A');
  await expect(overview.cell(lease, 'authority-state')).toHaveAttribute('data-state', 'held');
  await expect(overview.cell(lease, 'work-state')).toHaveAttribute('data-state', 'progressing');
  expect(await overview.epoch(lease)).toBeGreaterThanOrEqual(1);
  await expect(overview.cell(lease, 'renewal-age')).toHaveText(/ago$/);
  await expect.poll(() => overview.ageMs(lease, 'renewal-age')).toBeLessThan(E2E_TIMINGS.ttl);
  await expect.poll(() => overview.ageMs(lease, 'last-progress')).toBeLessThan(E2E_TIMINGS['stall-after']);
  await expect(overview.cell(lease, 'occurrence')).toHaveText(new RegExp(`^${lease}@`));
  // Absolute UTC time on focus, not only on hover.
  await overview.cell(lease, 'last-progress').focus();
  await expect(overview.row(lease).getByRole('tooltip')).toBeVisible();
  await expect(overview.row(lease).getByRole('tooltip')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
  await expect(overview.page.getByTestId('group-authority')).toHaveText('Authority');
  await expect(overview.page.getByTestId('group-progress')).toHaveText('Progress');
  await expect(overview.page).toHaveTitle(/Leaseboard$/);
  // Outside demo mode GET /api/demo/processes is 404: no demo panel.
  await expect(overview.page.getByTestId('demo-panel')).toHaveCount(0);
  await keepScreenshot(overview.page, testInfo, 'overview-progressing');
  expect(errors).toEqual([]);
});

test('a frozen holder reads as stalled while its lease stays fresh, and progressing again when unfrozen', async ({ schedulers, lease, overview }, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  a.signal('SIGUSR1');
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('stalled');
  await expect(overview.cell(lease, 'authority-state')).toHaveAttribute('data-state', 'held');
  await expect(overview.cell(lease, 'work-state')).toHaveAttribute('data-state', 'stalled');
  await expect.poll(() => overview.ageMs(lease, 'renewal-age')).toBeLessThan(E2E_TIMINGS.ttl);
  await expect.poll(() => overview.ageMs(lease, 'last-progress')).toBeGreaterThan(E2E_TIMINGS['stall-after']);
  await expect(overview.page).toHaveTitle(/^▲ \d+ stalled · Leaseboard$/);
  // The favicon is drawn for the worst health: the stalled triangle in red.
  const favicon = () => overview.page.locator('link[rel~="icon"]').first().getAttribute('href');
  await expect.poll(async () => decodeURIComponent((await favicon()) ?? '')).toContain('<path d="M16 2 31 29H1Z" fill="#d12d2d"/>');
  await keepScreenshot(overview.page, testInfo, 'overview-stalled');

  a.signal('SIGUSR1');
  await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('progressing');
  await expect.poll(() => overview.ageMs(lease, 'last-progress')).toBeLessThan(E2E_TIMINGS['stall-after']);
});
