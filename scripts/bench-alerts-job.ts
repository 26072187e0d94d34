/**
 * `npm run bench:alerts`, part 2 — the evaluator JOB's full round against a
 * real PostgreSQL with 10,000 schedulers (a dedicated database, seeded with
 * scripts/bench-status-data.ts's SQL: 10% stalled, 5% expired, 5% released,
 * 5% never held, 1% disabled; 20 reports each), every rule on, 100
 * per-scheduler overrides.
 *
 * 1. The round as the job runs it, step by step with the job's own functions
 *    (lib/jobs/alert-evaluator): read (the status service's fresh read and
 *    projection of every scheduler, modes, stored alert state), plan
 *    (evaluateRound and the rows to write), write (ONE fenced statement) —
 *    the first round (every activation written) and steady rounds.
 * 2. The same job under the real runtime (lib/scheduler), one occurrence per
 *    second: occurrence started → completed, including the runtime's own
 *    fenced claim and completion.
 * 3. Baseline in the same run: the status service's fresh read of all
 *    schedulers (what a dashboard list read costs without the shared
 *    snapshot) — a round's read is that read.
 * Prints figures; not a test. Env: BENCH_SCHEDULERS (10,000), BENCH_JOB_ROUNDS (40).
 */
import type pg from 'pg';
import { createPool, createReadOnlyPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { ALERT_NAMES, parseAlertConfig, type AlertName } from '../lib/alerts';
import { changeAlertMode } from '../lib/alerts/store/modes';
import { alertEvaluatorJob } from '../lib/jobs/alert-evaluator';
import type { RoundData, RoundPlan } from '../lib/jobs/alert-evaluator/plan';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../lib/lease';
import { schedulerConfig, SchedulerRuntime, type FencedStep } from '../lib/scheduler';
import { StatusService } from '../lib/server/service';
import { nameWidth, reportsSql, seedStatements, summariesSql } from './bench-status-data';
import { envInt, fmt, stats } from './bench-stats';

const N = envInt('BENCH_SCHEDULERS', 10_000);
const ROUNDS = envInt('BENCH_JOB_ROUNDS', 40);
const REPORTS = 20;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function seedAll(db: pg.Pool): Promise<void> {
  const width = nameWidth(N);
  for (const s of seedStatements(width)) await db.query(s.sql, [N]);
  await db.query(reportsSql(width), [1, N, REPORTS]);
  await db.query(summariesSql(width), [N, REPORTS]);
  await db.query('ANALYZE');
  for (const rule of ALERT_NAMES) await changeAlertMode(db, { rule, scheduler: null, mode: 'on', by: 'bench', reason: 'bench: every rule on' });
  for (let i = 0; i < 100; i++) {
    const scheduler = `sched-${String(1 + i * 97).padStart(5, '0')}`;
    await changeAlertMode(db, { rule: 'SchedulerStalled' as AlertName, scheduler, mode: 'shadow', by: 'bench', reason: 'bench override' });
  }
}

async function main(): Promise<void> {
  const database = await createTestDatabase(() => {});
  const pool = createPool(database.url, { applicationName: 'leaseboard-bench', max: 4 });
  const readDb = createReadOnlyPool(database.url, { applicationName: 'leaseboard-bench-read', max: 2 });
  try {
    const t0 = performance.now();
    await seedAll(pool);
    log(
      `\njob round — ${N.toLocaleString('en')} schedulers in PostgreSQL (${process.env.DATABASE_URL ? 'DATABASE_URL server' : 'embedded'}), seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const config = parseAlertConfig({
      LEASEBOARD_EXTERNAL_URL: 'https://ops.example/leaseboard',
      LEASEBOARD_ALERT_EVALUATE_EVERY: '1s',
      LEASEBOARD_ALERT_RESEND_EVERY: '5s',
    });

    // 1. The job's functions, step by step, under a fence of our own.
    const job = alertEvaluatorJob({ config });
    const step = job.steps[0] as FencedStep<RoundData, RoundPlan>;
    const lease = 'bench-evaluator';
    const grant = await new LeaseAuthority(pool).acquire(leaseTerms({ name: lease, ttlMs: 10 * 60_000 }), newInstanceToken());
    if (grant.kind !== 'acquired') throw new Error(`bench: ${grant.kind}`);
    const fence = fenceFor({ name: lease, epoch: grant.epoch });
    const input = { lease, key: `${lease}@bench`, scheduledAt: new Date(), cursor: 0, next: 1 };
    const tenure = { lease, epoch: grant.epoch, current: () => true, signal: new AbortController().signal };
    const parts = { read: [] as number[], plan: [] as number[], write: [] as number[], total: [] as number[], rows: [] as number[] };
    const round = async () => {
      const a = performance.now();
      const batch = await step.read({ ...input, db: readDb });
      const b = performance.now();
      const plan = step.plan(batch!.data, input);
      const c = performance.now();
      const written = await writeFenced(pool, fence, (w) => step.write(w, plan, input));
      if (written.kind !== 'written') throw new Error(`bench: write ${written.kind}`);
      step.committed?.(plan, input, tenure);
      const d = performance.now();
      parts.read.push(b - a);
      parts.plan.push(c - b);
      parts.write.push(d - c);
      parts.total.push(d - a);
      parts.rows.push(plan.upserts.length + plan.deletes.length + plan.transitions.length);
    };
    await round();
    const first = { total: parts.total[0]!, read: parts.read[0]!, plan: parts.plan[0]!, write: parts.write[0]!, rows: parts.rows[0]! };
    for (const key of Object.keys(parts) as (keyof typeof parts)[]) parts[key].length = 0;
    for (let i = 0; i < ROUNDS; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250)); // some database time between rounds
      await round();
    }
    await job.close?.();
    log(
      `  first round (every activation stored: ${first.rows} rows): ${first.total.toFixed(0)} ms = read ${first.read.toFixed(0)} + plan ${first.plan.toFixed(0)} + write ${first.write.toFixed(0)}`,
    );
    log(`  ${ROUNDS} steady rounds (rows written per round: median ${stats(parts.rows).p50}, max ${stats(parts.rows).max}):`);
    log(`    whole round: ${fmt(stats(parts.total))}`);
    log(`    read (status read + projection, modes, state): ${fmt(stats(parts.read))}`);
    log(`    plan (evaluateRound + rows): ${fmt(stats(parts.plan))}`);
    log(`    write (one fenced statement): ${fmt(stats(parts.write))}`);

    // 3. Baseline: the status service's fresh read of everything.
    const service = new StatusService({ db: readDb, readTimeoutMs: 30_000, pollIntervalMs: 2_000, log: () => {} });
    const fresh: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      await service.live({ fresh: true });
      fresh.push(performance.now() - t);
    }
    const base = stats(fresh);
    log(`  baseline: the status service's fresh read of all ${N.toLocaleString('en')} (read + project): ${fmt(base)}`);
    log(`    → a whole round costs ${(stats(parts.total).p50 / base.p50).toFixed(2)}× that read (p50)`);

    // 2. Under the runtime: one occurrence per second, started → completed.
    const runtimeJob = alertEvaluatorJob({ config });
    const started = new Map<string, number>();
    const full: number[] = [];
    const runtime = new SchedulerRuntime(runtimeJob, schedulerConfig({ name: 'leaseboard-alerts', batchWorkMs: 0 }), {
      db: pool,
      readDb,
      onEvent: (event) => {
        if (event.event === 'occurrence_started') started.set(event.occurrence, performance.now());
        if (event.event === 'occurrence_completed' && started.has(event.occurrence)) full.push(performance.now() - started.get(event.occurrence)!);
      },
    });
    runtime.start();
    const deadline = performance.now() + (ROUNDS + 20) * 1_000;
    while (full.length < Math.min(ROUNDS, 30) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    await runtime.stop();
    await runtimeJob.close?.();
    const steady = stats(full.slice(1));
    log(`  under the runtime (claim, read, plan, write, complete; one occurrence a second): ${fmt(steady)}`);
    log(
      `    the default cadence is 5 s: a round takes ${((steady.p50 / 5_000) * 100).toFixed(1)}% of it (p50), ${((steady.p99 / 5_000) * 100).toFixed(1)}% (p99)`,
    );
  } finally {
    await Promise.all([pool.end(), readDb.end()]);
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
