/**
 * (c) SIGSTOP the leader past its ttl while a second scheduler runs: the
 * overview shows the takeover (epoch + 1, the new leader); after SIGCONT the
 * paused holder's fenced writes are rejected and the scheduler page lists
 * those stale-write rejections.
 */
import type { SchedulerProcess } from '../lib/scheduler/process';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test('a paused leader is taken over, and its stale writes show as rejections', async ({ schedulers, lease, overview, schedulerPage }, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  const b = await schedulers.start(lease, 'B');
  const byToken = (token: string | null) => [a, b].find((p) => p.token === token) as SchedulerProcess;

  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  // A pause lands inside a batch (between read and fenced write) almost every
  // time; if one did not, the roles have swapped and the next cycle tries again.
  let firstEpoch = 0;
  let rejectedEpoch: number | null = null;
  for (let cycle = 0; cycle < 3 && rejectedEpoch === null; cycle++) {
    await expect.poll(() => overview.health(lease)).toBe('progressing');
    const epoch = await overview.epoch(lease);
    firstEpoch ||= epoch;
    const leader = byToken(await overview.cell(lease, 'leader-token').innerText());
    const other = leader === a ? b : a;

    leader.signal('SIGSTOP');
    await expect(overview.cell(lease, 'leader-token')).toHaveText(other.token!, { timeout: 20_000 });
    await expect(overview.cell(lease, 'epoch')).toHaveText(String(epoch + 1));
    if (cycle === 0) await keepScreenshot(overview.page, testInfo, 'overview-takeover');

    leader.signal('SIGCONT');
    await leader.waitFor((line) => line.event === 'lost' && line.epoch === epoch, 15_000);
    await leader.waitFor((line) => line.event === 'held' || line.event === 'acquired', 15_000);
    const rejected = await leader.waitFor((line) => line.event === 'write_rejected' && line.epoch === epoch, 5_000).catch(() => null);
    if (rejected) rejectedEpoch = epoch;
  }
  expect(rejectedEpoch, 'a paused holder woke up mid-batch and had a write rejected').not.toBeNull();

  await schedulerPage.goto(lease);
  await expect(schedulerPage.rejectionRows.first()).toBeVisible();
  await expect(schedulerPage.page.locator(`[data-testid="rejection-row"][data-attempted-epoch="${rejectedEpoch}"]`).first()).toBeVisible();
  await expect(schedulerPage.transition(firstEpoch + 1)).toBeVisible();
  await schedulerPage.showTimeline();
  await keepScreenshot(schedulerPage.page, testInfo, 'scheduler-page-takeover');
});
