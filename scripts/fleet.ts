/**
 * `npm run fleet -- --schedulers N --processes P [--minutes M] [--fault-every S]`
 * `npm run fleet -- --simulated N --real M [--simulated-per-process K] --processes P …`
 *
 * A load generator of real scheduler processes against one PostgreSQL (a
 * fresh database beside DATABASE_URL's, else in an embedded server:
 * scripts/soak/database.ts; dropped at the end). P processes
 * (scripts/fleet/worker.ts) hold N leases between them, each lease a
 * SchedulerRuntime with the batched renewer and the real report loop; beside
 * them the alert evaluator and the retention pruner as real scheduler
 * processes (as the soak runs them), and in this process the dashboard's list
 * read, by the status service's own code (lib/server/service.ts), every poll.
 * With `--simulated`, the load generator (scripts/fleet/simulator.ts) runs
 * beside the M real schedulers: ONE process driving N simulated schedulers
 * in processes of K, through the same SQL and batching as the library; their
 * faults and misses are judged exactly as a real process's.
 *
 * Instruments: every second the database's active statements and what they
 * wait on (scripts/fleet/waits.ts); every sample the CPU of the database's
 * backends, the real schedulers, the generator (apart), the dashboard's
 * reads and the housekeeping, event-loop delays and pool waits; at the end a
 * table of where statements waited and a line `per 1,000 schedulers:`.
 *
 * Every `--fault-every` seconds a fault (scripts/fleet/faults.ts): a process
 * paused, a lease's progress frozen, a lease's reports dropped, a process
 * killed and restarted. Every poll the list is read and judged
 * (scripts/fleet/judge.ts); every sample (10 s for runs up to 5 minutes, else
 * a minute) a line of figures (scripts/fleet/verdict.ts), and at the end the
 * verdict.
 *
 * Exit: 0 every target met; 1 a target failed (the verdict says which) or the
 * fleet could not start; 2 bad flags; 130 interrupted.
 * Guarantees: nothing is left running on any exit (Ctrl-C included) and the
 * database it made is dropped.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_LEASE_TIMING } from '../lib/lease';
import { createPool } from '../db/pool';
import { StatusService } from '../lib/server/service';
import { soakDatabase } from './soak/database';
import { SoakFleet } from './soak/fleet';
import { residentBytes } from './soak/sample';
import { cpuBetween, type DatabaseCounters, hostCpu, processesCpu, readCounters } from './fleet/database-sample';
import { FaultInjector } from './fleet/faults';
import { FleetJudge } from './fleet/judge';
import { quantile } from './fleet/latency';
import { FleetUsageError, parseFleetArgs, type FleetPlan } from './fleet/plan';
import { SimulatedFleet } from './fleet/simulated';
import { MixedFleet } from './fleet/targets';
import { type FleetSample, fleetVerdict, perThousandLine, sampleHeader, sampleLine } from './fleet/verdict';
import { sampleActivity, WaitSampler } from './fleet/waits';
import { FleetWorkers, leaseName } from './fleet/workers';
import { RunControl } from './soak/run-control';

const log = (line: string) => console.log(`[fleet] ${line}`);
const UNHEALTHY = ['unknown', 'no_leader', 'stalled', 'disabled'] as const;
const PAGE = 500;

function planOrExit(): FleetPlan {
  try {
    return parseFleetArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof FleetUsageError)) throw error;
    process.stderr.write(`fleet: ${error.message}\n`);
    process.exit(2);
  }
}

/** The alert evaluator and the pruner, real scheduler processes with the runtime's default timing and retention. */
const HOUSEKEEPING = [
  { id: 'alerts', lease: 'leaseboard-alerts', label: 'E', job: 'leaseboard-alerts', flags: {} },
  { id: 'pruner', lease: 'leaseboard-retention', label: 'P', job: 'leaseboard-retention', flags: {} },
];

/** One dashboard poll: the list as the dashboard reads it (timed), then every unhealthy scheduler from the same read. */
async function poll(service: StatusService): Promise<{ ms: number; ok: boolean; atMs: number; unhealthy: Map<string, string> }> {
  const started = performance.now();
  const first = await service.list({}, { fresh: true });
  const ms = performance.now() - started;
  const unhealthy = new Map<string, string>();
  for (let offset = 0; first.observation.ok; offset += PAGE) {
    const page = await service.list({ health: UNHEALTHY, limit: PAGE, offset });
    for (const scheduler of page.schedulers) unhealthy.set(scheduler.name, scheduler.health);
    if (offset + PAGE >= page.total) break;
  }
  return { ms, ok: first.observation.ok, atMs: Date.parse(first.observedAt), unhealthy };
}

/** The generator: the simulated schedulers, named after the real ones, in processes of simulatedPerProcess. */
function startSimulator(plan: FleetPlan, url: string, run: RunControl, failures: string[]): SimulatedFleet {
  const names = Array.from({ length: plan.simulated }, (_, i) => leaseName(plan.real + i + 1));
  const processes = Array.from({ length: Math.ceil(names.length / plan.simulatedPerProcess) }, (_, p) =>
    names.slice(p * plan.simulatedPerProcess, (p + 1) * plan.simulatedPerProcess),
  );
  const s = plan.scheduler;
  return new SimulatedFleet(
    {
      processes,
      label: 's',
      timing: {
        ttlMs: s.ttlMs,
        renewEveryMs: s.renewEveryMs,
        renewDeadlineMs: s.renewDeadlineMs,
        safetyMarginMs: DEFAULT_LEASE_TIMING.safetyMarginMs,
        reportEveryMs: s.reportEveryMs,
        jobEveryMs: s.jobEveryMs,
        advanceEveryMs: s.advanceEveryMs,
      },
      stallAfterMs: s.stallAfterMs,
      poolMax: plan.simulatorPoolMax,
    },
    url,
    (code, last) => {
      if (run.interrupted) return;
      failures.push(`the generator exited (${code}) unasked; last lines: ${last.join(' | ')}`);
      run.stop.abort();
    },
  );
}

const WAIT_SAMPLE_MS = 1_000;

async function main() {
  const plan = planOrExit();
  const run = new RunControl();
  const { stop, cleanups, failures } = run;
  const judge = new FleetJudge(plan.pollMs, plan.recoveryMs);
  const samples: FleetSample[] = [];
  const listMs: number[] = [];
  let listFailures = 0;
  let missed = 0;
  let renewalsTotal = 0;
  let workers: FleetWorkers | null = null;
  let simulatorRef: SimulatedFleet | null = null;
  const waits = new WaitSampler();
  const loops: { fleetMaxMs: number; generatorMaxMs: number | null; schedulersMaxMs: number; listPoolWaiting: number }[] = [];
  // This process's own loop: the list reads (and the fleet's bookkeeping) run on it.
  const ownLoop = monitorEventLoopDelay({ resolution: 20 });
  ownLoop.enable();

  try {
    log(
      `${plan.schedulers} schedulers in ${plan.processes} processes for ${plan.durationMs / 1000} s, a fault every ${plan.faultEveryMs / 1000} s; ` +
        `ttl ${plan.scheduler.ttlMs} ms, reports every ${plan.scheduler.reportEveryMs} ms, stall after ${plan.scheduler.stallAfterMs} ms, poll ${plan.pollMs} ms`,
    );
    const database = await soakDatabase(log, 60, { requireAutovacuum: false });
    cleanups.push(() => database.drop());
    const db = createPool(database.url, { applicationName: 'leaseboard-fleet-sampler', max: 1, statementTimeoutMs: 30_000 });
    const listDb = createPool(database.url, { applicationName: 'leaseboard-fleet-list', max: 2, readOnly: true });
    cleanups.push(
      () => db.end(),
      () => listDb.end(),
    );
    const service = new StatusService({ db: listDb, readTimeoutMs: 5_000, pollIntervalMs: plan.pollMs, listMaxAgeMs: 60_000, log: () => {} });
    // After Ctrl-C the children get the terminal's SIGINT too and stop by themselves: not a failure then.
    const housekeeping = new SoakFleet(HOUSEKEEPING, database.url, {}, log, (id, code, last) => {
      if (run.interrupted) return;
      failures.push(`${id} exited (${code}) during the run; last lines: ${last.join(' | ')}`);
      stop.abort();
    });
    cleanups.push(() => housekeeping.stop());
    const fleet = new FleetWorkers(plan, database.url, (i, code, last) => {
      if (run.interrupted) return;
      failures.push(`scheduler process ${i} exited (${code}) unasked; last lines: ${last.join(' | ')}`);
      stop.abort();
    });
    workers = fleet;
    cleanups.push(() => fleet.stop());
    const simulator = plan.simulated > 0 ? startSimulator(plan, database.url, run, failures) : null;
    simulatorRef = simulator;
    if (simulator) cleanups.push(() => simulator.stop());
    const targets = new MixedFleet(fleet, simulator);
    const startMs = performance.now();
    await housekeeping.ready(60_000);
    await Promise.all([...fleet.slices.map((_, i) => fleet.ready(i, 300_000)), simulator?.ready(300_000)]);
    log(
      `up in ${Math.round(performance.now() - startMs)} ms: ${fleet.count} scheduler processes holding ${plan.real} leases` +
        (simulator ? `, the generator's ${simulator.spec.processes.length} simulated processes holding ${plan.simulated}` : '') +
        ', alerts and pruner',
    );

    const upAt = Date.now();
    const injector = new FaultInjector(plan, targets, judge, log, (message) => failures.push(message));
    const endAt = upAt + plan.durationMs;
    const waitDb = createPool(database.url, { applicationName: 'leaseboard-fleet-sampler', max: 1, statementTimeoutMs: 5_000 });
    cleanups.push(() => waitDb.end());
    const sampling = (async () => {
      while (!stop.signal.aborted && Date.now() < endAt) {
        const next = Date.now() + WAIT_SAMPLE_MS;
        const { rows, kindOfPid } = await sampleActivity(waitDb).catch(() => ({ rows: [], kindOfPid: new Map<string, string>() }));
        waits.add(rows, kindOfPid);
        await sleep(Math.max(0, next - Date.now()), undefined, { signal: stop.signal }).catch(() => {});
      }
    })();
    const polling = (async () => {
      while (!stop.signal.aborted && Date.now() < endAt) {
        const next = Date.now() + plan.pollMs;
        const read = await poll(service);
        // Judged from the settle on: before it, leases are still being taken and the first (full) read is made.
        if (read.atMs >= upAt + plan.settleMs) {
          listMs.push(read.ms);
          if (!read.ok) listFailures += 1;
          else judge.observe(read.atMs, read.unhealthy);
        }
        await sleep(Math.max(0, next - Date.now()), undefined, { signal: stop.signal }).catch(() => {});
      }
    })();
    const faulting = (async () => {
      // The first at the settle, then one every faultEvery until the quiet tail (each then ends and recovers in the run).
      await sleep(plan.settleMs, undefined, { signal: stop.signal }).catch(() => {});
      while (!stop.signal.aborted && Date.now() <= endAt - plan.quietTailMs) {
        injector.inject();
        await sleep(plan.faultEveryMs, undefined, { signal: stop.signal }).catch(() => {});
      }
      if (!stop.signal.aborted) await injector.drain();
    })();

    console.log(sampleHeader());
    let previous: DatabaseCounters = await readCounters(db, Date.now());
    let previousHost = hostCpu();
    let listSeen = 0;
    const pids = () => ({ ...housekeeping.pids(), 'fleet (list)': process.pid, ...(simulator ? { generator: simulator.pid } : {}) });
    const schedulerPids = () => Array.from({ length: fleet.count }, (_, i) => fleet.pid(i));
    const otherPids = () => Object.values(housekeeping.pids());
    const cpuNow = () => ({
      schedulers: processesCpu(schedulerPids()),
      others: processesCpu(otherPids()),
      generator: processesCpu(simulator ? [simulator.pid] : []),
      dashboard: processesCpu([process.pid]),
    });
    let previousAtWall = Date.now();
    let previousCpu = cpuNow();
    await Promise.all([fleet.stats(5_000), simulator?.stats(5_000)]); // start every window now
    ownLoop.reset();
    while (!stop.signal.aborted) {
      const nextAt = upAt + (samples.length + 1) * plan.sampleEveryMs;
      if (nextAt > endAt + 1_000) break;
      await sleep(Math.max(0, nextAt - Date.now()), undefined, { signal: stop.signal }).catch(() => {});
      if (stop.signal.aborted) break;
      const [stats, counters, sim] = await Promise.all([fleet.stats(5_000), readCounters(db, previous.atMs), simulator?.stats(5_000) ?? null]);
      const host = hostCpu();
      const cpu = cpuNow();
      const wallS = (Date.now() - previousAtWall) / 1000;
      const seconds = (counters.atMs - previous.atMs) / 1000;
      const answered = stats.filter((s) => s !== null);
      let windowMissed = 0;
      stats.forEach((s, i) => {
        if (!s) return;
        const unexcused = judge.unexcusedMisses(i, s.missed, s.misses, plan.scheduler.ttlMs + plan.scheduler.renewDeadlineMs);
        if (unexcused > 0)
          log(
            `process ${i}: ${unexcused} renewals missed their deadline (${JSON.stringify(s.missedBy)}), the first at ${new Date(s.misses[0]!).toISOString()}`,
          );
        windowMissed += unexcused;
      });
      sim?.perProcess.forEach((p, i) => {
        const unexcused = judge.unexcusedMisses(fleet.count + i, p.missed, p.misses, plan.scheduler.ttlMs + plan.scheduler.renewDeadlineMs);
        if (unexcused > 0)
          log(
            `simulated process ${i}: ${unexcused} renewals missed their deadline (${JSON.stringify(p.missedBy)}), the first at ${new Date(p.misses[0]!).toISOString()}`,
          );
        windowMissed += unexcused;
      });
      const both = sim ? [...answered, sim] : answered;
      renewalsTotal += both.reduce((sum, s) => sum + s.renew.count, 0);
      missed += windowMissed;
      const windowList = listMs.slice(listSeen).sort((a, b) => a - b);
      listSeen = listMs.length;
      const rss = Array.from({ length: fleet.count }, (_, i) => residentBytes(fleet.pid(i)) ?? 0);
      const sample: FleetSample = {
        atS: (Date.now() - upAt) / 1000,
        dbCores: seconds > 0 ? (cpuBetween(previous.cpuByPid, counters.cpuByPid) ?? NaN) / seconds : null,
        hostBusy: previousHost && host ? (host.busy - previousHost.busy) / Math.max(1, host.total - previousHost.total) : null,
        transactionsPerS: (counters.transactions - previous.transactions) / seconds,
        rowsPerS: (counters.rowsWritten - previous.rowsWritten) / seconds,
        walBytesPerS: (counters.walBytes - previous.walBytes) / seconds,
        tableBytes: counters.tableBytes,
        renewals: Math.round(both.reduce((sum, s) => sum + s.renew.count, 0) / seconds),
        renewStatements: Math.round(both.reduce((sum, s) => sum + s.renewStatement.count, 0) / seconds),
        renewP99Ms: Math.max(0, ...both.map((s) => s.renew.p99)),
        renewMaxMs: Math.max(0, ...both.map((s) => s.renew.max)),
        missed: windowMissed,
        reports: Math.round(both.reduce((sum, s) => sum + s.report.count, 0) / seconds),
        reportStatements: Math.round(both.reduce((sum, s) => sum + s.reportStatement.count, 0) / seconds),
        loopDelayP99Ms: Math.max(0, ...answered.map((s) => s.loopDelayP99Ms)),
        loopDelayMaxMs: Math.max(0, ...answered.map((s) => s.loopDelayMaxMs)),
        generatorLoopMaxMs: sim ? sim.loopDelayMaxMs : null,
        poolWaitMax: Math.max(sim?.poolWaitMax ?? 0, ...answered.map((s) => s.poolWaitMax)),
        schedulerCores: (cpuBetween(previousCpu.schedulers, cpu.schedulers) ?? NaN) / wallS,
        generatorCores: simulator ? (cpuBetween(previousCpu.generator, cpu.generator) ?? NaN) / wallS : null,
        dashboardCores: (cpuBetween(previousCpu.dashboard, cpu.dashboard) ?? NaN) / wallS,
        otherCores: (cpuBetween(previousCpu.others, cpu.others) ?? NaN) / wallS,
        reportP99Ms: Math.max(0, ...both.map((s) => s.report.p99)),
        reportMaxMs: Math.max(0, ...both.map((s) => s.report.max)),
        reportErrors: both.reduce((sum, s) => sum + s.reportErrors, 0),
        listP99Ms: quantile(windowList, 0.99),
        listReads: windowList.length,
        alertRoundMs: counters.alertRoundMs,
        prunerLagMs: counters.prunerLagMs,
        workerRssMax: Math.max(...rss),
        workerRssTotal: rss.reduce((sum, bytes) => sum + bytes, 0),
        otherRss: Object.fromEntries(Object.entries(pids()).map(([id, pid]) => [id, residentBytes(pid)])),
        faultsActive: injector.active,
      };
      samples.push(sample);
      console.log(sampleLine(sample));
      loops.push({
        fleetMaxMs: ownLoop.max / 1e6,
        generatorMaxMs: sim?.loopDelayMaxMs ?? null,
        schedulersMaxMs: sample.loopDelayMaxMs,
        listPoolWaiting: listDb.waitingCount,
      });
      ownLoop.reset();
      previous = counters;
      previousHost = host;
      previousCpu = cpu;
      previousAtWall = Date.now();
    }
    await Promise.all([polling, faulting, sampling]);
    // Leases lost to self-suspicion (no renewal answered in time) count as missed deadlines too, unless a pause or kill explains them.
    let suspected = 0;
    for (const { worker, line } of fleet.incidents) {
      if (line.event === 'lost' && line.why === 'self_suspected' && typeof line.at === 'number')
        suspected += judge.unexcusedMisses(worker, 1, [line.at], plan.scheduler.ttlMs + plan.scheduler.renewDeadlineMs);
    }
    for (const { process: p, line } of simulator?.incidents ?? []) {
      if (line.event === 'lost' && line.why === 'self_suspected' && typeof line.at === 'number')
        suspected += judge.unexcusedMisses(fleet.count + p, 1, [line.at], plan.scheduler.ttlMs + plan.scheduler.renewDeadlineMs);
    }
    if (suspected > 0) log(`${suspected} leases lost to self-suspicion (no renewal answered within ttl − safety margin) outside paused or killed processes`);
    missed += suspected;
    const last = samples.at(-1);
    if (last)
      log(
        `RSS at the end: ${Object.entries(last.otherRss)
          .map(([id, bytes]) => `${id} ${((bytes ?? 0) / 1024 / 1024).toFixed(1)} MB`)
          .join(', ')}`,
      );
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    log('stopping…');
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup: ${String(error)}`));
    log('stopped; database dropped, nothing left running');
  }
  for (const line of waits.table()) console.log(line);
  if (loops.length > 0)
    console.log(
      `event loops (max over the run): fleet (list reads) ${Math.max(...loops.map((l) => l.fleetMaxMs)).toFixed(1)} ms, ` +
        `real schedulers ${Math.max(...loops.map((l) => l.schedulersMaxMs)).toFixed(1)} ms` +
        (simulatorRef ? `, generator ${Math.max(...loops.map((l) => l.generatorMaxMs ?? 0)).toFixed(1)} ms` : '') +
        `; pool waits (most statements queued for a connection): schedulers and generator ${Math.max(...samples.map((s) => s.poolWaitMax))}, list ${Math.max(...loops.map((l) => l.listPoolWaiting))}`,
    );
  if (samples.length > 0) console.log(perThousandLine(samples, plan.schedulers));
  const simErrors = simulatorRef?.incidents.filter((incident) => incident.line.event === 'error') ?? [];
  if (simErrors.length > 0) log(`generator errors (first of ${simErrors.length}): ${JSON.stringify(simErrors[0]!.line)}`);
  const errors = workers?.incidents.filter((incident) => incident.line.event === 'error').length ?? 0;
  if (errors > 0) log(`scheduler errors (shown above, first ${errors}): ${JSON.stringify(workers!.incidents.find((i) => i.line.event === 'error')!.line)}`);
  const verdict = fleetVerdict({
    samples,
    listMs,
    listFailures,
    judgements: judge.judge(),
    falseStatuses: judge.falseStatuses,
    falseCount: judge.falseCount,
    falseSpan: judge.falseSpan,
    reads: judge.reads,
    missed,
    renewals: renewalsTotal,
    failures,
    pollMs: plan.pollMs,
    speedTargets: plan.speedTargets,
  });
  for (const line of verdict.lines) console.log(line);
  if (run.interrupted) {
    console.log('fleet: interrupted');
    process.exit(130);
  }
  process.exit(verdict.pass ? 0 : 1);
}

void main();
