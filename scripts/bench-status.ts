/**
 * `npm run bench:status` — the status list read at scale. Not a test: prints
 * figures against the targets and exits 0 (1 only if the bench itself fails).
 *
 * 1. Creates a DEDICATED database (db/testing/test-database.ts: beside
 *    DATABASE_URL's server, or an embedded PostgreSQL) and drops it at the end.
 * 2. Generates N schedulers (default 10,000) and R reports each (default
 *    1,000 → 10,000,000 progress reports) with generate_series
 *    (scripts/bench-status-data.ts; prints its speed tricks).
 * 3. Measures, calling lib/server directly (no HTTP):
 *    - the list read for a page of 500 — p50/p99 over 200 calls (target p99 < 50 ms),
 *      as served (one shared read per second) and with a fresh read every
 *      call, and its database statement alone;
 *    - projecting all N schedulers (CPU ms; target < 20 ms);
 *    - the same page from a naive "latest report per lease" query over
 *      progress_reports (DISTINCT ON), and the ratio.
 * Env: BENCH_SCHEDULERS, BENCH_REPORTS (per scheduler), BENCH_CALLS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { SchedulerListResponse } from '../lib/api/types';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { mapFactsRow, readAllFacts, type Queryable } from '../lib/server/live/facts';
import { isoFromUtc, RAW_TYPES } from '../lib/server/live/pgtext';
import { buildList, projectAll, sortStatuses, statusesView } from '../lib/server/live/list';
import { StatusService } from '../lib/server/service';
import { factsSql } from '../lib/server/live/facts-sql';
import { seed } from './bench-status-data';
import { envInt, fmt, stats, time, verdict } from './bench-stats';

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

async function naivePage(db: Queryable): Promise<SchedulerListResponse> {
  const { rows } = await db.query({ text: NAIVE_SQL, rowMode: 'array', types: RAW_TYPES });
  const all = rows as (string | number | boolean | null)[][];
  const now = isoFromUtc(all[0]![1] as string);
  const reads = all.filter((r) => r[0] !== null).map(mapFactsRow);
  const statuses = sortStatuses(projectAll(reads, now));
  return buildList({ observedAt: now, observation: { ok: true, lastObservedAt: now }, pollIntervalMs: 2_000, view: statusesView(statuses) }, { limit: 500 });
}

async function main(): Promise<void> {
  if (!NAIVE_SQL.includes('DISTINCT ON')) throw new Error('bench: the naive query could not be built from the facts SQL');
  const shape = { schedulers: envInt('BENCH_SCHEDULERS', 10_000), reportsPerScheduler: envInt('BENCH_REPORTS', 1_000) };
  const calls = envInt('BENCH_CALLS', 200);
  const started = performance.now();
  log(
    `host: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (figures scale with contention)`,
  );
  log(
    `bench:status — ${shape.schedulers.toLocaleString('en')} schedulers × ${shape.reportsPerScheduler.toLocaleString('en')} reports = ${(shape.schedulers * shape.reportsPerScheduler).toLocaleString('en')} progress reports`,
  );
  const database = await createTestDatabase(log);
  const pool = createPool(database.url, { applicationName: 'leaseboard-bench', statementTimeoutMs: 900_000, max: 2 });
  try {
    log('seeding (generate_series into the real tables):');
    await seed(pool, shape, log);
    const service = new StatusService({ db: pool, readTimeoutMs: 30_000, pollIntervalMs: 2_000, listMaxAgeMs: 1_000 });
    await time(10, () => service.list({ limit: 500 }, { fresh: true })); // warm up: plans, V8 JIT
    const first = await service.list({ limit: 500 });
    log(`\nhealth counts: ${JSON.stringify(first.counts)} (page: ${first.schedulers.length} of ${first.total})`);

    // As served: list/metrics calls share one read per second (LEASEBOARD_LIST_MAX_AGE_MS, default 1,000 ms).
    const served = stats(await time(calls, () => service.list({ limit: 500, offset: 500 })));
    // Every call reads the store and projects everything (the cost of one refresh).
    const fresh = stats(await time(calls, () => service.list({ limit: 500 }, { fresh: true })));
    // As served under steady polling: 40 requests/s for 2.5 s, so ~3 of 100 calls pay a refresh.
    const pacedSamples: number[] = [];
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      pacedSamples.push(...(await time(1, () => service.list({ limit: 500 }))));
    }
    const paced = stats(pacedSamples);
    const sqlOnly = stats(await time(calls, () => readAllFacts(pool)));
    const { schedulers: reads, now } = await readAllFacts(pool);
    const projection = stats(await time(50, () => projectAll(reads, now), true));
    const shipped = stats(projectBundled(reads, now));
    const naiveRuns = 3; // ~20 s each at 10M reports
    await naivePage(pool);
    const naive = stats(await time(naiveRuns, () => naivePage(pool)));

    log('\nresults (server time, lib/server called directly, no HTTP):');
    log(`  list page of 500 as served (shared read ≤ 1 s old):         ${fmt(served)}  target p99 < 50 ms: ${verdict(served.p99 < 50)}`);
    log(`  list page of 500 as served at 40 requests/s (~3% pay a refresh): ${fmt(paced)}  (p99 < 50 ms: ${verdict(paced.p99 < 50)})`);
    log(`  list page of 500, fresh read every call (read+map+project all+sort+page): ${fmt(fresh)}  (p99 < 50 ms: ${verdict(fresh.p99 < 50)})`);
    log(`    of which the facts statement + row mapping:               ${fmt(sqlOnly)}`);
    const settled = (globalThis as { gc?: unknown }).gc ? 'earlier garbage collected before each sample' : 'run with --expose-gc to settle the heap first';
    log(`  projecting all ${reads.length.toLocaleString('en')} schedulers, in this tsx process (${settled}):  ${fmt(projection)}`);
    log(
      `  projecting all ${reads.length.toLocaleString('en')} schedulers, bundled as shipped (own process, --max-semi-space-size=64):  ${fmt(shipped)}  target < 20 ms (p50): ${verdict(shipped.p50 < 20)}`,
    );
    log(`  same page from naive DISTINCT ON over progress_reports:   ${fmt(naive)}`);
    log(`  ratio naive / fresh summary read: p50 ×${(naive.p50 / fresh.p50).toFixed(1)}, p99 ×${(naive.p99 / fresh.p99).toFixed(1)}`);
    log(
      `  host load average after: ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' / ')}`,
    );
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
