/**
 * `npm run bench:status [-- --schedulers N --reports R]` — the status list
 * read at scale. Not a test: prints figures against the targets and exits 0
 * (1 only if the bench itself fails).
 *
 * 1. Creates a DEDICATED database (db/testing/test-database.ts: beside
 *    DATABASE_URL's server, or an embedded PostgreSQL) and drops it at the end.
 * 2. Generates N schedulers (default 10,000) and R reports each (default
 *    10,000,000 / N, so 10 M progress reports at any N) with generate_series
 *    (scripts/bench-status-data.ts; prints its speed tricks).
 * 3. Measures, calling lib/server directly (no HTTP):
 *    - the uncached list (no shared read: every call reads the store) for a
 *      page of 500 — p50/p99 over 200 calls, on a quiet store and while a
 *      writer renews and reports for every scheduler (each lease renewed every
 *      5 s, each summary every 2 s); targets p99 < 50 ms at 10,000, < 200 ms at 100,000;
 *    - the same list as served (one shared read per second);
 *    - a team's page (`selector=team=payments,env!=dev`, one scheduler in
 *      eight), and the same grouped by `service`, against the unfiltered page,
 *      uncached, the three taken in turn in the same run (ratios printed);
 *    - the previous design, a full read every call (read + project all + sort + page), and its statement alone;
 *    - projecting all N schedulers, bundled as shipped (p50 target < 20 ms at 10,000);
 *    - the status service's memory: heap held after the first read (gc'd);
 *    - the naive "latest report per lease" query over progress_reports (DISTINCT ON).
 * Env: BENCH_SCHEDULERS, BENCH_REPORTS (per scheduler), BENCH_CALLS (flags win).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import type { SchedulerListResponse } from '../lib/api/types';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { mapFactsRow, readAllFacts, type Queryable, type SchedulerRead } from '../lib/server/live/facts';
import { isoFromUtc, RAW_TYPES } from '../lib/server/live/pgtext';
import { buildList, projectAll, sortStatuses, statusesView } from '../lib/server/live/list';
import { StatusService } from '../lib/server/service';
import { factsSql } from '../lib/server/live/facts-sql';
import { seed, startActivity } from './bench-status-data';
import { fmt, stats, type Stats, time, timeWithCpu, verdict } from './bench-stats';
import { judgeDurability } from '../lib/status';
import { parseSelector } from '../lib/limits/selector';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The projection as the server runs it: bundled by esbuild (no tsx transform), in its own process. */
function projectBundled(reads: unknown, now: string): number[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-bench-'));
  try {
    const data = path.join(dir, 'reads.json');
    const bundle = path.join(dir, 'projection.js');
    writeFileSync(data, JSON.stringify({ now, reads }));
    buildSync({ entryPoints: [path.join(__dirname, 'bench-projection.ts')], bundle: true, platform: 'node', outfile: bundle, logLevel: 'error' });
    const child = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=64', bundle, data, '50'], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bundled projection failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as number[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The naive read: the live facts SQL with the summary replaced by DISTINCT ON over all reports. */
const SUMMARY_JOIN = 'LEFT JOIN progress_summaries p ON p.lease = n.name';
const NAIVE_SQL = factsSql('all').replace(
  SUMMARY_JOIN,
  `LEFT JOIN (
     SELECT latest.lease, latest.epoch, latest.reported_at AS last_report_at, latest.seq AS last_seq,
            adv.reported_at AS last_advance_at, latest.occurrence AS in_flight, latest.cursor, 5000 AS report_every_ms,
            NULL::timestamptz AS gap_from, NULL::timestamptz AS gap_to, NULL::text AS gap_reason
     FROM (SELECT DISTINCT ON (lease) lease, epoch, seq, occurrence, cursor, reported_at
           FROM progress_reports ORDER BY lease, epoch DESC, reported_at DESC) latest
     LEFT JOIN (SELECT DISTINCT ON (lease, epoch) lease, epoch, reported_at FROM progress_reports
                WHERE advanced ORDER BY lease, epoch, reported_at DESC) adv ON adv.lease = latest.lease AND adv.epoch = latest.epoch
   ) p ON p.lease = n.name`,
);

function pageOf(reads: SchedulerRead[], now: string): SchedulerListResponse {
  const statuses = sortStatuses(projectAll(reads, now));
  return buildList(
    {
      observedAt: now,
      observation: { ok: true, lastObservedAt: now },
      pollIntervalMs: 2_000,
      view: statusesView(statuses),
      durability: judgeDurability(null, now),
    },
    { limit: 500 },
  );
}

/** The previous design's uncached list: read everything, project everything, sort, page. */
async function fullPage(db: Queryable): Promise<SchedulerListResponse> {
  const { schedulers, now } = await readAllFacts(db);
  return pageOf(schedulers, now);
}

async function naivePage(db: Queryable): Promise<SchedulerListResponse> {
  const { rows } = await db.query({ text: NAIVE_SQL, rowMode: 'array', types: RAW_TYPES });
  const all = rows as (string | number | boolean | null)[][];
  const now = isoFromUtc(all.find((r) => r[0] === null)![1] as string);
  return pageOf(all.filter((r) => r[0] !== null).map(mapFactsRow), now);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Heap in use once garbage is collected (needs --expose-gc, set by the npm script). */
function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function shapeFromArgs(): { schedulers: number; reportsPerScheduler: number; calls: number } {
  const { values } = parseArgs({ options: { schedulers: { type: 'string' }, reports: { type: 'string' }, calls: { type: 'string' } }, strict: true });
  const int = (flag: string | undefined, env: string, fallback: number) => {
    const v = Number(flag ?? process.env[env]);
    return Number.isInteger(v) && v > 0 ? v : fallback;
  };
  const schedulers = int(values.schedulers, 'BENCH_SCHEDULERS', 10_000);
  return {
    schedulers,
    reportsPerScheduler: int(values.reports, 'BENCH_REPORTS', Math.max(1, Math.round(10_000_000 / schedulers))),
    calls: int(values.calls, 'BENCH_CALLS', 200),
  };
}

/**
 * The filter and the page alone, from a view already in memory (no read): what a selector adds. Its own
 * function, so that its full read and view (of every scheduler) are garbage before the heap is measured again.
 */
async function pagesFromMemory(pool: Queryable, kinds: readonly Parameters<typeof buildList>[1][], calls: number): Promise<Stats[]> {
  const { schedulers: reads, now } = await readAllFacts(pool);
  const view = statusesView(sortStatuses(projectAll(reads, now)));
  const pageIn = (params: Parameters<typeof buildList>[1]) =>
    buildList({ observedAt: now, observation: { ok: true, lastObservedAt: now }, pollIntervalMs: 2_000, view, durability: judgeDurability(null, now) }, params);
  return kinds.map((kind) => stats(timeWithCpu(calls, () => pageIn(kind)).wall));
}

async function main(): Promise<void> {
  if (!NAIVE_SQL.includes('DISTINCT ON')) throw new Error('bench: the naive query could not be built from the facts SQL');
  const { calls, ...shape } = shapeFromArgs();
  const started = performance.now();
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
  log(`host: ${os.cpus().length} CPUs, load average ${load()} (figures scale with contention)`);
  log(
    `bench:status — ${shape.schedulers.toLocaleString('en')} schedulers × ${shape.reportsPerScheduler.toLocaleString('en')} reports = ${(shape.schedulers * shape.reportsPerScheduler).toLocaleString('en')} progress reports`,
  );
  const database = await createTestDatabase(log);
  const pool = createPool(database.url, { applicationName: 'leaseboard-bench', statementTimeoutMs: 900_000, max: 2 });
  try {
    log('seeding (generate_series into the real tables):');
    await seed(pool, shape, log);
    const target = shape.schedulers <= 10_000 ? 50 : 200;

    // Memory: what the service holds once it has read everything (its index of N schedulers).
    const heapBefore = settledHeap();
    const uncached = new StatusService({ db: pool, readTimeoutMs: 60_000, pollIntervalMs: 2_000, listMaxAgeMs: 0 });
    const firstStarted = performance.now();
    const first = await uncached.list({ limit: 500 });
    const firstMs = performance.now() - firstStarted;
    const heapHeld = settledHeap() - heapBefore;
    log(`\nhealth counts: ${JSON.stringify(first.counts)} (page: ${first.schedulers.length} of ${first.total})`);

    // Uncached: every call reads what changed since the previous one, re-judges what is due, pages.
    await time(10, () => uncached.list({ limit: 500 })); // warm up: plans, V8 JIT
    const quiet = stats(await time(calls, () => uncached.list({ limit: 500 })));
    // A team's view against the whole fleet's page: taken in turn, so load drifts alike for the three.
    const team = parseSelector('team=payments,env!=dev');
    if (!team.ok) throw new Error(team.message);
    const teamList = await uncached.list({ limit: 500, selector: team.selector, group: 'service' });
    const kinds = [{ limit: 500 }, { limit: 500, selector: team.selector }, { limit: 500, selector: team.selector, group: 'service' }];
    const byLabel: number[][] = [[], [], []];
    // Each round starts with the next kind, so none always pays for the garbage of another.
    for (let i = 0; i < calls; i++) {
      for (let k = 0; k < kinds.length; k++) {
        const kind = (i + k) % kinds.length;
        byLabel[kind]!.push(...(await time(1, () => uncached.list(kinds[kind]))));
      }
    }
    const [all, selected, grouped] = byLabel.map(stats) as [Stats, Stats, Stats];
    const [allMem, selectedMem, groupedMem] = (await pagesFromMemory(pool, kinds, calls)) as [Stats, Stats, Stats];
    const names = (await pool.query<{ name: string }>('SELECT name FROM leases ORDER BY name')).rows.map((r) => r.name);
    const writer = startActivity(database.url, names);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const changedPerCall: number[] = [];
    const movedPerCall: number[] = [];
    const judgedPerCall: number[] = [];
    const busySamples: number[] = [];
    const busyUntil = performance.now() + 60_000; // at most a minute: at 100,000 every call reads thousands of changes
    while (busySamples.length < calls && performance.now() < busyUntil) {
      busySamples.push(...(await time(1, () => uncached.list({ limit: 500 }))));
      const applied = uncached.index.lastApply;
      changedPerCall.push(applied.changed);
      movedPerCall.push(applied.moved);
      judgedPerCall.push(applied.changed + applied.movedJudged + applied.timed);
    }
    const busy = stats(busySamples);
    const written = await writer.stop();
    const hot = await pool.query<{ relname: string; upd: string; hot: string }>(
      `SELECT relname, n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname IN ('leases', 'progress_summaries') ORDER BY relname`,
    );
    const changed = stats(changedPerCall);
    const moved = stats(movedPerCall);
    const judged = stats(judgedPerCall);
    const heapAfterChurn = settledHeap() - heapBefore;

    // As served: list/metrics calls share one read per second (LEASEBOARD_LIST_MAX_AGE, default 1,000 ms).
    const service = new StatusService({ db: pool, readTimeoutMs: 60_000, pollIntervalMs: 2_000, listMaxAgeMs: 1_000 });
    await service.list({ limit: 500 });
    const served = stats(await time(calls, () => service.list({ limit: 500, offset: 500 })));
    // The previous design: every call reads the store and projects everything.
    const fullEvery = stats(await time(Math.min(calls, 50), () => fullPage(pool)));
    const sqlOnly = stats(await time(Math.min(calls, 50), () => readAllFacts(pool)));
    const { schedulers: reads, now } = await readAllFacts(pool);
    const projection = stats(await time(20, () => projectAll(reads, now), true));
    const shipped = stats(projectBundled(reads, now));
    const naiveRuns = 2; // ~15–20 s each at 10 M reports
    const naive = stats(await time(naiveRuns, () => naivePage(pool)));

    const n = reads.length.toLocaleString('en');
    log(`\nresults (server time, lib/server called directly, no HTTP; ${n} schedulers):`);
    log(`  first read of everything (read, project all, index):            ${firstMs.toFixed(0)} ms`);
    log(`  uncached list page of 500, quiet store:                          ${fmt(quiet)}  target p99 < ${target} ms: ${verdict(quiet.p99 < target)}`);
    log(`  uncached list page of 500, every scheduler renewing (5 s) and reporting (2 s): ${fmt(busy)}  (p99 < ${target} ms: ${verdict(busy.p99 < target)})`);
    log(
      `    writer achieved ${Math.round(written.renewals / written.seconds).toLocaleString('en')} renewals/s + ${Math.round(written.reports / written.seconds).toLocaleString('en')} reports/s; schedulers changed per call: p50 ${changed.p50} · p99 ${changed.p99}; times moved alone per call: p50 ${moved.p50} · p99 ${moved.p99}; judged again per call (changed, moved past a threshold, threshold reached): p50 ${judged.p50} · p99 ${judged.p99}`,
    );
    log(
      `    HOT updates (no index written): ${hot.rows.map((r) => `${r.relname} ${((100 * Number(r.hot)) / Math.max(1, Number(r.upd))).toFixed(0)}% of ${Number(r.upd).toLocaleString('en')}`).join(', ')}`,
    );
    log(`  list page of 500 as served (shared read ≤ 1 s old):               ${fmt(served)}`);
    log(`  a team's list page (selector team=payments,env!=dev: ${teamList.total.toLocaleString('en')} of ${n}), uncached, in turn with the unfiltered page:`);
    log(`    unfiltered page of 500:                                        ${fmt(all)}`);
    log(
      `    filtered by the selector:                                      ${fmt(selected)}  ratio p50 ×${(selected.p50 / all.p50).toFixed(2)}, p99 ×${(selected.p99 / all.p99).toFixed(2)}`,
    );
    log(
      `    filtered and grouped by service (${teamList.groups?.length ?? 0} groups): ${fmt(grouped)}  ratio p50 ×${(grouped.p50 / all.p50).toFixed(2)}, p99 ×${(grouped.p99 / all.p99).toFixed(2)}; target p99 < ${target} ms: ${verdict(grouped.p99 < target)}`,
    );
    log(`    the page alone from a view in memory (no read): unfiltered ${fmt(allMem)}`);
    log(`      filtered ${fmt(selectedMem)}; filtered and grouped ${fmt(groupedMem)}`);
    log(`  previous design — full read every call (read+map+project all+sort+page): ${fmt(fullEvery)}`);
    log(`    ratio full / uncached incremental (quiet): p50 ×${(fullEvery.p50 / quiet.p50).toFixed(1)}, p99 ×${(fullEvery.p99 / quiet.p99).toFixed(1)}`);
    log(`    of which the facts statement + row mapping:                     ${fmt(sqlOnly)}`);
    const settled = (globalThis as { gc?: unknown }).gc ? 'earlier garbage collected before each sample' : 'run with --expose-gc to settle the heap first';
    log(`  projecting all ${n} schedulers, in this tsx process (${settled}):  ${fmt(projection)}`);
    log(
      `  projecting all ${n} schedulers, bundled as shipped (own process, --max-semi-space-size=64):  ${fmt(shipped)}${shape.schedulers === 10_000 ? `  target < 20 ms (p50): ${verdict(shipped.p50 < 20)}` : ''}`,
    );
    log(
      `  status service memory: heap held by its index after the first read ${mb(heapHeld)}, after the churn ${mb(heapAfterChurn)} (process RSS ${mb(process.memoryUsage().rss)})`,
    );
    log(`  same page from naive DISTINCT ON over progress_reports:   ${fmt(naive)}`);
    log(`  ratio naive / uncached incremental: p50 ×${(naive.p50 / quiet.p50).toFixed(0)}`);
    log(`  host load average after: ${load()}`);
    log(`\ntotal bench time ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    await pool.end();
    await database.drop();
    log('dedicated database dropped');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:status failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
