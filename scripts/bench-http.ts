/**
 * `npm run bench:http [-- --schedulers N[,N…] --seconds S --connections C]` — the
 * real dashboard server (scripts/serve.ts, production build) under load on
 * loopback, driven by autocannon. Not a test: prints figures against the
 * targets and exits 0 (1 only if the bench itself fails).
 *
 * 1. For each N (default 5 — a handful, as in the demo — then 1,000, the size bench:ui
 *    uses): a DEDICATED database (beside DATABASE_URL's server, or embedded)
 *    with N schedulers (scripts/bench-status-data.ts), every one of them
 *    renewing every 5 s and reporting every 2 s while the bench runs, so the
 *    incremental list read has real changes to read; and a fresh server.
 * 2. For each route — the list (a page of 100), metrics, one scheduler's
 *    detail, its history (last hour) and the overview page — C connections
 *    (default 64) for S seconds (default 10) each, right after the same load on a
 *    static file of the same server (/favicon.svg), the framework's own limit
 *    on this machine at that moment.
 *    Each route twice: uncompressed (no Accept-Encoding, the old table's
 *    figures) and as its real clients ask (`Accept-Encoding: gzip`, what a
 *    Prometheus scrape sends — scrape.go's acceptEncodingHeader, unless
 *    enable_compression is off; `gzip, deflate, br` from a browser for the
 *    rest), with the bytes per answer.
 * 3. The server is configured to measure throughput, not its protections:
 *    the per-client heavy-read limit is raised to its ceiling (10,000 per
 *    10 s) and the heavy-read queue to 1,000, so detail and history queue for
 *    their 4 connections instead of being refused. Every answer that is not
 *    2xx is counted by status (429 rate limited, 503 busy) and printed.
 * Targets: list and metrics p99 < 100 ms, overview p99 < 300 ms.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { seed, startActivity } from './bench-status-data';
import { ensureBuild, type RunningServer, startServer } from './bench-server';

/** What clients send: a browser (fetch and navigations), and a Prometheus scrape (enable_compression, the default). */
const BROWSER = 'gzip, deflate, br';
const PROMETHEUS = 'gzip';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** What this script reads of an autocannon result. */
interface CannonResult {
  requests: { average: number };
  throughput: { average: number };
  latency: { p50: number; p99: number; max: number };
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  totalRequests: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<CannonResult>;

async function loadAutocannon(): Promise<Autocannon> {
  const specifier = 'autocannon'; // a variable, so the type-check does not need its (absent) types
  try {
    return ((await import(specifier)) as { default: Autocannon }).default;
  } catch (cause) {
    throw new Error('bench:http: the npm package `autocannon` is not installed (it is a devDependency: npm ci)', { cause });
  }
}

function options() {
  const { values } = parseArgs({
    options: { schedulers: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } },
    strict: true,
  });
  const int = (value: string | undefined, fallback: number) => {
    const v = Number(value);
    return Number.isInteger(v) && v > 0 ? v : fallback;
  };
  const sizes = (values.schedulers ?? '5,1000').split(',').map((n) => int(n, 0));
  if (sizes.some((n) => n === 0)) throw new Error('bench:http: --schedulers takes positive integers, comma-separated');
  return { sizes, seconds: int(values.seconds, 10), connections: int(values.connections, 64) };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

async function main(): Promise<void> {
  const { sizes, ...opts } = options();
  const autocannon = await loadAutocannon();
  log(`host: ${os.cpus().length} CPUs, load average ${load()} (the load generator shares the machine with the server)`);
  const basePath = ensureBuild(log);
  for (const schedulers of sizes) await benchAt({ ...opts, schedulers }, basePath, autocannon);
}

async function benchAt(opts: { schedulers: number; seconds: number; connections: number }, basePath: string, autocannon: Autocannon): Promise<void> {
  log(`\n=== ${opts.schedulers.toLocaleString('en')} schedulers ===`);
  const database = await createTestDatabase(log);
  let server: RunningServer | null = null;
  let activity: ReturnType<typeof startActivity> | null = null;
  try {
    const pool = createPool(database.url, { applicationName: 'leaseboard-bench-http', statementTimeoutMs: 600_000 });
    log(`seeding ${opts.schedulers.toLocaleString('en')} schedulers …`);
    await seed(pool, { schedulers: opts.schedulers, reportsPerScheduler: 60 }, () => {});
    // sched-00004 is the detail and history target; bench-status-data leaves number 3 never held.
    if (opts.schedulers < 4) throw new Error('bench:http: at least 4 schedulers (the detail target is sched-00004)');
    const names = (await pool.query<{ name: string }>('SELECT name FROM leases ORDER BY name')).rows.map((r) => r.name);
    await pool.end();
    server = await startServer(database.url, basePath, {
      LEASEBOARD_HEAVY_READS_PER_10S: '10000',
      LEASEBOARD_HEAVY_QUEUE_MAX: '1000',
    });
    activity = startActivity(database.url, names);
    const detailName = 'sched-00004';
    const routes = [
      { name: 'list (page of 100)', path: '/api/v1/schedulers?limit=100', target: 100, client: BROWSER },
      { name: 'metrics', path: '/api/metrics', target: 100, client: PROMETHEUS },
      { name: 'detail', path: `/api/v1/schedulers/${detailName}`, target: null, client: BROWSER },
      { name: 'history (last hour)', path: `/api/v1/schedulers/${detailName}/history`, target: null, client: BROWSER },
      { name: 'overview page', path: '/', target: 300, client: BROWSER },
    ];
    const run = async (path: string, acceptEncoding: string | null = null) => {
      const headers = acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding };
      const result = await autocannon({ url: `${server!.url}${path}`, connections: opts.connections, duration: opts.seconds, headers });
      const codes = Object.entries(result.statusCodeStats)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, { count }]) => `${code}×${count}`);
      if (result.errors > 0) codes.push(`errors×${result.errors}`);
      if (result.timeouts > 0) codes.push(`timeouts×${result.timeouts}`);
      const kb = result.requests.average > 0 ? result.throughput.average / result.requests.average / 1024 : 0;
      return {
        rps: result.requests.average,
        kb,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        refused: codes.join(' ') || 'none',
      };
    };
    const warm = async (path: string) => {
      for (let i = 0; i < 20; i++) await (await fetch(`${server!.url}${path}`)).arrayBuffer();
    };
    log(`\n${opts.connections} connections × ${opts.seconds} s per figure; static = /favicon.svg measured just before each route`);
    log(`Accept-Encoding: "${BROWSER}" as a browser sends it, "${PROMETHEUS}" as Prometheus scrapes; "—" none (uncompressed)`);
    log('route                 | Accept-Encoding   |    req/s | KB/answer | p50 ms | p99 ms | max ms | not 2xx      || static req/s | static p99 ms | target');
    for (const route of routes) {
      await warm(route.path);
      const base = await run('/favicon.svg');
      for (const acceptEncoding of [null, route.client]) {
        const r = await run(route.path, acceptEncoding);
        const target = route.target === null ? '—' : `p99 < ${route.target} ms: ${r.p99 < route.target ? 'MET' : 'MISSED'}`;
        log(
          `${route.name.padEnd(21)} | ${(acceptEncoding ?? '—').padEnd(17)} | ${Math.round(r.rps).toLocaleString('en').padStart(8)} | ${r.kb.toFixed(1).padStart(9)} | ${String(r.p50).padStart(6)} | ${String(r.p99).padStart(6)} | ${String(r.max).padStart(6)} | ${r.refused.padEnd(12)} || ${Math.round(base.rps).toLocaleString('en').padStart(12)} | ${String(base.p99).padStart(13)} | ${target}`,
        );
      }
    }
    const written = await activity.stop();
    activity = null;
    log(
      `\nactivity during the bench: ${Math.round(written.renewals / written.seconds).toLocaleString('en')} renewals/s + ${Math.round(written.reports / written.seconds).toLocaleString('en')} reports/s`,
    );
    log(`host load average after: ${load()}`);
  } finally {
    await activity?.stop();
    server?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:http failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
