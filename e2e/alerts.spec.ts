/**
 * Alerts in Chromium, end to end: the dashboard server hosts the alert
 * evaluator, which delivers to a real Alertmanager (e2e/global-setup.ts).
 * An operator turns SchedulerStalled on for one scheduler (with a reason,
 * shown only once the server confirmed it, and audited); the scheduler is
 * frozen (SIGUSR1): its alert goes pending, then fires — on its page, on the
 * Alerts page, in the header badge — and is delivered; the link Alertmanager
 * got (generatorURL), opened, shows the page as it was then: stalled.
 * Unfrozen: resolved. Runbooks are served at /runbooks/{alertname}.
 */
import { expect, test } from './fixtures/test';
import { signInAsOperator } from './support/operator';
import { keepScreenshot } from './support/screenshots';

/** Alertmanager's own view of one scheduler's alerts (active ones). */
async function atAlertmanager(amUrl: string, scheduler: string): Promise<{ labels: Record<string, string>; generatorURL: string }[]> {
  const response = await fetch(`${amUrl}/api/v2/alerts?filter=${encodeURIComponent(`scheduler="${scheduler}"`)}`);
  return (await response.json()) as { labels: Record<string, string>; generatorURL: string }[];
}

test('SchedulerStalled on for one scheduler: pending, firing and delivered; its link reads stalled then; resolved when unfrozen', async ({
  schedulers,
  lease,
  page,
  env,
  schedulerPage,
}, testInfo) => {
  test.setTimeout(180_000);
  const a = await schedulers.start(lease, 'A');
  await signInAsOperator(page, { baseUrl: env.baseUrl, token: env.operatorToken, name: 'carol', next: `/schedulers/${lease}` });
  await schedulerPage.goto(lease);
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'progressing');

  // The operator's choice, for this scheduler only: confirmed by the server before the page says so.
  const section = page.getByTestId('alerts-section');
  await section.getByTestId('alert-modes').locator('summary').click();
  const row = section.locator('[data-testid="alert-mode-row"][data-rule="SchedulerStalled"]');
  await expect(row).toHaveAttribute('data-mode', 'shadow');
  await row.getByTestId('mode-open').click();
  await row.getByTestId('mode-on').check();
  await expect(row.getByTestId('mode-confirm')).toBeDisabled(); // a reason is required
  await row.getByTestId('mode-reason').fill('page the on-call on stalls');
  // The answer is held back: until the server confirms, the page must not claim the change.
  let release: () => void = () => {};
  const answerHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/alerts/rules/SchedulerStalled/mode', async (route) => {
    await answerHeld;
    await route.continue();
  });
  await row.getByTestId('mode-confirm').click();
  await expect(row.getByTestId('mode-confirm')).toHaveText('Waiting for the server…');
  await expect(row.getByTestId('mode-confirmed')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-mode', 'shadow');
  release();
  await expect(row.getByTestId('mode-confirmed')).toContainText(`SchedulerStalled on ${lease} shadow (inherited) → on by carol`);
  await expect(row).toHaveAttribute('data-mode', 'on');
  await page.unroute('**/alerts/rules/SchedulerStalled/mode');

  a.signal('SIGUSR1');
  const alert = section.locator('[data-testid="scheduler-alert"][data-rule="SchedulerStalled"]');
  await expect(alert).toHaveAttribute('data-state', 'pending', { timeout: 30_000 });
  await expect(alert).toHaveAttribute('data-state', 'firing', { timeout: 30_000 });
  await expect(alert.getByTestId('alert-delivery')).toHaveText('firing: delivered', { timeout: 30_000 });
  await expect(alert.getByTestId('silence-link')).toHaveAttribute(
    'href',
    `${env.alertmanagerUrl}/#/silences/new?filter=${encodeURIComponent(`{alertname="SchedulerStalled", scheduler="${lease}"}`)}`,
  );
  await expect(page.getByTestId('alert-badge')).toContainText('firing');
  await keepScreenshot(page, testInfo, 'scheduler-alert-firing');

  // Alertmanager holds it; the link it got opens the page as of the moment it started firing.
  await expect.poll(async () => (await atAlertmanager(env.alertmanagerUrl, lease)).map((x) => x.labels.alertname)).toContain('SchedulerStalled');
  const [held] = (await atAlertmanager(env.alertmanagerUrl, lease)).filter((x) => x.labels.alertname === 'SchedulerStalled');
  expect(held!.generatorURL).toMatch(new RegExp(`^${env.directUrl}/schedulers/${lease}\\?at=`));
  await page.goto(held!.generatorURL);
  await expect(schedulerPage.asOfBanner).toBeVisible();
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'stalled');
  await expect(page.locator('[data-testid="scheduler-alert"][data-rule="SchedulerStalled"]')).toHaveAttribute('data-state', 'firing');

  // The Alerts page counts it and links it to its scheduler at that moment.
  await page.goto(`${env.baseUrl}/alerts`);
  const entry = page.locator(`[data-testid="alert-entry"][data-rule="SchedulerStalled"][data-scheduler="${lease}"]`);
  await expect(entry).toHaveAttribute('data-state', 'firing');
  await expect(entry.getByTestId('alert-scheduler-link')).toHaveAttribute('href', /\?at=/);
  await expect(page.locator('[data-testid="alert-rule"][data-rule="SchedulerStalled"] [data-testid="count-firing"]')).not.toHaveText('0');
  await expect(page.getByTestId('delivery-target')).toHaveAttribute('data-failing', 'false');
  await keepScreenshot(page, testInfo, 'alerts-page-firing');

  a.signal('SIGUSR1');
  await schedulerPage.goto(lease);
  await expect(page.locator('[data-testid="scheduler-alert"][data-rule="SchedulerStalled"]')).toHaveAttribute('data-state', 'resolved', { timeout: 30_000 });
  await expect(page.getByTestId('alert-badge')).toHaveCount(0, { timeout: 20_000 });
  await expect.poll(async () => (await atAlertmanager(env.alertmanagerUrl, lease)).length).toBe(0);
  await schedulerPage.showTimeline();
  await expect(page.locator('[data-testid="alert-span"][data-rule="SchedulerStalled"][data-state="firing"]')).toHaveCount(1);

  // The change is in the audit trail.
  await page.goto(`${env.baseUrl}/audit`);
  await expect(page.locator('[data-testid="audit-row"][data-action="alert.mode"]').first()).toContainText('page the on-call on stalls');
});

test('shadow: the alert is shown on the page and never delivered', async ({ schedulers, lease, page, env, schedulerPage }) => {
  const a = await schedulers.start(lease, 'A');
  await schedulerPage.goto(lease);
  await expect(schedulerPage.health).toHaveAttribute('data-health', 'progressing');
  a.signal('SIGUSR1');
  const alert = page.locator('[data-testid="scheduler-alert"][data-rule="SchedulerStalled"]');
  await expect(alert).toHaveAttribute('data-state', 'firing', { timeout: 30_000 });
  await expect(alert).toHaveAttribute('data-mode', 'shadow');
  await expect(alert.getByTestId('alert-delivery')).toHaveText('not delivered (shadow)');
  expect(await atAlertmanager(env.alertmanagerUrl, lease)).toEqual([]);
});

test('runbooks are served at /runbooks/{alertname}, rendered from markdown, under the page CSP', async ({ page, env }) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  const response = await page.goto(`${env.baseUrl}/runbooks/SchedulerStalled`);
  expect(response!.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'SchedulerStalled' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'How to silence' })).toBeVisible();
  await expect(page.getByTestId('runbook').locator('code').first()).toBeVisible();
  expect((await page.goto(`${env.baseUrl}/runbooks/NoSuchAlert`))!.status()).toBe(404);
  expect(problems.filter((p) => /Content Security Policy/i.test(p))).toEqual([]);
});
