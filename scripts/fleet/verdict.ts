/**
 * The fleet's samples, its table and its verdict. Pure: samples and
 * judgements in, lines and a pass or fail out.
 *
 * A run fails when: a fault was not shown as its health within its threshold
 * plus one poll, or a lease it touched did not recover; any lease read
 * unhealthy where no fault explains it (a false status); a renewal missed its
 * deadline in a process that was not paused or killed; a list read failed;
 * the list's p99 or the slowest alert round is over its target (unless the
 * plan only reports speed: then those lines are figures, `--  `); a process
 * died; or a fault kind was never injected (the run was too short to judge).
 */
import { FAULT_KINDS, FLEET_TARGETS } from './plan';
import type { FaultJudgement, FalseStatus } from './judge';
import { quantile } from './latency';

export interface FleetSample {
  /** Seconds since the fleet was up. */
  atS: number;
  /** Database backends' CPU, in cores (1 = one core busy), and the whole machine's busy share (0–1). */
  dbCores: number | null;
  hostBusy: number | null;
  /** The database's transactions/s: its statements/s (each is its own). */
  transactionsPerS: number;
  rowsPerS: number;
  walBytesPerS: number;
  tableBytes: number;
  renewals: number;
  renewStatements: number;
  renewP99Ms: number;
  renewMaxMs: number;
  /** Renewals that missed their deadline in processes not paused or killed. */
  missed: number;
  reports: number;
  reportStatements: number;
  reportP99Ms: number;
  reportMaxMs: number;
  reportErrors: number;
  listP99Ms: number;
  listReads: number;
  alertRoundMs: number | null;
  prunerLagMs: number | null;
  /** CPU, in cores: the real scheduler processes together; the generator (simulated schedulers); the dashboard's list reads (this process). */
  schedulerCores: number | null;
  generatorCores: number | null;
  dashboardCores: number | null;
  /** The slowest scheduler process's event-loop delay (p99 and max, ms). */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** The generator's event-loop delay (max, ms; null without a generator) and the most statements seen waiting for a pool connection (any process). */
  generatorLoopMaxMs: number | null;
  poolWaitMax: number;
  /** The alert evaluator's and the pruner's processes together, in cores. */
  otherCores: number | null;
  /** RSS of the largest scheduler process, and of all of them together (bytes); the housekeeping processes and the fleet's own. */
  workerRssMax: number;
  workerRssTotal: number;
  otherRss: Record<string, number | null>;
  faultsActive: number;
}

const ms = (value: number | null) => (value === null ? '—' : value < 10 ? value.toFixed(1) : Math.round(value).toString());
const iso = (at: number | undefined) => (at === undefined ? '—' : new Date(at).toISOString());
const cores = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const COLUMNS: [string, number, (s: FleetSample) => string][] = [
  ['t s', 5, (s) => s.atS.toFixed(0)],
  ['db cpu', 6, (s) => cores(s.dbCores)],
  ['sched cpu', 9, (s) => cores(s.schedulerCores)],
  ['gen cpu', 7, (s) => cores(s.generatorCores)],
  ['dash cpu', 8, (s) => cores(s.dashboardCores)],
  ['other cpu', 9, (s) => cores(s.otherCores)],
  ['loop p99/max', 12, (s) => `${ms(s.loopDelayP99Ms)}/${ms(s.loopDelayMaxMs)}`],
  ['gen loop', 8, (s) => ms(s.generatorLoopMaxMs)],
  ['pool wait', 9, (s) => s.poolWaitMax.toString()],
  ['host', 5, (s) => (s.hostBusy === null ? '—' : `${Math.round(s.hostBusy * 100)}%`)],
  ['xact/s', 7, (s) => Math.round(s.transactionsPerS).toString()],
  ['rows/s', 7, (s) => Math.round(s.rowsPerS).toString()],
  ['WAL kB/s', 8, (s) => Math.round(s.walBytesPerS / 1024).toString()],
  ['tables MB', 9, (s) => mb(s.tableBytes)],
  ['renew/s', 7, (s) => s.renewals.toString()],
  ['stmts', 6, (s) => s.renewStatements.toString()],
  ['renew p99/max', 13, (s) => `${ms(s.renewP99Ms)}/${ms(s.renewMaxMs)}`],
  ['missed', 6, (s) => s.missed.toString()],
  ['reports', 7, (s) => s.reports.toString()],
  ['stmts', 6, (s) => s.reportStatements.toString()],
  ['report p99/max', 14, (s) => `${ms(s.reportP99Ms)}/${ms(s.reportMaxMs)}`],
  ['list p99', 8, (s) => ms(s.listP99Ms)],
  ['alert round', 11, (s) => ms(s.alertRoundMs)],
  ['pruner lag', 10, (s) => ms(s.prunerLagMs)],
  ['RSS max/all MB', 14, (s) => `${mb(s.workerRssMax)}/${mb(s.workerRssTotal)}`],
  ['faults', 6, (s) => s.faultsActive.toString()],
];

export const sampleHeader = () => COLUMNS.map(([name, width]) => name.padStart(width)).join(' ');
export const sampleLine = (s: FleetSample) => COLUMNS.map(([, width, cell]) => cell(s).padStart(width)).join(' ');

const mean = (values: readonly (number | null)[]) => {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return known.length === 0 ? null : known.reduce((sum, v) => sum + v, 0) / known.length;
};

/**
 * What each 1,000 schedulers cost, averaged over the samples: the database's backends' CPU, the
 * dashboard's (its list reads), the generator's own (apart: it is the load, not the authority), WAL
 * and rows written per second. `—` where a figure was not measured.
 */
export function perThousandLine(samples: readonly FleetSample[], schedulers: number): string {
  const per = (value: number | null, digits: number, unit: string) => (value === null ? '—' : `${((value * 1_000) / schedulers).toFixed(digits)}${unit}`);
  const walKB = mean(samples.map((s) => s.walBytesPerS));
  return (
    `per 1,000 schedulers: database CPU ${per(mean(samples.map((s) => s.dbCores)), 3, ' cores')}, ` +
    `dashboard CPU ${per(mean(samples.map((s) => s.dashboardCores)), 3, ' cores')}, ` +
    `generator CPU ${per(mean(samples.map((s) => s.generatorCores)), 3, ' cores')} (apart), ` +
    `WAL ${per(walKB === null ? null : walKB / 1024, 1, ' kB/s')}, rows written ${per(mean(samples.map((s) => s.rowsPerS)), 0, '/s')} ` +
    `(${schedulers} schedulers, ${samples.length} samples)`
  );
}

export interface FleetOutcome {
  samples: FleetSample[];
  /** Every list read's duration (ms). */
  listMs: number[];
  listFailures: number;
  judgements: FaultJudgement[];
  falseStatuses: FalseStatus[];
  falseCount: number;
  falseSpan: { from: number; to: number } | null;
  reads: number;
  missed: number;
  /** Renewals answered in the sampled windows. */
  renewals: number;
  failures: string[];
  pollMs: number;
  /** `report`: the speed targets are printed beside their figures, never failed. */
  speedTargets: 'judge' | 'report';
}

export interface FleetVerdict {
  pass: boolean;
  lines: string[];
}

export function fleetVerdict(o: FleetOutcome): FleetVerdict {
  const lines: string[] = [];
  const fail = (line: string) => lines.push(`FAIL ${line}`);
  const ok = (line: string) => lines.push(`ok   ${line}`);
  const figure = (line: string) => lines.push(`--   ${line} (a figure here: speed targets reported, not judged)`);
  const speed = (over: boolean) => (o.speedTargets === 'report' ? figure : over ? fail : ok);
  for (const kind of FAULT_KINDS) {
    const of = o.judgements.filter((j) => j.fault.kind === kind);
    if (of.length === 0) {
      fail(`${kind}: never injected — the run was too short to judge it`);
      continue;
    }
    const timing = of[0]!.fault.timing;
    const leases = of.reduce((sum, j) => sum + j.fault.leases.length, 0);
    const slowest = Math.max(...of.map((j) => j.slowestDetectionMs));
    const slowestRecovery = Math.max(...of.map((j) => j.slowestRecoveryMs));
    const undetected = of.flatMap((j) => j.undetected.map((lease) => `${lease} (fault ${j.fault.id})`));
    const unrecovered = of.flatMap((j) => j.unrecovered.map((lease) => `${lease} (fault ${j.fault.id})`));
    const said = `${kind} ×${of.length} (${leases} leases): ${timing.expect} at worst ${ms(slowest)} ms after the fault (threshold ${timing.withinMs} + poll ${o.pollMs} ms); healthy again at worst ${ms(slowestRecovery)} ms after its end`;
    if (undetected.length > 0)
      fail(`${said}; NOT shown in time: ${undetected.slice(0, 5).join(', ')}${undetected.length > 5 ? ` and ${undetected.length - 5} more` : ''}`);
    else if (unrecovered.length > 0)
      fail(`${said}; NOT recovered: ${unrecovered.slice(0, 5).join(', ')}${unrecovered.length > 5 ? ` and ${unrecovered.length - 5} more` : ''}`);
    else ok(said);
  }
  const falseSaid = `false statuses: ${o.falseCount} over ${o.reads} list reads`;
  if (o.falseCount > 0)
    fail(
      `${falseSaid}, read from ${iso(o.falseSpan?.from)} to ${iso(o.falseSpan?.to)}, e.g. ${o.falseStatuses
        .slice(0, 5)
        .map((f) => `${f.lease} ${f.health} at ${iso(f.at)}`)
        .join(', ')}`,
    );
  else ok(falseSaid);
  (o.missed > 0 ? fail : ok)(`missed renewal deadlines outside paused or killed processes: ${o.missed} of ${o.renewals} renewals`);
  (o.listFailures > 0 ? fail : ok)(`list reads that failed: ${o.listFailures}`);
  const listP99 = quantile(
    [...o.listMs].sort((a, b) => a - b),
    0.99,
  );
  speed(listP99 >= FLEET_TARGETS.listP99Ms)(`list p99 ${ms(listP99)} ms over ${o.listMs.length} reads (target < ${FLEET_TARGETS.listP99Ms} ms)`);
  const rounds = o.samples.map((s) => s.alertRoundMs).filter((v): v is number => v !== null);
  if (rounds.length === 0) fail('alert rounds: none completed');
  else
    speed(Math.max(...rounds) >= FLEET_TARGETS.alertRoundMs)(`slowest alert round ${ms(Math.max(...rounds))} ms (target < ${FLEET_TARGETS.alertRoundMs} ms)`);
  for (const failure of o.failures) fail(failure);
  const pass = !lines.some((line) => line.startsWith('FAIL'));
  lines.push(`verdict: ${pass ? 'PASS' : 'FAIL'}`);
  return { pass, lines };
}
