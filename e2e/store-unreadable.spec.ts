/**
 * The status service as an observer: when it cannot read its store, the
 * dashboard shows the service's own "store unreadable since …" banner and
 * every row unknown — never the last green. The fault is real: a transaction
 * holds an ACCESS EXCLUSIVE lock on `leases`, so the service's reads time out.
 */
import pg from 'pg';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test('store unreadable: the service says so and every row is unknown; recovery shows fresh data', async ({ schedulers, lease, overview, env }, testInfo) => {
  await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  const client = new pg.Client({ connectionString: env.databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('LOCK TABLE leases IN ACCESS EXCLUSIVE MODE');
    const banner = overview.page.getByTestId('store-unreadable-banner');
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveText(/Store unreadable since \d\d:\d\d:\d\d(Z| \S+)/, { useInnerText: true });
    await expect(overview.cell(lease, 'health-badge')).toHaveAttribute('data-health', 'unknown');
    await expect(overview.page.locator('[data-testid="health-badge"]:not([data-health="unknown"])')).toHaveCount(0);
    await expect(overview.page).toHaveTitle(/^\? store unreadable · Leaseboard$/);
    await keepScreenshot(overview.page, testInfo, 'overview-store-unreadable');
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
  await expect(overview.page.getByTestId('store-unreadable-banner')).toBeHidden({ timeout: 20_000 });
  await expect.poll(() => overview.health(lease)).toBe('progressing');
});
