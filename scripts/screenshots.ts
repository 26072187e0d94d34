/**
 * `npx tsx scripts/screenshots.ts` — regenerates the README's screenshots of
 * the overview with its health strips: docs/screenshots/overview-{desktop,phone}-{light,dark}.png
 * (desktop 1280×800, phone 390×844; the browser in Europe/Berlin, so times show in local time).
 *
 * 1. Creates a DEDICATED database (beside DATABASE_URL's server, or an
 *    embedded PostgreSQL; dropped at the end) and seeds 1,000 schedulers in
 *    a mix of states (scripts/bench-status-data.ts), then an hour of health
 *    history in the rollup the strips read (health_changes and
 *    health_observed_minutes, as the alert evaluator writes them): steady
 *    rows, stalls that began 3.4 minutes ago, takeover gaps (no leader for
 *    half a minute, then progressing again), a freeze that recovered,
 *    schedulers registered 25 minutes ago (nothing drawn before), and a
 *    lease that lapsed a minute ago.
 * 2. Uses the production build in .next (or builds: scripts/bench-server.ts)
 *    and starts the real server on a free loopback port.
 * 3. Opens the overview in Chromium (/usr/bin/chromium when present) at each
 *    viewport and colour scheme, waits until the strips show segments, and
 *    writes the PNGs.
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/chromium';
import { nameWidth, seed } from './bench-status-data';
import { ensureBuild, ROOT, startServer } from './bench-server';

const SCHEDULERS = 1_000;
const OUT = path.join(ROOT, 'docs', 'screenshots');
const SHOTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

const log = (line: string) => process.stdout.write(`[screenshots] ${line}\n`);

/**
 * The hour of history's health changes: [which schedulers `g`, how many minutes ago, health]. The first rows (the
 * stalled ones, health now first: g = 4, 14, 24) each get a different past.
 */
const CHANGES: readonly [where: string, minutesAgo: string, health: string][] = [
  ['g % 20 NOT IN (3, 9)', '61 + g % 5', 'progressing'], // progressing since before the window
  ['g % 20 = 3', '25', 'no_leader'], // registered 25 minutes ago, never held
  ['g % 20 = 9', '25', 'unknown'], // registered 25 minutes ago, its first report a minute later
  ['g % 20 = 9', '24', 'progressing'],
  ['g % 10 = 4', '3.4', 'stalled'], // the seed's cursor froze 8 min 20 s ago: judged stalled 5 min later
  // Takeover gaps: the holder gone, no leader until the lease lapsed, then another took over.
  ['g % 7 = 0 OR g % 30 = 24', '44 - g % 9', 'no_leader'],
  ['g % 7 = 0 OR g % 30 = 24', '43 - g % 9', 'progressing'],
  ['g % 11 = 0 OR g % 30 = 4', '18 - g % 4', 'no_leader'],
  ['g % 11 = 0 OR g % 30 = 4', '17.5 - g % 4', 'progressing'],
  // A freeze that recovered.
  ['g % 13 = 0 OR g % 30 = 4', '33', 'stalled'],
  ['g % 13 = 0 OR g % 30 = 4', '27', 'progressing'],
  // The seed's expired leases lapsed a minute ago; its released ones are idle since.
  ['g % 20 = 1', '1', 'no_leader'],
  ['g % 20 = 2', '2', 'idle'],
];

/**
 * The hour of history, per scheduler `g` (the same name formula as the seed). Written with
 * triggers off (session_replication_role = replica), as scripts/bench-strips.ts seeds it.
 */
function historySql(width: number): string[] {
  const name = `'sched-' || lpad(g::text, ${width}, '0')`;
  return [
    // The seed registers everyone a day ago (first_registered_at defaults to now); g % 20 = 3 and 9: 25 minutes ago.
    `UPDATE schedulers SET first_registered_at = registered_at`,
    `UPDATE schedulers SET first_registered_at = clock_timestamp() - interval '25 minutes', registered_at = clock_timestamp() - interval '25 minutes'
     WHERE name IN (SELECT ${name} FROM generate_series(1, $1::int) g WHERE g % 20 IN (3, 9))`,
    ...CHANGES.map(
      ([where, minutesAgo, health]) => `INSERT INTO health_changes (name, at, health, lease, epoch)
       SELECT ${name}, clock_timestamp() - (${minutesAgo}) * interval '1 minute', '${health}', 'leaseboard-alerts', 1
       FROM generate_series(1, $1::int) g WHERE ${where} ON CONFLICT DO NOTHING`,
    ),
    // The evaluator observed every minute of the window, except a gap of two minutes.
    `INSERT INTO health_observed_minutes (minute, lease, epoch)
     SELECT date_trunc('minute', clock_timestamp()) - m * interval '1 minute', 'leaseboard-alerts', 1
     FROM generate_series(0, 70) m WHERE m NOT IN (51, 52) ON CONFLICT DO NOTHING`,
  ];
}

async function main(): Promise<void> {
  const database = await createTestDatabase(log);
  const pool = createPool(database.url, { applicationName: 'leaseboard-screenshots', max: 2 });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await seed(pool, { schedulers: SCHEDULERS, reportsPerScheduler: 120 }, log);
    const client = await pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      for (const sql of historySql(nameWidth(SCHEDULERS))) await client.query(sql, sql.includes('$1') ? [SCHEDULERS] : []);
    } finally {
      client.release();
    }
    const basePath = ensureBuild(log);
    server = await startServer(database.url, basePath);
    log(`server at ${server.url}`);
    const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_FLAGS });
    try {
      for (const shot of SHOTS) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({
            viewport: shot.viewport,
            isMobile: shot.isMobile,
            hasTouch: shot.isMobile,
            deviceScaleFactor: 1,
            colorScheme,
            timezoneId: 'Europe/Berlin',
            locale: 'en-GB',
          });
          const page = await context.newPage();
          await page.goto(`${server.url}/`);
          await page.locator('[data-testid="strip-segment"]').first().waitFor({ timeout: 60_000 });
          await page.locator('[data-testid="strip-segment"][data-health="stalled"]').first().waitFor({ timeout: 30_000 });
          const file = path.join(OUT, `overview-${shot.name}-${colorScheme}.png`);
          await page.screenshot({ path: file });
          log(`wrote ${path.relative(ROOT, file)}`);
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    server?.stop();
    await pool.end();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
