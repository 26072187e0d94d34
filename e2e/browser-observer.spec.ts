/**
 * The browser is an observer too.
 * (e) offline: rows grey, "Not observed since …", never green; back online → fresh data.
 * (f) weak network (seconds of latency via CDP): never a blank page; ages keep
 *     ticking from when the data was observed and turn unknown when too old.
 */
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

test('offline: rows grey with "Not observed since", and fresh data when back online', async ({ schedulers, lease, overview, context, env }, testInfo) => {
  await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  await context.setOffline(true);
  await expect(overview.notObservedBanner).toBeVisible({ timeout: 4 * env.pollIntervalMs + 2_000 });
  // innerText: the UTC value in its (hidden until hover) tooltip is not part of what is read.
  await expect(overview.notObservedBanner).toHaveText(/^Not observed since \d\d:\d\d:\d\d(Z| \S+) \(\d/, { useInnerText: true });
  await expect(overview.row(lease)).toHaveClass(/row-stale/);
  await expect(overview.cell(lease, 'health-badge')).toHaveText('Unknown (stale)');
  await expect(overview.cell(lease, 'renewal-age')).toHaveText('unknown');
  await expect(overview.page).toHaveTitle(/^\? not observed · Leaseboard$/);
  await expect(overview.page.locator('[data-testid="health-badge"][data-health="progressing"]')).toHaveCount(0);
  await keepScreenshot(overview.page, testInfo, 'overview-offline');

  await context.setOffline(false);
  await expect(overview.notObservedBanner).toBeHidden();
  await expect.poll(() => overview.health(lease)).toBe('progressing');
  await expect(overview.row(lease)).not.toHaveClass(/row-stale/);
});

test('weak network: never blank, ages keep their age, unknown when too old', async ({ schedulers, lease, overview, page, env }) => {
  await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');

  // Sample what a person could see, every 50 ms: was any sample blank? A
  // sample counts once the rows have been on screen, or once the document is
  // parsed, whichever comes first. Before that the page is still arriving:
  // over this 64 kB/s link Chromium paints the part of the streamed HTML it
  // has (header, counts, toolbar, strip legend) before the chunk with the rows
  // — a page loading, not a blank one (seen as the first sample, readyState
  // "loading", painted, rows not parsed yet). From then on, a sample without
  // rows is a page that went blank.
  await page.addInitScript(() => {
    const samples: boolean[] = [];
    (window as unknown as { __blank: boolean[] }).__blank = samples;
    let rowsShown = false;
    setInterval(() => {
      if (!document.body) return;
      const rows = document.querySelector('[data-testid="scheduler-row"]') !== null;
      rowsShown ||= rows;
      if (rowsShown || document.readyState !== 'loading') samples.push(!rows);
    }, 50);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const latencyMs = 2.5 * env.pollIntervalMs;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput: 64 * 1024, uploadThroughput: 32 * 1024 });

  await page.reload();
  await expect(overview.row(lease)).toBeVisible();
  // Every answer arrives older than two poll intervals: the page must say so rather than show it as current.
  await expect(overview.notObservedBanner).toBeVisible({ timeout: 15_000 });
  await expect(overview.cell(lease, 'health-badge')).toHaveAttribute('data-health', 'unknown');
  await expect(overview.cell(lease, 'renewal-age')).toHaveText('unknown');
  // Several slow polls later (≈ 4 s of samples), still the same honest picture.
  const sampleCount = () => page.evaluate(() => (window as unknown as { __blank: boolean[] }).__blank.length);
  await expect.poll(sampleCount, { timeout: 15_000 }).toBeGreaterThan(80);
  await expect(overview.notObservedBanner).toBeVisible();
  await expect(overview.cell(lease, 'renewal-age')).toHaveText('unknown');
  await expect(overview.row(lease)).toBeVisible();

  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(overview.notObservedBanner).toBeHidden({ timeout: 15_000 });
  await expect.poll(() => overview.health(lease)).toBe('progressing');
  const blanks = await page.evaluate(() => (window as unknown as { __blank: boolean[] }).__blank);
  expect(blanks.length).toBeGreaterThan(80);
  expect(blanks.filter(Boolean)).toHaveLength(0);
});

test('weak network: a ticking age counts from when the request was sent', async ({ schedulers, lease, overview, page, env }) => {
  await schedulers.start(lease, 'A');
  await overview.goto(lease);
  await expect.poll(() => overview.health(lease)).toBe('progressing');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // Well under two poll intervals: data stays usable, but its age includes the latency it travelled. An answer is
  // as old as the time between two requests (one interval) plus the latency plus the server's time, and is stale
  // past two intervals: at 0.8 of an interval a loaded server's few hundred ms tipped samples into "unknown".
  const latencyMs = 0.5 * env.pollIntervalMs;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
  await page.reload();
  await expect(overview.row(lease)).toBeVisible();
  await expect.poll(() => overview.ageMs(lease, 'renewal-age'), { timeout: 5_000 }).toBeGreaterThanOrEqual(latencyMs);
  // Across several slow polls, no sample is younger than the latency the data travelled. A row whose data is
  // past two intervals shows "unknown" and has no age: on a saturated machine some do, so this samples until
  // it has 30 ages (one every 100 ms, for at most 30 s) rather than counting on 30 of 40 tries.
  const samples = await page.evaluate(async (name) => {
    const ages: number[] = [];
    for (let i = 0; i < 300 && ages.length < 30; i++) {
      const row = document.querySelector(`[data-testid="scheduler-row"][data-name="${name}"]`);
      const raw = row?.querySelector('[data-testid="renewal-age"]')?.getAttribute('data-age-ms');
      if (raw) ages.push(Number(raw));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return ages;
  }, lease);
  expect(samples.length).toBe(30);
  expect(Math.min(...samples)).toBeGreaterThanOrEqual(latencyMs);
});
