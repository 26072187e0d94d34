/**
 * A maintenance window in Chromium against the real server: an operator labels
 * a scheduler with its team and names the team's contact, schedules a window
 * over the team; the scheduler's page reads "in maintenance" beside its health
 * (never instead of it) and names its owner, the team's view of the overview
 * marks its row beside its health, the Alerts page lists the window open; the
 * window is cancelled, and every page shows it ended — no restart.
 */
import { expect, test } from './fixtures/test';
import { signInAsOperator, writeFromPage as write } from './support/operator';

test('a window shown on the scheduler and on the Alerts page, then ended', async ({ schedulers, lease, page, env, schedulerPage }) => {
  // The dashboard may sit under a base path (behind the prefix proxy): every write goes to the served URL.
  const api = (route: string) => `${env.baseUrl}${route}`;
  await schedulers.start(lease, 'A');
  await signInAsOperator(page, { baseUrl: env.baseUrl, token: env.operatorToken, name: 'erin', next: `/schedulers/${lease}` });

  const team = `team-${lease.slice(-8)}`;
  expect((await write(page, 'PUT', api(`/api/v1/schedulers/${lease}/labels`), { labels: { team }, reason: 'owner' })).status).toBe(200);
  expect((await write(page, 'PUT', api(`/api/v1/teams/${team}/owner`), { contact: '#db-oncall', reason: 'rota' })).status).toBe(200);
  const bad = await write(page, 'POST', api('/api/v1/maintenance-windows'), {
    selector: `team=${team}`,
    startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    endsAt: new Date(Date.now()).toISOString(),
    reason: 'backwards',
  });
  expect(bad.status).toBe(400);
  const created = await write(page, 'POST', api('/api/v1/maintenance-windows'), {
    selector: `team=${team}`,
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    reason: 'database upgrade',
  });
  expect(created.status).toBe(201);
  const id = (created.json as { window: { id: number } }).window.id;

  await schedulerPage.goto(lease);
  await expect(page.getByTestId('maintenance-line')).toContainText(`window #${id}`);
  await expect(page.getByTestId('maintenance-line')).toContainText('database upgrade');
  await expect(page.getByTestId('detail-health')).toBeVisible();
  await expect(page.getByTestId('owner-line')).toContainText(team);
  await expect(page.getByTestId('owner-line')).toContainText('#db-oncall');

  const teamView = `${env.baseUrl}/?selector=${encodeURIComponent(`team=${team}`)}`;
  const overviewRow = page.locator(`[data-testid="scheduler-row"][data-name="${lease}"]`);
  await page.goto(teamView);
  await expect(overviewRow.getByTestId('maintenance-badge')).toHaveAttribute('data-window', String(id));
  await expect(overviewRow.getByTestId('maintenance-badge')).toContainText('in maintenance');
  await expect(overviewRow.getByTestId('health-badge')).toBeVisible();

  await page.goto(`${env.baseUrl}/alerts`);
  const row = page.locator(`[data-testid="maintenance-window"][data-window="${id}"]`);
  await expect(row).toHaveAttribute('data-state', 'open');
  await expect(row).toContainText(`team=${team}`);

  expect((await write(page, 'DELETE', api(`/api/v1/maintenance-windows/${id}`), { reason: 'upgrade done' })).status).toBe(200);
  await expect(row).toHaveAttribute('data-state', 'cancelled');
  await schedulerPage.goto(lease);
  await expect(page.getByTestId('owner-line')).toBeVisible();
  await expect(page.getByTestId('maintenance-line')).toHaveCount(0);
  await page.goto(teamView);
  await expect(overviewRow.getByTestId('health-badge')).toBeVisible();
  await expect(overviewRow.getByTestId('maintenance-badge')).toHaveCount(0);
});
