/**
 * (c) The leader pauses mid-write (a real SIGSTOP, with its fence in hand,
 * before its write) while a second scheduler runs: the overview shows the
 * takeover (epoch + 1, the new leader); after SIGCONT the paused holder's
 * write is refused by the database, and the scheduler page lists it within
 * seconds — every time, not only when a pause happens to land mid-batch —
 * and the Timeline's incident export names both, linked to their moments.
 */
import type { SchedulerProcess } from '../lib/child/scheduler-process';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test('a leader paused mid-write is taken over, and its refused write shows as a rejection', async ({
  schedulers,
  lease,
  overview,
  schedulerPage,
}, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  const b = await schedulers.start(lease, 'B');
  const byToken = (token: string | null) => [a, b].find((p) => p.token === token) as SchedulerProcess;

  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');
  const epoch = await overview.epoch(lease);
  const leader = byToken(await overview.cell(lease, 'leader-token').innerText());
  const other = leader === a ? b : a;

  await leader.pauseMidWrite('write', async () => {
    await expect(overview.cell(lease, 'leader-token')).toHaveText(other.token!, { timeout: 20_000 });
    await expect(overview.cell(lease, 'epoch')).toHaveText(String(epoch + 1));
    await keepScreenshot(overview.page, testInfo, 'overview-takeover');
  });
  const resumedAt = Date.now();
  await leader.waitFor((line) => line.event === 'write_rejected' && line.epoch === epoch && line.reason === 'stale_epoch', 10_000);

  await schedulerPage.goto(lease);
  await expect(schedulerPage.page.locator(`[data-testid="rejection-row"][data-attempted-epoch="${epoch}"]`).first()).toBeVisible({ timeout: 10_000 });
  expect(Date.now() - resumedAt, 'the rejection is on the page within seconds of the resume').toBeLessThan(15_000);
  await expect(schedulerPage.transition(epoch + 1)).toBeVisible();
  await schedulerPage.showTimeline();
  await keepScreenshot(schedulerPage.page, testInfo, 'scheduler-page-takeover');

  // The window's incident report names the takeover and the refused write, each linked to its moment.
  const report = await schedulerPage.incidentExport();
  expect(report.contentType).toContain('text/markdown');
  expect(report.markdown).toMatch(new RegExp(`\\?at=[^>]+>\\) \\*\\*holder\\*\\*: .* took over: epoch ${epoch} → ${epoch + 1}`));
  expect(report.markdown).toMatch(
    new RegExp(`\\?at=[^>]+>\\) \\*\\*stale write\\*\\*: Stale write refused on .*: epoch ${epoch} wrote while the lease was at`),
  );
});
