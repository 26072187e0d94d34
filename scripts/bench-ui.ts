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
 *    (scripts/bench-status-data.ts), starts `next start` on a free loopback
 *    port, and drops everything at the end.
 * 4. Runs Lighthouse (mobile default and desktop preset) on the overview and
 *    on one scheduler's page, BENCH_UI_RUNS times each (default 3), and prints
 *    the median scores.
 * Env: BENCH_UI_SCHEDULERS (default 1000), BENCH_UI_RUNS, CHROME_PATH.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../db/free-port';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { CHROMIUM_FLAGS, chromiumExecutable } from '../e2e/support/chromium';
import { seed } from './bench-status-data';

const ROOT = path.resolve(__dirname, '..');
const TARGETS = { performance: 90, accessibility: 95 } as const;
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

const log = (line: string) => process.stdout.write(`${line}\n`);
const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

// ------------------------------------------------------------ Lighthouse, loaded at run time

interface LighthouseResult {
  lhr: { categories: Record<string, { score: number | null }>; runWarnings: string[] };
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

// ------------------------------------------------------------ build and server

function buildBasePath(): string | null {
  const manifest = path.join(ROOT, '.next', 'required-server-files.json');
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')) || !existsSync(manifest)) return null;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { config?: { basePath?: string } }).config?.basePath ?? '';
}

function ensureBuild(): string {
  const existing = buildBasePath();
  if (existing !== null && !process.argv.includes('--build')) {
    log(`build: reusing .next (base path "${existing}"); pass --build to rebuild`);
    return existing;
  }
  log('build: next build …');
  const result = spawnSync(process.execPath, [require.resolve('next/dist/bin/next'), 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`bench:ui: next build exited with ${result.status}`);
  return buildBasePath() ?? '';
}

async function startServer(databaseUrl: string, basePath: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [require.resolve('next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, LEASEBOARD_BASE_PATH: basePath, NEXT_PUBLIC_LEASEBOARD_BASE_PATH: basePath },
  });
  const url = `http://127.0.0.1:${port}${basePath}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/healthz`)).status < 500) return { url, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  process.kill(-child.pid!, 'SIGKILL');
  throw new Error('bench:ui: next start did not answer within 60 s');
}

// ------------------------------------------------------------ measuring

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function score(lh: Awaited<ReturnType<typeof loadLighthouse>>, url: string, desktop: boolean, runs: number) {
  const chromePath = process.env.CHROME_PATH ?? chromiumExecutable();
  const perf: number[] = [];
  const a11y: number[] = [];
  for (let i = 0; i < runs; i++) {
    const chrome = await lh.launcher.launch({ chromeFlags: CHROME_FLAGS, chromePath });
    try {
      const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
      const result = await lh.lighthouse(url, flags, desktop ? lh.desktopConfig : undefined);
      if (!result) throw new Error(`bench:ui: Lighthouse returned nothing for ${url}`);
      perf.push(Math.round((result.lhr.categories.performance?.score ?? 0) * 100));
      a11y.push(Math.round((result.lhr.categories.accessibility?.score ?? 0) * 100));
      for (const warning of result.lhr.runWarnings) log(`  warning: ${warning}`);
    } finally {
      await chrome.kill();
    }
  }
  return { performance: median(perf), accessibility: median(a11y), perfRuns: perf, a11yRuns: a11y };
}

async function main() {
  const schedulers = envInt('BENCH_UI_SCHEDULERS', 1_000);
  const runs = envInt('BENCH_UI_RUNS', 3);
  const lh = await loadLighthouse();
  const basePath = ensureBuild();
  const database = await createTestDatabase(log);
  let server: ChildProcess | null = null;
  try {
    const pool = createPool(database.url, { applicationName: 'leaseboard-bench-ui' });
    log(`seeding ${schedulers} schedulers …`);
    await seed(pool, { schedulers, reportsPerScheduler: 60 }, log);
    await pool.end();
    const started = await startServer(database.url, basePath);
    server = started.process;
    const pages = [
      { name: 'overview (page 1 of 100 rows)', url: started.url },
      { name: 'scheduler page (sched-00004)', url: `${started.url}/schedulers/sched-00004` },
    ];
    log(`\nLighthouse, median of ${runs} (targets: performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility})`);
    for (const page of pages) {
      for (const desktop of [false, true]) {
        const result = await score(lh, page.url, desktop, runs);
        const verdict = result.performance >= TARGETS.performance && result.accessibility >= TARGETS.accessibility ? 'meets targets' : 'BELOW TARGET';
        log(
          `  ${page.name}, ${desktop ? 'desktop' : 'mobile'}: performance ${result.performance} [${result.perfRuns.join(', ')}] · accessibility ${result.accessibility} [${result.a11yRuns.join(', ')}] — ${verdict}`,
        );
      }
    }
  } finally {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.message}${error.cause ? `\n  cause: ${String(error.cause)}` : ''}` : error);
  process.exit(1);
});
