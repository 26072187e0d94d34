/** Page object: one scheduler's page, live or as of an instant. */
import { expect, type Locator, type Page } from '@playwright/test';

export class SchedulerPage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async goto(name: string, at?: string): Promise<void> {
    const query = at ? `?at=${encodeURIComponent(at)}` : '';
    await this.page.goto(`${this.baseUrl}/schedulers/${encodeURIComponent(name)}${query}`);
  }

  get health(): Locator {
    return this.page.getByTestId('detail-health');
  }

  get epoch(): Locator {
    return this.page.getByTestId('detail-epoch');
  }

  get leader(): Locator {
    return this.page.getByTestId('detail-leader');
  }

  get rejectionRows(): Locator {
    return this.page.getByTestId('rejection-row');
  }

  transition(epoch: number): Locator {
    return this.page.locator(`[data-testid="transition-row"][data-epoch="${epoch}"]`);
  }

  get momentLink(): Locator {
    return this.page.getByTestId('moment-link');
  }

  get asOfBanner(): Locator {
    return this.page.getByTestId('as-of-banner');
  }

  /** The page for an `?at=` older than what is kept: "no longer kept (retention N days)". */
  get notKept(): Locator {
    return this.page.getByTestId('detail-not-kept');
  }

  get timeline(): Locator {
    return this.page.getByTestId('timeline');
  }

  /** The chart loads when its section nears the viewport: scroll there and wait for it. */
  async showTimeline(): Promise<void> {
    await this.page.getByTestId('timeline-section').scrollIntoViewIfNeeded();
    await expect(this.timeline).toBeVisible();
  }

  /** The Timeline's "Export incident (Markdown)" link, fetched: its content type and text. */
  async incidentExport(): Promise<{ contentType: string; markdown: string }> {
    const link = this.page.getByTestId('incident-export');
    await expect(link).toBeVisible();
    const response = await this.page.request.get(new URL((await link.getAttribute('href'))!, this.page.url()).toString());
    expect(response.status()).toBe(200);
    return { contentType: response.headers()['content-type'] ?? '', markdown: await response.text() };
  }
}
