/**
 * (d) SIGUSR2 drops reports: the row turns "Unknown after observation gap"
 * with the gap's span. Recovery never asserts health retroactively: after
 * reports resume, the row stays unknown until an advance (→ progressing) or,
 * when the work really is stuck, a full stall window of continuous reports
 * (→ stalled).
 */
import { E2E_TIMINGS } from './fixtures/schedulers';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test('dropped reports read as unknown with the gap span; resumed reports recover to the true state', async ({ schedulers, lease, overview }, testInfo) => {
  const a = await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  await test.step('drop reports → unknown after observation gap, with its span', async () => {
    a.signal('SIGUSR2');
    await expect.poll(() => overview.health(lease)).toBe('unknown');
    const gap = overview.cell(lease, 'gap');
    await expect(gap).toHaveAttribute('data-gap', 'unknown');
    await expect(gap).toContainText('Unknown after observation gap');
    await expect(overview.cell(lease, 'gap-span')).toHaveText(/since \d\d:\d\d:\d\dZ \(\d.*\) · /);
    await keepScreenshot(overview.page, testInfo, 'overview-observation-gap');
  });

  await test.step('resume while progressing → unknown until an advance, then progressing', async () => {
    a.signal('SIGUSR2');
    await expect.poll(() => overview.health(lease)).toBe('progressing');
  });

  await test.step('stalled, drop, resume reports → unknown for a full stall window, then stalled again', async () => {
    a.signal('SIGUSR1');
    await expect.poll(() => overview.health(lease), { timeout: 20_000 }).toBe('stalled');
    a.signal('SIGUSR2');
    await expect.poll(() => overview.health(lease)).toBe('unknown');
    a.signal('SIGUSR2');
    const resumedAt = Date.now();
    // Stalled can only be proven by a whole window of continuous reports; until then, unknown — never green.
    const seen = new Set<string | null>();
    await expect
      .poll(
        async () => {
          const health = await overview.health(lease);
          seen.add(health);
          return health;
        },
        { timeout: 25_000, intervals: [250] },
      )
      .toBe('stalled');
    expect(Date.now() - resumedAt).toBeGreaterThanOrEqual(E2E_TIMINGS['stall-after'] - 1_000);
    expect([...seen].filter((health) => health !== 'stalled')).toEqual(['unknown']);
    a.signal('SIGUSR1');
    await expect.poll(() => overview.health(lease)).toBe('progressing');
  });
});
