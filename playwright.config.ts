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
 * `npm test` runs two shards at once (`--shard=1/2`, `--shard=2/2`), each its
 * own Playwright run with its own environment (database, server, proxy,
 * Alertmanager) and output folder (E2E_OUTPUT_DIR); inside a shard, specs
 * stay serial.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, chromiumExecutable } from './e2e/support/chromium';

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
      executablePath: chromiumExecutable(),
      args: CHROMIUM_FLAGS,
    },
  },
});
