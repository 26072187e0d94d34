/** Page object: the overview (one row per scheduler). */
import type { Locator, Page } from '@playwright/test';

export class OverviewPage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /** Opens the overview, searching for `search` (each spec searches its own lease). */
  async goto(search?: string): Promise<void> {
    await this.page.goto(search ? `${this.baseUrl}?q=${encodeURIComponent(search)}` : this.baseUrl);
  }

  row(name: string): Locator {
    return this.page.locator(`[data-testid="scheduler-row"][data-name="${name}"]`);
  }

  cell(name: string, testId: string): Locator {
    return this.row(name).getByTestId(testId);
  }

  /** The displayed health of a row (`unknown` when withdrawn as stale). */
  health(name: string): Promise<string | null> {
    return this.cell(name, 'health-badge').getAttribute('data-health');
  }

  /** The ticking age in ms (`data-age-ms` on the cell or inside it); null when unknown. */
  async ageMs(name: string, testId: 'renewal-age' | 'last-progress'): Promise<number | null> {
    const raw = await this.cell(name, testId).evaluate(
      (el) => (el.matches('[data-age-ms]') ? el : el.querySelector('[data-age-ms]'))?.getAttribute('data-age-ms') ?? null,
    );
    return raw === null ? null : Number(raw);
  }

  async epoch(name: string): Promise<number> {
    return Number(await this.cell(name, 'epoch').innerText());
  }

  get notObservedBanner(): Locator {
    return this.page.getByTestId('not-observed-banner');
  }

  async hasHorizontalScroll(): Promise<boolean> {
    return this.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  }
}
