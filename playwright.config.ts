/**
 * End-to-end tests: real Chromium, the real production server (`next start`
 * of ONE build made beforehand with `LEASEBOARD_BASE_PATH=/ops/leaseboard`),
 * a real database and real scheduler processes.
 *
 * e2e/global-setup.ts creates a fresh migrated database, starts `next start`
 * on a free loopback port and a tiny reverse proxy that serves only the
 * `/ops/leaseboard` prefix; every spec browses through that proxy, so every
 * test is also a base-path test (e2e/base-path.spec.ts audits it explicitly).
 * Workers: 1 — two cores are shared by the server, the database and the
 * scheduler processes, and fault timings are in seconds. Retries: none.
 * One run, not shards: two shards at once (each its own database, server,
 * proxy, Alertmanager and 1,000-scheduler fleet) ended no sooner than one run
 * alone, about 8 minutes on this machine's two cores, for about 1.5 times its
 * CPU, and their timing-bound cases failed beside each other.
 * E2E_OUTPUT_DIR moves the output folder.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, headlessChromiumExecutable } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts$/,
  outputDir: process.env.E2E_OUTPUT_DIR || 'test-results',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // No retries, in CI or not: a test that passes only on a second try has a
  // real cause (a race, a wall-clock assumption) to find, and the test runner
  // (scripts/test-all.ts) counts a flaky result as a failure anyway.
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: headlessChromiumExecutable(),
      args: CHROMIUM_FLAGS,
    },
  },
});
