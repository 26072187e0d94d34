/**
 * The name is the row's identity and the occurrence says which run is stuck:
 * from 1,280 px up (cards below 1,360 px, the table above) both are shown in
 * full — wrapped if need be, never cut with an ellipsis and never only in a
 * tooltip. Screenshots at each width are kept with the report.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures/test';
import { keepScreenshot } from './support/screenshots';

/** Whether every character of the element's text is drawn inside it and inside its cell (nothing clipped). */
function fullyShown(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const fits = (e: Element) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1;
    const cell = el.closest('th, td');
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - 1 && inner.right <= outer.right + 1 && inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
    return fits(el) && cell !== null && fits(cell) && inside(el.getBoundingClientRect(), cell.getBoundingClientRect());
  });
}

test('names and occurrences are readable in full from 1,280 px up', async ({ schedulers, lease, overview, page }, testInfo) => {
  // The longest name the lease protocol accepts (64 characters), and its occurrence key (85).
  const name = `${lease}-index-compaction-nightly-eu-west`.slice(0, 64).replace(/-+$/, '');
  await schedulers.start(name, 'A');
  await overview.goto(name);
  await expect.poll(() => overview.health(name)).toBe('progressing');
  const link = overview.cell(name, 'scheduler-link');
  const occurrence = overview.cell(name, 'occurrence');
  await expect(occurrence).toHaveText(new RegExp(`^${name}@\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`));

  for (const width of [1280, 1366, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(link).toHaveText(name);
    await expect.poll(() => fullyShown(link), { message: `name in full at ${width} px` }).toBe(true);
    await expect.poll(() => fullyShown(occurrence), { message: `occurrence in full at ${width} px` }).toBe(true);
    await expect.poll(() => overview.hasHorizontalScroll()).toBe(false);
    await keepScreenshot(page, testInfo, `overview-${width}px`);
  }
});
