/**
 * `npm run bench:ui` — Lighthouse performance and accessibility of the
 * dashboard with 1,000 schedulers, on the production build. Not a test:
 * prints the scores against the targets (performance ≥ 90, accessibility
 * ≥ 95) and exits 0 (1 only if the bench itself fails).
 *
 * 1. Needs `lighthouse` (npm, 12.8.2 supports Node 20) as a devDependency, and
 *    Chromium: CHROME_PATH, else /usr/bin/chromium when it exists.
 * 2. Uses the existing production build in .next (its base path is read from
 *    the build), or runs `next build` when there is none or `--build` is given.
 * 3. Creates a DEDICATED database (beside DATABASE_URL's server, or an
 *    embedded PostgreSQL), seeds 1,000 schedulers with a mix of states
 *    (scripts/bench-status-data.ts), starts the real server (scripts/serve.ts,
 *    production: security headers, CSP nonces) on a free loopback port, and
 *    drops everything at the end.
 * 4. Runs Lighthouse (mobile default and desktop preset) on the overview and
 *    on one scheduler's page, BENCH_UI_RUNS times each (default 5; an attempt
 *    Lighthouse could not complete is reported and run again), and prints
 *    the median scores, the metrics behind the mobile score, and the
 *    JavaScript each page loads before it is interactive (first-load JS,
 *    compressed as sent) — and whether the chart library is among it.
 * 5. After Lighthouse, the main-thread work after load on both pages
 *    (scripts/bench-ui-main-thread.ts: a Chromium trace, unthrottled, phone
 *    viewport): with the store quiet, and with a writer renewing every lease
 *    every 5 s and reporting every 2 s (scripts/bench-status-data.ts
 *    `startActivity`), as a live fleet changes rows between polls; last,
 *    because the leases it renewed expire once it stops.
 *    `--main-thread-only` skips Lighthouse; `--overview-only` measures the
 *    overview alone, `--mobile-only` skips Lighthouse's desktop preset.
 * Env: BENCH_UI_SCHEDULERS (default 1000), BENCH_UI_RUNS, BENCH_UI_TRACE_S
 * (recorded span, default 10), CHROME_PATH.
 */
import { loadavg } from 'node:os';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/chromium';
import { nameWidth, seed, startActivity } from './bench-status-data';
import { formatFigures, launchChromium, measureMainThread } from './bench-ui-main-thread';
import { ensureBuild, type RunningServer, startServer } from './bench-server';

const TARGETS = { performance: 90, accessibility: 95 } as const;
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

const log = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `load average (1 min) ${loadavg()[0]!.toFixed(1)}`;
const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

// ------------------------------------------------------------ Lighthouse, loaded at run time

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  /** mainthread-work-breakdown's items: a kind of work and its time. */
  groupLabel?: string;
  duration?: number;
  /** long-tasks' items. */
  startTime?: number;
}
interface LighthouseResult {
  lhr: {
    categories: Record<string, { score: number | null }>;
    runWarnings: string[];
    runtimeError?: { code: string; message: string };
    audits: Record<string, { numericValue?: number; details?: { items?: NetworkItem[] } }>;
  };
}
type Lighthouse = (url: string, flags: Record<string, unknown>, config?: unknown) => Promise<LighthouseResult | undefined>;
interface LaunchedChrome {
  port: number;
  kill(): Promise<void> | void;
}
interface ChromeLauncher {
  launch(options: { chromeFlags: string[]; chromePath?: string }): Promise<LaunchedChrome>;
}

/** The specifiers are variables so that TypeScript does not require the package to type-check the project. */
async function loadLighthouse(): Promise<{ lighthouse: Lighthouse; launcher: ChromeLauncher; desktopConfig: unknown }> {
  const specifiers = { lighthouse: 'lighthouse', launcher: 'chrome-launcher', desktop: 'lighthouse/core/config/desktop-config.js' };
  try {
    const lighthouse = ((await import(specifiers.lighthouse)) as { default: Lighthouse }).default;
    const launcher = (await import(specifiers.launcher)) as ChromeLauncher;
    const desktopConfig = ((await import(specifiers.desktop)) as { default: unknown }).default;
    return { lighthouse, launcher, desktopConfig };
  } catch (cause) {
    throw new Error('bench:ui: the npm package `lighthouse` is not installed — add it: npm install --save-dev lighthouse@12.8.2', { cause });
  }
}

// ------------------------------------------------------------ measuring

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The metrics behind the performance score (ms, CLS unitless). */
const METRICS = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['SI', 'speed-index'],
  ['CLS', 'cumulative-layout-shift'],
] as const;

/** Lighthouse's own breakdown of the load, medians: main-thread time (all of it, and the scripts' part) and bytes. */
const BREAKDOWN = [
  ['main-thread work', 'mainthread-work-breakdown', 'ms'],
  ['script bootup', 'bootup-time', 'ms'],
  ['total bytes', 'total-byte-weight', 'kB'],
] as const;

/** The LCP element's label as Lighthouse names it (its audit nests it in tables of a list). */
function lcpElementOf(audit: unknown): string {
  const labels = JSON.stringify(audit ?? null).match(/"nodeLabel":"((?:[^"\\]|\\.)*)"/);
  return labels ? labels[1]!.slice(0, 80) : '?';
}

/** A string every recharts bundle carries (its CSS class names survive minification). */
const CHART_SIGNATURE = 'recharts-surface';

/**
 * The page's JavaScript: first-load (the scripts its HTML names), and what it
 * loaded later during the run; sizes as sent (compressed) and unpacked; and
 * whether the chart library is among the first-load scripts.
 */
async function javascriptOf(pageUrl: string, items: NetworkItem[]) {
  const html = await (await fetch(pageUrl)).text();
  const origin = new URL(pageUrl).origin;
  const named = new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), origin).href));
  const scripts = items.filter((item) => item.resourceType === 'Script');
  const sum = (list: NetworkItem[], key: 'transferSize' | 'resourceSize') => list.reduce((total, item) => total + (item[key] ?? 0), 0);
  const first = scripts.filter((item) => named.has(item.url));
  const later = scripts.filter((item) => !named.has(item.url));
  let chartFirst = false;
  for (const item of first) if ((await (await fetch(item.url)).text()).includes(CHART_SIGNATURE)) chartFirst = true;
  let chartLater = false;
  for (const item of later) if ((await (await fetch(item.url)).text()).includes(CHART_SIGNATURE)) chartLater = true;
  return {
    firstKb: { sent: sum(first, 'transferSize') / 1024, unpacked: sum(first, 'resourceSize') / 1024, files: first.length },
    laterKb: { sent: sum(later, 'transferSize') / 1024, files: later.length },
    chartFirst,
    chartLater,
  };
}

async function score(lh: Awaited<ReturnType<typeof loadLighthouse>>, url: string, desktop: boolean, runs: number) {
  const chromePath = process.env.CHROME_PATH ?? chromiumExecutable();
  const perf: number[] = [];
  const a11y: number[] = [];
  const metrics: Record<string, number[]> = {};
  let javascript: Awaited<ReturnType<typeof javascriptOf>> | null = null;
  const breakdown: Record<string, number[]> = {};
  let lcpElement = '?';
  let longTasks = '';
  let failed = 0;
  for (let i = 0; perf.length < runs && i < 2 * runs; i++) {
    const chrome = await lh.launcher.launch({ chromeFlags: CHROME_FLAGS, chromePath });
    try {
      const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
      const result = await lh.lighthouse(url, flags, desktop ? lh.desktopConfig : undefined);
      if (!result) throw new Error(`bench:ui: Lighthouse returned nothing for ${url}`);
      // A run Lighthouse could not complete (its trace failed on the loaded machine: NO_NAVSTART) measured nothing:
      // it is reported and run again, up to `runs` more times, never counted as a score of 0.
      if (result.lhr.runtimeError) {
        failed += 1;
        log(`  attempt ${i + 1} failed, run again: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
        continue;
      }
      perf.push(Math.round((result.lhr.categories.performance?.score ?? 0) * 100));
      a11y.push(Math.round((result.lhr.categories.accessibility?.score ?? 0) * 100));
      for (const [label, id] of METRICS) (metrics[label] ??= []).push(result.lhr.audits[id]?.numericValue ?? NaN);
      for (const [label, id] of BREAKDOWN) (breakdown[label] ??= []).push(result.lhr.audits[id]?.numericValue ?? NaN);
      const requests = result.lhr.audits['network-requests']?.details?.items ?? [];
      (breakdown['HTML document'] ??= []).push(requests.find((item) => item.resourceType === 'Document')?.transferSize ?? NaN);
      for (const item of result.lhr.audits['mainthread-work-breakdown']?.details?.items ?? [])
        if (item.groupLabel) (breakdown[item.groupLabel] ??= []).push(item.duration ?? NaN);
      longTasks = (result.lhr.audits['long-tasks']?.details?.items ?? [])
        .slice(0, 4)
        .map((task) => `${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms (${task.url.split('/').pop() || task.url})`)
        .join(', ');
      lcpElement = lcpElementOf(result.lhr.audits['largest-contentful-paint-element']);
      javascript ??= await javascriptOf(url, result.lhr.audits['network-requests']?.details?.items ?? []);
      for (const warning of result.lhr.runWarnings) log(`  warning: ${warning}`);
    } finally {
      await chrome.kill();
    }
  }
  const medianOf = (label: string) => median(metrics[label]!.filter((v) => Number.isFinite(v)));
  const medians = METRICS.map(([label]) => `${label} ${label === 'CLS' ? medianOf(label).toFixed(3) : `${Math.round(medianOf(label))} ms`}`).join(' · ');
  const kb = (label: string) => `${label} ${(median(breakdown[label]!.filter((v) => Number.isFinite(v))) / 1024).toFixed(0)} kB`;
  const loadBreakdown = [
    ...BREAKDOWN.map(([label, , unit]) => (unit === 'kB' ? kb(label) : `${label} ${Math.round(median(breakdown[label]!))} ms`)),
    `${kb('HTML document')} sent`,
    `LCP element (last run): ${lcpElement}`,
  ].join(' · ');
  const work = Object.keys(breakdown)
    .filter((label) => !BREAKDOWN.some(([known]) => known === label) && label !== 'HTML document')
    .map((label) => [label, median(breakdown[label]!)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([label, ms]) => `${label} ${Math.round(ms)} ms`)
    .join(' · ');
  if (perf.length === 0) throw new Error(`bench:ui: every Lighthouse run of ${url} failed (${failed})`);
  return {
    performance: median(perf),
    accessibility: median(a11y),
    perfRuns: perf,
    a11yRuns: a11y,
    failed,
    medians,
    loadBreakdown,
    work,
    longTasks,
    javascript: javascript!,
  };
}

/** Main-thread busy time after load, per page: the store quiet, then under a writer's renewals and reports. */
async function mainThread(databaseUrl: string, schedulers: number, pages: { name: string; url: string }[]) {
  const options = { settleMs: 2_000, recordMs: envInt('BENCH_UI_TRACE_S', 10) * 1_000 };
  const names = Array.from({ length: schedulers }, (_, i) => `sched-${String(i + 1).padStart(nameWidth(schedulers), '0')}`);
  log(
    `\nMain thread after load (Chromium trace, unthrottled, phone viewport; ${options.settleMs / 1000} s settle, ${options.recordMs / 1000} s recorded; ${load()})`,
  );
  const browser = await launchChromium();
  try {
    for (const page of pages) log(`  ${page.name}, store quiet: ${formatFigures(await measureMainThread(browser, page.url, options))}`);
    const writer = startActivity(databaseUrl, names);
    try {
      for (const page of pages) log(`  ${page.name}, leases renewing: ${formatFigures(await measureMainThread(browser, page.url, options))}`);
    } finally {
      const done = await writer.stop();
      log(`    (writer: ${Math.round(done.renewals / done.seconds)} renewals/s, ${Math.round(done.reports / done.seconds)} reports/s)`);
    }
  } finally {
    await browser.close();
  }
}

async function main() {
  const schedulers = envInt('BENCH_UI_SCHEDULERS', 1_000);
  const runs = envInt('BENCH_UI_RUNS', 5);
  const lh = await loadLighthouse();
  const basePath = ensureBuild(log);
  const database = await createTestDatabase(log);
  let server: RunningServer | null = null;
  try {
    const pool = createPool(database.url, { applicationName: 'leaseboard-bench-ui' });
    log(`seeding ${schedulers} schedulers …`);
    await seed(pool, { schedulers, reportsPerScheduler: 60 }, log);
    await pool.end();
    server = await startServer(database.url, basePath);
    const started = server;
    const pages = [
      { name: 'overview (page 1 of 100 rows)', url: started.url },
      { name: 'scheduler page (sched-00004)', url: `${started.url}/schedulers/sched-00004` },
    ].filter((page) => !process.argv.includes('--overview-only') || page.name.startsWith('overview'));
    const mainThreadOnly = process.argv.includes('--main-thread-only');
    if (!mainThreadOnly) await lighthouseScores(lh, pages, runs);
    // Last: its writer leaves every lease it renewed expiring 15 s after it stops (the pages then show other states).
    await mainThread(database.url, schedulers, pages);
  } finally {
    server?.stop();
    await database.drop();
  }
}

async function lighthouseScores(lh: Awaited<ReturnType<typeof loadLighthouse>>, pages: { name: string; url: string }[], runs: number) {
  log(`\nLighthouse, median of ${runs} (targets: performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility}; ${load()})`);
  for (const page of pages) {
    for (const desktop of process.argv.includes('--mobile-only') ? [false] : [false, true]) {
      const result = await score(lh, page.url, desktop, runs);
      const verdict = result.performance >= TARGETS.performance && result.accessibility >= TARGETS.accessibility ? 'meets targets' : 'BELOW TARGET';
      log(
        `  ${page.name}, ${desktop ? 'desktop' : 'mobile'}: performance ${result.performance} [${result.perfRuns.join(', ')}${result.failed ? `; ${result.failed} failed attempts run again` : ''}] · accessibility ${result.accessibility} [${result.a11yRuns.join(', ')}] — ${verdict}`,
      );
      log(`    medians: ${result.medians}`);
      log(`    load: ${result.loadBreakdown}`);
      log(`    main-thread work by kind: ${result.work}`);
      log(`    longest tasks (last run, simulated): ${result.longTasks}`);
      log(`    ${load()}`);
      if (!desktop) {
        const js = result.javascript;
        log(
          `    first-load JS: ${js.firstKb.sent.toFixed(0)} kB sent (${js.firstKb.unpacked.toFixed(0)} kB unpacked, ${js.firstKb.files} files); chart library in it: ${js.chartFirst ? 'YES' : 'no'}; loaded later in the run: ${js.laterKb.sent.toFixed(0)} kB (${js.laterKb.files} files${js.chartLater ? ', with the chart library' : ''})`,
        );
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.message}${error.cause ? `\n  cause: ${String(error.cause)}` : ''}` : error);
  process.exit(1);
});
