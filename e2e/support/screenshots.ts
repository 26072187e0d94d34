/** Screenshots kept with the report: written to test-results/screenshots/ and attached to the HTML report. */
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const file = path.join(testInfo.project.outputDir, 'screenshots', `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  return file;
}
