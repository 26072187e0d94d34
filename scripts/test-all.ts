/**
 * `npm test`: every tier, with a summary. Typecheck and lint, unit tests (pure,
 * fake time), the golden cases (projection and alert evaluation), integration
 * tests (real PostgreSQL — DATABASE_URL's server, else an embedded one — and
 * real scheduler processes), the short soak (retention keeps every table
 * flat), the short fleet (hundreds of schedulers under faults), then the browser suite (real Chromium, one production build made by
 * the `build` tier). Ends with `N passed, N failed` and a non-zero exit on any failure, after a
 * summary of each step's wall time and CPU time (its processes', the embedded PostgreSQL included;
 * not a DATABASE_URL server's) and the run's total.
 *
 * The production build runs first, alone; then tiers run in five lanes at
 * once, because most of them mostly wait: the browser tier (one Playwright
 * run, one test at a time); lint, then the typecheck (it reads the build's
 * generated route types, and the build skips its own check); unit and golden;
 * the integration tier (three vitest workers, a database each); the soak
 * (2.5 minutes of wall time, little CPU), then the fleet (2.5 minutes, about
 * 50 s of CPU). Each step's output is printed whole when it ends.
 *
 * Every skipped test is listed with its reason; a skip without one (vitest's
 * `.skip`/`skipIf`/`todo`, a Playwright skip without a description) counts as
 * failed — a test skips only through `ctx.skip('why')` or `test.skip(cond, 'why')`.
 *
 * `--only=unit,golden` runs a subset (tiers: typecheck, lint, unit, golden, int, soak, fleet, build, e2e;
 * e2e brings its build). `--int-on=URL` runs the integration tier against the PostgreSQL server at URL
 * instead (its reports in test-reports/database-url); every other tier keeps the embedded one.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Counts,
  type GateReport,
  type Outcome,
  playwrightOutcome,
  playwrightWhy,
  type PlaywrightReport,
  type VitestTotals,
  vitestOutcome,
  vitestWhy,
} from './gate-outcomes';

const ROOT = path.resolve(__dirname, '..');
/** LEASEBOARD_HARNESS_SKIPS_FAIL=1 (set by .ci/run): every skip fails the run, even one that says why. */
const SKIPS_FAIL = process.env.LEASEBOARD_HARNESS_SKIPS_FAIL === '1';
// One folder per database, so a run against DATABASE_URL beside a run against the embedded server
// never reads the other's report.
const reportsFor = (databaseUrl: string | undefined) => path.join(ROOT, 'test-reports', databaseUrl ? 'database-url' : 'embedded');
const RESULTS = reportsFor(process.env.DATABASE_URL);

interface Step {
  name: string;
  /** The tier `--only` selects it by. */
  tier: string;
  /** A step (by name) that must have passed before this one starts, in whichever lane it runs. */
  needs?: string;
  /** A step (by name) that must have ended, passed or not, before this one starts. */
  after?: string;
  command: string[];
  env?: Record<string, string>;
  /** Test counts from the step's machine-readable report (or its exit code); null for checks without tests. */
  outcome?: (output: string, status: number | null) => Outcome;
  /** The lines of a failed step's output that say why, repeated under its summary line (a long log's tail rarely does). */
  why?: (output: string) => string[];
}

// vitest runs with --retry=0, but a test's own `retry` option overrides that: the gate counts by
// ./gate-outcomes.ts from vitest's JSON report and ./vitest-gate-reporter.ts (retried tests, skips and their reasons).
function vitestStep(project: 'unit' | 'int', options: { databaseUrl?: string; label?: string } = {}): Step {
  const results = options.databaseUrl ? reportsFor(options.databaseUrl) : RESULTS;
  mkdirSync(results, { recursive: true });
  const report = `${results}/${project}.json`;
  const gate = `${results}/${project}-gate.json`;
  const readGate = () => JSON.parse(readFileSync(gate, 'utf8')) as GateReport;
  return {
    name: options.label ?? project,
    tier: project,
    command: [
      'npx',
      'vitest',
      'run',
      '--project',
      project,
      '--retry=0',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      '--reporter=./scripts/vitest-gate-reporter.ts',
    ],
    env: { VITEST_GATE_FILE: gate, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) },
    outcome: () => vitestOutcome(JSON.parse(readFileSync(report, 'utf8')) as VitestTotals, readGate()),
    why: () => vitestWhy(readGate()),
  };
}

/** The repo's copy of each golden file, and the shared one beside the repo when it exists. */
const goldenPairs: [repo: string, shared: string][] = [
  ['lib/status/golden/cases.json', '../shared/golden/cases.json'],
  ['lib/alerts/golden/alerts-cases.json', '../shared/golden/alerts-cases.json'],
];
const goldenFiles = goldenPairs.flatMap(([repo, shared]) => {
  const sharedPath = path.resolve(ROOT, shared);
  return [repo, ...(existsSync(sharedPath) ? [sharedPath] : [])];
});

/** The soak `npm test` runs: 2.5 minutes of samples at speed 20 with a 30 s horizon (README "Retention and disk"). */
const SHORT_SOAK = ['--minutes', '2.5', '--speed', '20', '--horizon', '30s'];

/**
 * The fleet `npm test` runs: 300 schedulers in 3 processes for 2 minutes, a fault every 10 s (README "Fleet"),
 * judged for correctness; its speed (list p99, alert round) is printed, not judged, beside the other tiers.
 */
const SHORT_FLEET = ['--schedulers', '300', '--processes', '3', '--minutes', '2', '--fault-every', '10', '--speed-targets', 'report'];

const exitOutcome = (status: number | null): Outcome => ({ passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: [] });

const checksLane: Step[] = [
  // ESLint (with the layer rules), the cycle check, prettier's check and knip's (unused files, exports, dependencies): `npm run lint`.
  { name: 'lint', tier: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  // After the build, whatever its result: tsc reads the build's generated route types (tsconfig.json), whole.
  { name: 'typecheck', tier: 'typecheck', after: 'build', command: ['npx', 'tsc', '--noEmit', '-p', '.'] },
];

const unitLane: Step[] = [
  vitestStep('unit'),
  ...goldenFiles.map((file): Step => ({
    name: `golden ${path.relative(ROOT, file)}`,
    tier: 'golden',
    command: ['npx', 'tsx', 'scripts/golden.ts', file],
    outcome: (output) => {
      const match = /^(\d+) passed, (\d+) failed$/m.exec(output);
      return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: [] } : { passed: 0, failed: 1, skipped: [] };
    },
  })),
];

/** The browser tier: one Playwright run (playwright.config.ts says why not shards), once the build is made. */
const E2E_REPORT = `${RESULTS}/e2e.json`;
const e2eStep: Step = {
  name: 'e2e',
  tier: 'e2e',
  needs: 'build',
  command: ['npx', 'playwright', 'test', '--reporter=list,json'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: E2E_REPORT },
  outcome: () => playwrightOutcome(JSON.parse(readFileSync(E2E_REPORT, 'utf8')) as PlaywrightReport),
  why: () => playwrightWhy((JSON.parse(readFileSync(E2E_REPORT, 'utf8')) as PlaywrightReport).suites),
};

const browserLane: Step[] = [
  // The one production build the browser tier uses (e2e/support/build.ts; its global setup finds it current),
  // without the build's own type check: the typecheck tier checks the same program once the build is made.
  { name: 'build', tier: 'build', command: ['npx', 'tsx', 'e2e/support/build.ts'], env: { LEASEBOARD_HARNESS_BUILD_TYPECHECKED_SEPARATELY: '1' } },
  e2eStep,
];

const intOnArg = process.argv.slice(2).find((arg) => arg.startsWith('--int-on='));
const intOn = intOnArg?.slice('--int-on='.length);
if (intOnArg !== undefined && !intOn) {
  console.error('test-all: --int-on takes a PostgreSQL URL (its server gets the run’s databases beside it)');
  process.exit(2);
}

/**
 * Every other lane starts once the build ended: alone on the two cores it takes about 25 s (and the browser tier,
 * the longest lane, starts then); beside the other lanes it took 199 and 234 s in two gate runs.
 */
const afterTheBuild = (lane: Step[]): Step[] => lane.map((step, i) => (i === 0 && step.after === undefined ? { ...step, after: 'build' } : step));

const otherLanes: Step[][] = [
  checksLane,
  unitLane,
  [intOn ? vitestStep('int', { databaseUrl: intOn, label: 'int (--int-on)' }) : vitestStep('int')],
  // The short soak (≤ 3 min wall): real processes, shrunk retention, flat growth or a non-zero exit (scripts/soak.ts).
  [
    {
      name: 'soak',
      tier: 'soak',
      command: ['npx', 'tsx', 'scripts/soak.ts', ...SHORT_SOAK],
      outcome: (_output, status) => exitOutcome(status),
      why: (output) => output.split('\n').filter((line) => /^(verdict: |soak: |.* GREW$)/.test(line)),
    },
    // The short fleet (≈ 2.5 min wall, after the soak in its lane): real scheduler processes under faults,
    // every fault shown as its health in time, no false status, no missed renewal (scripts/fleet.ts).
    {
      name: 'fleet',
      tier: 'fleet',
      command: ['npx', 'tsx', 'scripts/fleet.ts', ...SHORT_FLEET],
      outcome: (_output, status) => exitOutcome(status),
      why: (output) => output.split('\n').filter((line) => /^(FAIL |verdict: |fleet: )/.test(line)),
    },
  ],
];

const LANES: Step[][] = [browserLane, ...otherLanes.map(afterTheBuild)];

const TIERS = [...new Set(LANES.flat().map((step) => step.tier))];
const onlyArg = process.argv.slice(2).find((arg) => arg === '--only' || arg.startsWith('--only='));
const only = onlyArg?.slice('--only='.length).split(',');
// A misspelt or empty tier would otherwise select nothing (and pass) or everything: every name must be a tier.
if (onlyArg !== undefined && (onlyArg === '--only' || only!.some((name) => !TIERS.includes(name)))) {
  console.error(`test-all: --only takes tiers separated by commas (${TIERS.join(', ')}); got ${JSON.stringify(onlyArg)}`);
  process.exit(2);
}
// The browser tier runs the build the `build` tier makes.
const selected = only && (only.includes('e2e') ? [...only, 'build'] : only);
const lanes = LANES.map((lane) => lane.filter((step) => !selected || selected.includes(step.tier))).filter((lane) => lane.length > 0);

interface Finished {
  step: Step;
  ok: boolean;
  outcome: Outcome | null;
  status: number | null;
  output: string;
  startedS: number;
  seconds: number;
  /** CPU seconds (user + system) of the step and every process it waited for; null when bash did not say. */
  cpuS: number | null;
}

const runStarted = Date.now();
const sinceStart = () => (Date.now() - runStarted) / 1000;
const clock = () => `${sinceStart().toFixed(0).padStart(4)} s`;

function runStep(step: Step): Promise<Finished> {
  const startedS = sinceStart();
  console.log(`[${clock()}] ▶ ${step.name}: ${step.command.join(' ')}`);
  return new Promise((resolve) => {
    // Through bash, whose `times` (on fd 3) gives the CPU the step's processes used: on two cores the
    // gate's wall time is mostly the sum of its tiers' CPU, which the wall time of one lane hides.
    const child = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', ...step.command], {
      cwd: ROOT,
      env: { ...process.env, ...step.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    const times: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => times.push(chunk));
    child.on('close', (status) => {
      const output = Buffer.concat(chunks).toString('utf8');
      const cpuS = childrenCpuSeconds(Buffer.concat(times).toString('utf8'));
      let outcome: Outcome | null = null;
      try {
        outcome = step.outcome ? step.outcome(output, status) : null;
      } catch {
        outcome = { passed: 0, failed: 1, skipped: [] }; // no report: the step did not run its tests
      }
      const ok = status === 0 && (!outcome || outcome.failed === 0);
      const seconds = sinceStart() - startedS;
      console.log(`\n[${clock()}] ${ok ? '■' : '✗'} ${step.name} (${seconds.toFixed(1)} s) ${'─'.repeat(40)}\n${output}`);
      resolve({ step, ok, outcome, status, output, startedS, seconds, cpuS });
    });
  });
}

/** User plus system seconds of bash's children from the output of `times` (its second line: `0m12.345s 0m1.234s`). */
function childrenCpuSeconds(times: string): number | null {
  const line = times.trim().split('\n')[1];
  const parts = line?.match(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/);
  if (!parts) return null;
  return Number(parts[1]) * 60 + Number(parts[2]) + Number(parts[3]) * 60 + Number(parts[4]);
}

/** Each step's end, by name, for the steps that others need. */
const ended = new Map<string, { promise: Promise<boolean>; resolve: (ok: boolean) => void }>();
function endOf(name: string) {
  let entry = ended.get(name);
  if (!entry) {
    let resolve!: (ok: boolean) => void;
    const promise = new Promise<boolean>((r) => (resolve = r));
    entry = { promise, resolve };
    ended.set(name, entry);
  }
  return entry;
}

/** A lane's steps one after another, each once its `after` ended; a failed step does not stop the lane, but a step whose `needs` failed does not run. */
async function runLane(steps: Step[], selectedNames: Set<string>): Promise<Finished[]> {
  const finished: Finished[] = [];
  for (const step of steps) {
    if (step.after && selectedNames.has(step.after)) await endOf(step.after).promise;
    const needOk = step.needs && selectedNames.has(step.needs) ? await endOf(step.needs).promise : true;
    const done: Finished = needOk
      ? await runStep(step)
      : {
          step,
          ok: false,
          outcome: { passed: 0, failed: 1, skipped: [] },
          status: null,
          output: `${step.needs} failed`,
          startedS: sinceStart(),
          seconds: 0,
          cpuS: 0,
        };
    endOf(step.name).resolve(done.ok);
    finished.push(done);
  }
  return finished;
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(`test-all: ${lanes.length} lane(s); load average ${load()}`);
  const selectedNames = new Set(lanes.flat().map((step) => step.name));
  const results = (await Promise.all(lanes.map((lane) => runLane(lane, selectedNames)))).flat().sort((a, b) => a.startedS - b.startedS);

  const total: Counts = { passed: 0, failed: 0 };
  const summary: string[] = [];
  const skips: string[] = [];
  let broken = false;
  let cpuTotalS = 0;
  for (const { step, ok, outcome, status, output, startedS, seconds, cpuS } of results) {
    cpuTotalS += cpuS ?? 0;
    if (outcome) {
      total.passed += outcome.passed;
      total.failed += outcome.failed;
      for (const skip of outcome.skipped) skips.push(`${step.name}: ${skip.test} — ${skip.reason ?? 'NO REASON GIVEN (counted as failed)'}`);
      // CI installs everything every test needs (.ci/run): there, a skip with a reason is a missing install step, a failure.
      if (SKIPS_FAIL && outcome.skipped.length > 0) {
        total.failed += outcome.skipped.filter((skip) => skip.reason !== null).length;
        broken = true;
      }
    }
    if (!ok) broken = true;
    const result = outcome ? `${outcome.passed} passed, ${outcome.failed} failed` : status === 0 ? 'clean' : `exit ${status}`;
    summary.push(
      `${ok ? 'ok  ' : 'FAIL'} ${step.name.padEnd(40)} ${result.padEnd(24)} ${seconds.toFixed(1).padStart(6)} s  (from ${startedS.toFixed(0).padStart(3)} s; CPU ${cpuS === null ? '?' : cpuS.toFixed(0).padStart(4)} s)`,
      ...(ok || !step.why ? [] : safeWhy(step, output).map((line) => `       ${line}`)),
    );
  }

  console.log(
    `\nSummary (database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}; wall ${sinceStart().toFixed(1)} s; CPU ${cpuTotalS.toFixed(0)} s over ${os.availableParallelism()} cores; load average ${load()})`,
  );
  for (const line of summary) console.log(`  ${line}`);
  console.log(
    skips.length === 0 ? 'skipped: none' : `skipped: ${skips.length}${SKIPS_FAIL ? ' (LEASEBOARD_HARNESS_SKIPS_FAIL=1: each counted as failed)' : ''}`,
  );
  for (const line of skips) console.log(`  ${line}`);
  if (broken && total.failed === 0) total.failed = 1; // a failed check (typecheck, lint) counts as a failure
  console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
  process.exit(broken ? 1 : 0);
}

function safeWhy(step: Step, output: string): string[] {
  try {
    return step.why!(output);
  } catch {
    return [];
  }
}

void main();
