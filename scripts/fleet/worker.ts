/**
 * One fleet process: `node --import tsx scripts/fleet/worker.ts SPEC` (SPEC:
 * JSON, see WorkerSpec), started by scripts/fleet/workers.ts. It holds many
 * leases the way the library holds several in one process: one
 * SchedulerRuntime per lease on ONE pool, so every renewal goes through the
 * process's shared batching renewer (lib/scheduler/renewer.ts, one
 * leaseboard_renew_many statement per batch) and every lease runs the real
 * report loop (a report every reportEvery, through the process's shared
 * batching reporter, lib/scheduler/reporter.ts: one leaseboard_report_many
 * statement per window). The runtimes start
 * spread over one report interval, as independent schedulers would be, and
 * at most ACQUIRING_AT_ONCE at a time wait for their first acquisition's
 * answer: a process coming up (or restarted after a kill) with thousands of
 * leases would otherwise queue thousands of acquisitions, claims and first
 * reports in its pool, and the renewals of the leases it already holds
 * behind them, until those expire (seen at 10,000: up never, epochs at 7).
 *
 * Lines on stdout (JSON): `ready` once every lease is held; `lost`,
 * `renew_unknown`, `write_rejected` and the first errors as they happen;
 * `stats` when asked. Commands on stdin: `{"command":"freeze"|"drop","lease":…,"on":bool}`
 * (the runtime's fault drills for one lease), `{"command":"stats"}`.
 *
 * Guarantees: what it measures is the runtime's own path — a renewal's
 * latency is timed around the shared renewer (the wait for its batch
 * included), a report's likewise around the shared reporter (its window and
 * statement included);
 * a renewal is *missed* when it did not come back renewed within
 * renewDeadline. It stops (releasing its leases) on SIGTERM, or when its
 * parent is gone (lib/child/parent.ts), within SHUTDOWN_DEADLINE_MS.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type pg from 'pg';
import { listenToParent, shutdownWithin, SHUTDOWN_DEADLINE_MS } from '../../lib/child/parent';
import { LeaseAuthority } from '../../lib/lease';
import { createPool, createReadOnlyPool, type RuntimeEvent, SchedulerRuntime, schedulerConfig } from '../../lib/scheduler';
import { systemClock } from '../../lib/scheduler/clock';
import { type Renewer, sharedRenewer } from '../../lib/scheduler/renewer';
import { appendReports } from '../../lib/scheduler/report-store';
import { type Reporter, sharedReporter } from '../../lib/scheduler/reporter';
import { fleetJob } from './job';
import { LatencyWindow } from './latency';
import type { FleetPlan } from './plan';

export interface WorkerSpec {
  /** Lease names this process holds. */
  leases: string[];
  /** Display label of every runtime here, e.g. `w3`. */
  label: string;
  scheduler: FleetPlan['scheduler'];
  poolMax: number;
}

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
/** Error lines printed per process (the rest are counted). */
const ERRORS_SHOWN = 20;
/** Miss instants kept per stats window (the count is exact). */
const MISSES_KEPT = 200;
/** Runtimes started but not yet answered by their first acquisition, at most. */
const ACQUIRING_AT_ONCE = 20;

/** The events that answer a runtime's acquisition (or say it failed): its gate slot is free again. */
const FIRST_ANSWERS = new Set<RuntimeEvent['event']>(['acquired', 'held', 'disabled', 'acquire_unknown', 'error']);

const spec = JSON.parse(process.argv[2] ?? '') as WorkerSpec;
const url = process.env.DATABASE_URL;
if (!url || !Array.isArray(spec.leases)) {
  process.stderr.write('fleet worker: DATABASE_URL and a spec are required\n');
  process.exit(2);
}

const timing = {
  renew: new LatencyWindow(),
  report: new LatencyWindow(),
  renewStatement: new LatencyWindow(),
  reportStatement: new LatencyWindow(),
  misses: [] as number[],
  missed: 0,
  /** Why, per kind: answered after the deadline, answered `lost` or `unknown`, or failed. */
  missedBy: { late: 0, lost: 0, unknown: 0, error: 0 },
  reportErrors: 0,
  errors: 0,
  poolWaitMax: 0,
};
/** How often the pool's queue (statements waiting for a connection) is looked at. */
const POOL_SAMPLE_MS = 100;

/** Times the renewal and report statements this pool sends (by the functions they call). */
function timeStatements(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const windows: [RegExp, LatencyWindow][] = [
    [/\bleaseboard_renew_many\(/, timing.renewStatement],
    [/\bleaseboard_report_many\(/, timing.reportStatement],
  ];
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const text = (args[0] as { text?: string } | undefined)?.text;
    const window = text === undefined ? undefined : windows.find(([pattern]) => pattern.test(text))?.[1];
    if (!window) return query(...args);
    const started = performance.now();
    return query(...args).then((result) => (window.add(performance.now() - started), result));
  };
}

/** The process's shared reporter, each report timed from its request to its answer. */
function timedReporter(inner: Reporter): Reporter {
  return {
    report: async (report) => {
      const started = performance.now();
      try {
        const stored = await inner.report(report);
        timing.report.add(performance.now() - started);
        return stored;
      } catch (error) {
        timing.reportErrors += 1;
        throw error;
      }
    },
    untilNextRound: (now, everyMs) => inner.untilNextRound(now, everyMs),
  };
}

/** The process's shared renewer, each grant's renewal timed from its request to its answer. */
function timedRenewer(inner: Renewer, deadlineMs: number): Renewer {
  const miss = (why: keyof typeof timing.missedBy) => {
    timing.missed += 1;
    timing.missedBy[why] += 1;
    if (timing.misses.length < MISSES_KEPT) timing.misses.push(Date.now());
  };
  return {
    wait: (minMs, ms, signal) => inner.wait(minMs, ms, signal),
    renew: async (grant) => {
      const started = performance.now();
      try {
        const result = await inner.renew(grant);
        const ms = performance.now() - started;
        timing.renew.add(ms);
        if (result.kind !== 'renewed') miss(result.kind);
        else if (ms > deadlineMs) miss('late');
        return result;
      } catch (error) {
        miss('error');
        throw error;
      }
    },
  };
}

async function main() {
  const s = spec.scheduler;
  const pool = createPool(url!, { applicationName: 'leaseboard-fleet', max: spec.poolMax });
  const readDb = createReadOnlyPool(url!, { applicationName: 'leaseboard-fleet', max: 1 });
  timeStatements(pool);
  const reporter = timedReporter(sharedReporter(pool, (reports) => appendReports(pool, reports), systemClock));
  const renewer = timedRenewer(sharedRenewer(pool, new LeaseAuthority(pool), systemClock), s.renewDeadlineMs);
  const frozen = new Set<string>();
  const job = fleetJob({ everyMs: s.jobEveryMs, advanceEveryMs: s.advanceEveryMs, frozen });
  const held = new Set<string>();
  let ready = false;
  /** Due to start (their spread time has come), and started but not yet answered (the gate above). */
  const due: string[] = [];
  const acquiring = new Set<string>();
  const startDue = () => {
    while (acquiring.size < ACQUIRING_AT_ONCE && due.length > 0) {
      const lease = due.shift()!;
      acquiring.add(lease);
      runtimes.get(lease)!.start();
    }
  };
  const onEvent = (lease: string) => (event: RuntimeEvent) => {
    if (acquiring.size > 0 && FIRST_ANSWERS.has(event.event) && acquiring.delete(lease)) startDue();
    switch (event.event) {
      case 'acquired':
        held.add(lease);
        if (!ready && held.size === spec.leases.length) {
          ready = true;
          print({ event: 'ready', leases: held.size });
        }
        return;
      case 'lost':
        held.delete(lease);
        return print({ ...event, at: Date.now() });
      case 'renew_unknown':
      case 'write_rejected':
        return print({ ...event, lease, at: Date.now() });
      case 'error':
        timing.errors += 1;
        if (timing.errors <= ERRORS_SHOWN) print({ ...event, lease, at: Date.now() });
        return;
      default:
        return;
    }
  };
  const runtimes = new Map(
    spec.leases.map((lease) => [
      lease,
      new SchedulerRuntime(
        job,
        schedulerConfig({
          name: lease,
          label: spec.label,
          ttlMs: s.ttlMs,
          renewEveryMs: s.renewEveryMs,
          renewDeadlineMs: s.renewDeadlineMs,
          reportEveryMs: s.reportEveryMs,
          stallAfterMs: s.stallAfterMs,
          overdueAfterMs: s.overdueAfterMs,
          batchWorkMs: 0,
        }),
        { db: pool, readDb, renewer, reporter, onEvent: onEvent(lease) },
      ),
    ]),
  );
  // How late this process's event loop runs its callbacks: a renewal or report late here waited for CPU, not for the database.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const poolSampler = setInterval(() => (timing.poolWaitMax = Math.max(timing.poolWaitMax, pool.waitingCount)), POOL_SAMPLE_MS);
  const timers = new Set<NodeJS.Timeout>();
  const shutdown = shutdownWithin(
    SHUTDOWN_DEADLINE_MS,
    async () => {
      for (const timer of timers) clearTimeout(timer);
      clearInterval(poolSampler);
      loopDelay.disable();
      await Promise.all([...runtimes.values()].map((runtime) => runtime.stop()));
      await Promise.all([pool.end(), readDb.end()]);
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  listenToParent(
    (command) => {
      const runtime = typeof command.lease === 'string' ? runtimes.get(command.lease) : undefined;
      if (command.command === 'freeze' && runtime) {
        if (command.on === true) frozen.add(command.lease as string);
        else frozen.delete(command.lease as string);
        runtime.setFrozen(command.on === true);
      } else if (command.command === 'drop' && runtime) {
        runtime.setDroppingReports(command.on === true);
      } else if (command.command === 'stats') {
        print({
          event: 'stats',
          id: command.id,
          at: Date.now(),
          held: held.size,
          renew: timing.renew.take(),
          renewStatement: timing.renewStatement.take(),
          report: timing.report.take(),
          reportStatement: timing.reportStatement.take(),
          loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
          loopDelayMaxMs: loopDelay.max / 1e6,
          poolWaitMax: timing.poolWaitMax,
          missed: timing.missed,
          misses: timing.misses.splice(0),
          missedBy: { ...timing.missedBy },
          reportErrors: timing.reportErrors,
          errors: timing.errors,
        });
        timing.missed = 0;
        timing.missedBy = { late: 0, lost: 0, unknown: 0, error: 0 };
        timing.reportErrors = 0;
        timing.poolWaitMax = 0;
        loopDelay.reset();
      }
    },
    () => shutdown('parent gone'),
  );
  print({ event: 'started', pid: process.pid, leases: spec.leases.length });
  // Spread the starts over one report interval: independent schedulers do not report in step.
  const spreadMs = s.reportEveryMs / spec.leases.length;
  [...runtimes.keys()].forEach((lease, i) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      due.push(lease);
      startDue();
    }, i * spreadMs);
    timers.add(timer);
  });
}

void main();
