/**
 * The fleet's load generator: `node --import tsx scripts/fleet/simulator.ts
 * SPEC` (SPEC: JSON, see SimulatorSpec), started by ./simulated.ts. One
 * process drives many simulated scheduler processes (./sim-schedule.ts), each
 * holding its slice of leases and sending what a process of real
 * SchedulerRuntimes sends, through the library's own statement code: the
 * registration (leaseboard_register), acquisitions (LeaseAuthority.acquire),
 * ONE renewal statement per process batch (LeaseAuthority.renewMany,
 * leaseboard_renew_many), report batches (appendReports,
 * leaseboard_report_many), the work loop's intent read, occurrence claim and
 * completion (readIntent, claimOccurrence, writeFenced + completeOccurrence).
 * What it leaves out: the work loop's database-clock slot read (the slot is
 * taken from this clock) and a release at stop (the fleet drops the database).
 *
 * Lines on stdout (JSON), as ./worker.ts's: `ready` once every lease is held,
 * `process_ready` {process, id} once a restarted process holds its leases again,
 * `lost` and the first errors as they happen, `stats` when asked (with the
 * misses per simulated process, so each is judged as a process of its own).
 * Commands on stdin: `pause`/`resume`/`kill` {process}, `restart` {process, id},
 * `freeze`/`drop` {lease, on}, `stats` {id}.
 *
 * Guarantees: a renewal's latency is timed from the batch's request to its
 * answer, a statement's around the statement; a renewal is *missed* when it
 * did not come back renewed within renewDeadline. Simulated processes share
 * this event loop and three pools: renewals and the rest (reports,
 * registrations, acquisitions) on poolMax connections each, occurrence claims
 * and completions on WORK_AT_ONCE — real processes each have their own pool, so one
 * simulated process's renewal must not queue behind another's reports here
 * (within one real process it may, and does not here: the generator errs
 * toward the authority's latency, not its own). The pools' waits are
 * reported (`poolWaitMax`). The simulated processes start spread over
 * START_SPREAD (longer for more leases), as a fleet's processes do.
 * Stops on SIGTERM or when the parent is gone, within SHUTDOWN_DEADLINE_MS.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { listenToParent, shutdownWithin, SHUTDOWN_DEADLINE_MS } from '../../lib/child/parent';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, readIntent, writeFenced } from '../../lib/lease';
import { createPool } from '../../lib/scheduler';
import { claimOccurrence, completeOccurrence } from '../../lib/scheduler/occurrences';
import { registerScheduler } from '../../lib/scheduler/registration';
import { appendReports } from '../../lib/scheduler/report-store';
import { LatencyWindow } from './latency';
import { roundPhase } from '../../lib/scheduler/report-rounds';
import { REPORT_WINDOW_MS, type RenewJudged, type RenewOutcome, SimProcess, type SimTiming } from './sim-schedule';

export interface SimulatorSpec {
  /** Each simulated process's leases, in order (process i is `processes[i]`). */
  processes: string[][];
  /** Display label prefix: process i registers its holders as `${label}${i}`. */
  label: string;
  timing: SimTiming;
  stallAfterMs: number;
  poolMax: number;
}

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const ERRORS_SHOWN = 20;
const MISSES_KEPT = 200;
/** The processes start spread over max(reportEvery, this × leases): 20 s for 10,000 (each lease's start is four statements). */
const START_MS_PER_LEASE = 2;
/**
 * Acquisitions (with their registration) in flight at most, over all simulated processes, as the real
 * fleet worker gates its runtimes' starts: a start's burst queued whole on the pool would hold the
 * renewals of the leases already held behind it (and time out waiting for a connection).
 */
const ACQUIRING_AT_ONCE = 20;
/**
 * Occurrence claims and completions in flight at most, on a pool of their own of as many connections.
 * Every lease's slot falls due at the same boundary: a real process queues its own leases' claims on
 * its own pool, while here the simulated processes share the generator's, and 10,000 claims queued at
 * once would hold every simulated process's reports behind them. Completions are started before claims
 * (they fell due first), and the processes take turns to go first, as many processes' pools would serve
 * them side by side.
 */
const WORK_AT_ONCE = 20;

/** The spec, from the file the fleet wrote for it (./simulated.ts): too long for an argument at 10,000 leases. */
const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as SimulatorSpec;
const url = process.env.DATABASE_URL;
if (!url || !Array.isArray(spec.processes)) {
  process.stderr.write('fleet simulator: DATABASE_URL and a spec are required\n');
  process.exit(2);
}

interface ProcessTally {
  missed: number;
  misses: number[];
  missedBy: { late: number; lost: number; unknown: number; error: number };
}
const tally = (): ProcessTally => ({ missed: 0, misses: [], missedBy: { late: 0, lost: 0, unknown: 0, error: 0 } });

const timing = {
  renew: new LatencyWindow(),
  report: new LatencyWindow(),
  renewStatement: new LatencyWindow(),
  reportStatement: new LatencyWindow(),
  work: new LatencyWindow(),
  perProcess: spec.processes.map(tally),
  reportErrors: 0,
  errors: 0,
  dropped: 0,
  poolWaitMax: 0,
};

function main() {
  const t = spec.timing;
  const pool = createPool(url!, { applicationName: 'leaseboard-fleet-sim', max: spec.poolMax });
  const renewPool = createPool(url!, { applicationName: 'leaseboard-fleet-sim-renew', max: spec.poolMax });
  const workPool = createPool(url!, { applicationName: 'leaseboard-fleet-sim-work', max: WORK_AT_ONCE });
  const authority = new LeaseAuthority(pool);
  const renewAuthority = new LeaseAuthority(renewPool);
  const started = Date.now();
  const leases = spec.processes.reduce((sum, names) => sum + names.length, 0);
  const spreadMs = Math.max(t.reportEveryMs, leases * START_MS_PER_LEASE) / spec.processes.length;
  const sims = spec.processes.map((names, i) => new SimProcess(i, names, newInstanceToken(), t, started + i * spreadMs, roundPhase(Math.random)));
  /** Bumped by kill: answers to an earlier incarnation's statements are ignored, as a killed process never sees them. */
  const incarnation = sims.map(() => 0);
  const registered = sims.map(() => new Set<string>());
  const byLease = new Map<string, SimProcess>();
  for (const sim of sims) for (const lease of sim.leases) byLease.set(lease.name, sim);
  /** Restarted processes not yet holding every lease, and the restart's id to answer with. */
  const waitingReady = new Map<number, unknown>();
  let ready = false;

  const error = (where: string, cause: unknown) => {
    timing.errors += 1;
    if (timing.errors <= ERRORS_SHOWN) print({ event: 'error', where, message: cause instanceof Error ? cause.message : String(cause), at: Date.now() });
  };
  const judged = (sim: SimProcess, results: readonly RenewJudged[]) => {
    const mine = timing.perProcess[sim.index]!;
    for (const r of results) {
      if (r.missed) {
        mine.missed += 1;
        mine.missedBy[r.missed] += 1;
        if (mine.misses.length < MISSES_KEPT) mine.misses.push(Date.now());
      }
      if (r.lost) print({ event: 'lost', lease: r.lease, why: r.lost, process: sim.index, at: Date.now() });
    }
  };
  const current = (sim: SimProcess, was: number) => incarnation[sim.index] === was;

  let acquiring = 0;
  const acquire = async (sim: SimProcess, lease: SimProcess['leases'][number]) => {
    const was = incarnation[sim.index]!;
    const holder = sim.holder;
    acquiring += 1;
    try {
      if (!registered[sim.index]!.has(lease.name)) {
        await registerScheduler(pool, {
          name: lease.name,
          everyMs: t.jobEveryMs,
          reportEveryMs: t.reportEveryMs,
          stallAfterMs: spec.stallAfterMs,
          overdueAfterMs: spec.stallAfterMs,
        });
        registered[sim.index]!.add(lease.name);
      }
      const askedAt = Date.now();
      const result = await authority.acquire(leaseTerms({ name: lease.name, ttlMs: t.ttlMs }), holder, `${spec.label}${sim.index}`);
      if (!current(sim, was)) return;
      const epoch = result.kind === 'acquired' || result.kind === 'held_by_self' ? result.epoch : null;
      sim.acquired(lease, epoch, result.kind === 'held_by_self' ? -Infinity : askedAt, Date.now());
    } catch (cause) {
      if (!current(sim, was)) return;
      error('acquire', cause);
      sim.acquired(lease, null, 0, Date.now());
    } finally {
      acquiring -= 1;
    }
  };

  const renew = async (sim: SimProcess, batch: SimProcess['leases']) => {
    const was = incarnation[sim.index]!;
    const askedAt = Date.now();
    let outcomes: RenewOutcome[];
    try {
      const results = await renewAuthority.renewMany(batch.map((lease) => ({ name: lease.name, holder: sim.holder, epoch: lease.epoch! })));
      outcomes = results.map((r) => ({ kind: r.kind }));
    } catch (cause) {
      error('renew', cause);
      outcomes = batch.map(() => ({ kind: 'unknown' as const }));
    }
    const ms = Date.now() - askedAt;
    timing.renewStatement.add(ms);
    for (let i = 0; i < batch.length; i++) timing.renew.add(ms);
    if (current(sim, was)) judged(sim, sim.renewed(batch, outcomes, askedAt, Date.now()));
  };

  const report = async (sim: SimProcess, batch: ReturnType<SimProcess['dueReports']>['batches'][number]) => {
    const was = incarnation[sim.index]!;
    const askedAt = Date.now();
    try {
      await appendReports(
        pool,
        batch.map((r) => ({ ...r, reportEveryMs: t.reportEveryMs })),
      );
      const ms = Date.now() - askedAt;
      timing.reportStatement.add(ms);
      for (let i = 0; i < batch.length; i++) timing.report.add(ms);
    } catch (cause) {
      timing.reportErrors += batch.length;
      error('report', cause);
    }
    if (current(sim, was)) sim.reported(batch, Date.now());
  };

  let working = 0;
  const work = async (sim: SimProcess, action: ReturnType<SimProcess['dueWork']>[number]) => {
    const was = incarnation[sim.index]!;
    working += 1;
    try {
      await workOnce(sim, action, was);
    } finally {
      working -= 1;
      refillWork();
    }
  };
  let firstToWork = 0;
  /** Starts the work due, completions first, each process in turn going first, up to WORK_AT_ONCE in flight. */
  const startWork = (now: number) => {
    firstToWork = (firstToWork + 1) % sims.length;
    for (const kind of ['complete', 'claim'] as const)
      // Every process is asked, even with no connection free: its cursors move with time (limit 0 starts nothing).
      for (let i = 0; i < sims.length; i++) {
        const sim = sims[(firstToWork + i) % sims.length]!;
        for (const action of sim.dueWork(now, WORK_AT_ONCE - working, kind)) void work(sim, action);
      }
  };
  // A connection freed starts the next action at once, not at the next tick: a real process's pool hands its
  // next queued statement the connection as soon as it is free. Refills within one turn of the loop coalesce.
  let refilling = false;
  const refillWork = () => {
    if (refilling) return;
    refilling = true;
    setImmediate(() => {
      refilling = false;
      startWork(Date.now());
    });
  };
  const workOnce = async (sim: SimProcess, action: ReturnType<SimProcess['dueWork']>[number], was: number) => {
    const fence = fenceFor({ name: action.lease, epoch: action.epoch });
    const askedAt = Date.now();
    try {
      if (action.kind === 'claim') {
        await readIntent(workPool, action.lease);
        const claim = await claimOccurrence(workPool, fence, action.key, new Date(action.slotAt));
        if (!current(sim, was)) return;
        const answer = claim.kind === 'claimed' ? { cursor: claim.cursor } : claim.kind === 'already_completed' ? ('completed' as const) : ('failed' as const);
        sim.claimed(action.lease, action.epoch, action.key, action.slotAt, answer, Date.now());
      } else {
        const done = await writeFenced(workPool, fence, (w) => [completeOccurrence(w, action.key)]);
        if (current(sim, was)) sim.completed(action.lease, action.epoch, action.key, done.kind === 'written');
      }
      timing.work.add(Date.now() - askedAt);
    } catch (cause) {
      error(action.kind, cause);
      if (!current(sim, was)) return;
      if (action.kind === 'claim') sim.claimed(action.lease, action.epoch, action.key, action.slotAt, 'failed', Date.now());
      else sim.completed(action.lease, action.epoch, action.key, false);
    }
  };

  const tick = () => {
    const now = Date.now();
    timing.poolWaitMax = Math.max(timing.poolWaitMax, pool.waitingCount, renewPool.waitingCount);
    startWork(now);
    for (const sim of sims) {
      judged(sim, sim.suspected(now));
      for (const lease of sim.dueAcquisitions(now, ACQUIRING_AT_ONCE - acquiring)) void acquire(sim, lease);
      const batch = sim.dueRenewal(now);
      if (batch.length > 0) void renew(sim, batch);
      const reports = sim.dueReports(now);
      timing.dropped += reports.dropped;
      for (const one of reports.batches) void report(sim, one);
    }
    if (!ready && sims.every((sim) => sim.held === sim.leases.length)) {
      ready = true;
      print({ event: 'ready', leases: byLease.size });
    }
    for (const [i, id] of waitingReady)
      if (sims[i]!.held === sims[i]!.leases.length) {
        waitingReady.delete(i);
        print({ event: 'process_ready', process: i, id });
      }
  };
  // The reporter's window is the generator's tick: what falls due within one window leaves as one statement.
  const ticker = setInterval(tick, REPORT_WINDOW_MS);

  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const shutdown = shutdownWithin(
    SHUTDOWN_DEADLINE_MS,
    async () => {
      clearInterval(ticker);
      loopDelay.disable();
      await Promise.all([pool.end(), renewPool.end(), workPool.end()]);
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  listenToParent(
    (command) => {
      const sim = typeof command.process === 'number' ? sims[command.process] : undefined;
      const lease = typeof command.lease === 'string' ? byLease.get(command.lease)?.leases.find((l) => l.name === command.lease) : undefined;
      switch (command.command) {
        case 'pause':
        case 'resume':
          if (sim) sim.paused = command.command === 'pause';
          return;
        case 'kill':
          if (sim) {
            incarnation[sim.index]! += 1;
            sim.paused = true; // nothing sent until restarted
          }
          return;
        case 'restart':
          if (sim) {
            incarnation[sim.index]! += 1;
            registered[sim.index]!.clear();
            sim.restart(newInstanceToken(), Date.now(), roundPhase(Math.random));
            waitingReady.set(sim.index, command.id);
          }
          return;
        case 'freeze':
          if (lease) lease.frozen = command.on === true;
          return;
        case 'drop':
          if (lease) lease.dropping = command.on === true;
          return;
        case 'stats':
          print({
            event: 'stats',
            id: command.id,
            at: Date.now(),
            held: sims.reduce((sum, s) => sum + s.held, 0),
            renew: timing.renew.take(),
            renewStatement: timing.renewStatement.take(),
            report: timing.report.take(),
            reportStatement: timing.reportStatement.take(),
            work: timing.work.take(),
            loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
            loopDelayMaxMs: loopDelay.max / 1e6,
            perProcess: timing.perProcess,
            reportErrors: timing.reportErrors,
            dropped: timing.dropped,
            errors: timing.errors,
            poolWaitMax: timing.poolWaitMax,
          });
          timing.perProcess = spec.processes.map(tally);
          timing.reportErrors = 0;
          timing.dropped = 0;
          timing.poolWaitMax = 0;
          loopDelay.reset();
          return;
        default:
          return;
      }
    },
    () => shutdown('parent gone'),
  );
  print({ event: 'started', pid: process.pid, leases: byLease.size, processes: sims.length });
}

main();
