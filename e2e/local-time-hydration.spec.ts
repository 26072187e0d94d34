/**
 * No flash of a different time at hydration: with the
 * browser in Asia/Tokyo (UTC+9, no daylight saving),
 * (a) a first visit (no cookie) is served in UTC, labelled as UTC, and the
 *     page then shows the same instants in local time and remembers the zone
 *     in its cookie;
 * (b) from then on the HTML as served already shows local time, and no time's
 *     text changes at hydration (a time changes only with its instant);
 * (c) switched to UTC, the next HTML is served in UTC.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test';

test.use({ timezoneId: 'Asia/Tokyo' });

const TIME_COOKIE = 'leaseboard-time';

/** The absolute times (`<time data-mode>`, components/instant.tsx: its text one node) of an HTML document as served. */
function servedTimes(html: string): { iso: string; text: string; mode: string }[] {
  return [...html.matchAll(/<time\b([^>]*)>([^<]*)<\/time>/gi)].flatMap((m) => {
    const iso = /\bdatetime="([^"]+)"/i.exec(m[1]!)?.[1];
    const mode = /\bdata-mode="([^"]+)"/i.exec(m[1]!)?.[1];
    return iso && mode ? [{ iso, text: m[2]!, mode }] : [];
  });
}

/**
 * Records, from before the first byte is parsed, every change of an absolute time's text (`<time data-mode>`; ages
 * tick, they are not absolute) while its instant stayed the same (window.__timeSwaps), whether React changed the
 * text in place or replaced the element.
 */
async function watchTimeSwaps(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const swaps: { iso: string; was: string; now: string }[] = [];
    const firstText = new Map<string, string>();
    (window as unknown as { __timeSwaps: typeof swaps }).__timeSwaps = swaps;
    const check = () => {
      for (const el of document.querySelectorAll<HTMLTimeElement>('time[datetime][data-mode]')) {
        const iso = el.dateTime;
        const text = el.textContent ?? '';
        const was = firstText.get(iso);
        if (was === undefined) firstText.set(iso, text);
        else if (was !== text) {
          swaps.push({ iso, was, now: text });
          firstText.set(iso, text);
        }
      }
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** Live after hydration: the observation line's age has ticked (the 1 s ticker starts after mount). */
async function waitUntilLive(page: Page): Promise<void> {
  const line = page.getByTestId('observed-status');
  const first = await line.innerText();
  await expect.poll(() => line.innerText(), { timeout: 20_000 }).not.toBe(first);
}

test('the HTML is served in the zone the browser remembered, and hydration changes no time', async ({ page, env, context }) => {
  await watchTimeSwaps(page);

  // (a) First visit: UTC, labelled as UTC, then local time after mount, and the zone remembered.
  const first = await page.goto(env.baseUrl);
  const firstTimes = servedTimes(await first!.text());
  expect(firstTimes.length, 'the overview shows at least its observation time').toBeGreaterThan(0);
  expect(firstTimes.every((t) => t.mode === 'utc' && /Z$/.test(t.text))).toBe(true);
  await expect(page.locator('[data-testid="observed-status"] time')).toHaveAttribute('data-mode', 'local');
  await expect(page.locator('[data-testid="observed-status"] time')).toHaveText(/GMT\+9$/);
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === TIME_COOKIE)?.value).toBe('Asia%2FTokyo');

  // (b) Next visit: the served HTML already shows Tokyo time; no time's text changes at hydration.
  const second = await page.goto(env.baseUrl);
  const secondTimes = servedTimes(await second!.text());
  expect(secondTimes.length).toBeGreaterThan(0);
  expect(secondTimes.every((t) => t.mode === 'local' && /GMT\+9$/.test(t.text))).toBe(true);
  await waitUntilLive(page);
  expect(await page.evaluate(() => (window as unknown as { __timeSwaps: unknown[] }).__timeSwaps)).toEqual([]);
  // The instant is the one served: same ISO, same text, UTC on hover.
  const observed = page.locator('[data-testid="observed-status"] time');
  await expect(observed).toHaveAttribute('data-mode', 'local');
  await observed.hover();
  await expect(page.locator('[data-testid="observed-status"] [role="tooltip"]')).toHaveText(/Z$/);

  // (c) Switched to UTC: the next HTML is served in UTC, and hydration keeps it.
  await page.getByTestId('time-utc').click();
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === TIME_COOKIE)?.value).toBe('utc');
  const third = await page.goto(env.baseUrl);
  expect(servedTimes(await third!.text()).every((t) => t.mode === 'utc' && /Z$/.test(t.text))).toBe(true);
  await waitUntilLive(page);
  expect(await page.evaluate(() => (window as unknown as { __timeSwaps: unknown[] }).__timeSwaps)).toEqual([]);
  await expect(observed).toHaveAttribute('data-mode', 'utc');
});
