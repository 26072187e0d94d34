/**
 * `npm test`: every tier, in order, with a summary. Typecheck and lint, unit
 * tests (pure, fake time), the golden cases (projection and alert evaluation), integration tests
 * (real PostgreSQL — DATABASE_URL's server, else an embedded one — and real
 * scheduler processes), the short soak (retention keeps every table flat),
 * then the browser suite (real Chromium, production build). Ends with `N passed, N failed` and a non-zero exit on any failure.
 * `--only=unit,golden` runs a subset (tiers: typecheck, lint, unit, golden, int, soak, e2e).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
// One folder per database, so a run against DATABASE_URL beside a run against the embedded server
// (as .ci/run does) never reads the other's report.
const RESULTS = path.join(ROOT, 'test-reports', process.env.DATABASE_URL ? 'database-url' : 'embedded');
mkdirSync(RESULTS, { recursive: true });

interface Counts {
  passed: number;
  failed: number;
}

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Test counts from the step's machine-readable report (or its exit code); null for checks without tests. */
  counts?: (output: string, status: number | null) => Counts;
  /** The lines of a failed step's output that say why, repeated under its summary line (a long log's tail rarely does). */
  why?: (output: string) => string[];
}

// vitest runs with --retry=0, but a test's own `retry` option overrides that: a test that passed
// only on a retry (scripts/vitest-retried-reporter.ts) is flaky, and counts as failed; any test
// neither passed nor skipped counts as failed, never as passed.
function vitestStep(project: 'unit' | 'int'): Step {
  const report = `${RESULTS}/${project}.json`;
  const retried = `${RESULTS}/${project}-retried.json`;
  return {
    name: project,
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
      '--reporter=./scripts/vitest-retried-reporter.ts',
    ],
    env: { VITEST_RETRIED_FILE: retried },
    counts: () => {
      const totals = JSON.parse(readFileSync(report, 'utf8')) as {
        numTotalTests: number;
        numPassedTests: number;
        numPendingTests: number;
        numTodoTests?: number;
      };
      const flaky = (JSON.parse(readFileSync(retried, 'utf8')) as string[]).length;
      const passed = totals.numPassedTests - flaky;
      return { passed, failed: totals.numTotalTests - passed - totals.numPendingTests - (totals.numTodoTests ?? 0) };
    },
    why: () => (JSON.parse(readFileSync(retried, 'utf8')) as string[]).map((name) => `flaky (passed only on a retry): ${name}`),
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

const STEPS: Step[] = [
  { name: 'typecheck', command: ['npx', 'tsc', '--noEmit', '-p', '.'] },
  // ESLint (with the layer rules), the cycle check and prettier's check: `npm run lint`.
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  vitestStep('unit'),
  ...goldenFiles.map((file) => ({
    name: `golden ${path.relative(ROOT, file)}`,
    command: ['npx', 'tsx', 'scripts/golden.ts', file],
    counts: (output: string): Counts => {
      const match = /^(\d+) passed, (\d+) failed$/m.exec(output);
      return match ? { passed: Number(match[1]), failed: Number(match[2]) } : { passed: 0, failed: 1 };
    },
  })),
  vitestStep('int'),
  // The short soak (≤ 3 min wall): real processes, shrunk retention, flat growth or a non-zero exit (scripts/soak.ts).
  {
    name: 'soak',
    command: ['npx', 'tsx', 'scripts/soak.ts', ...SHORT_SOAK],
    counts: (_output, status) => (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
    why: (output) => output.split('\n').filter((line) => /^(verdict: |soak: |.* GREW$)/.test(line)),
  },
  {
    name: 'e2e',
    command: ['npx', 'playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: `${RESULTS}/e2e.json` },
    counts: () => {
      const report = JSON.parse(readFileSync(`${RESULTS}/e2e.json`, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
      // A flaky test (passed only on a retry) is a failed test: the gate never lets one through.
      return { passed: report.stats.expected, failed: report.stats.unexpected + report.stats.flaky };
    },
  },
];

/** A step's tier: its name's first word (`golden lib/…` is tier `golden`). */
const tierOf = (step: Step) => step.name.split(' ')[0]!;
const TIERS = [...new Set(STEPS.map(tierOf))];
const onlyArg = process.argv.slice(2).find((arg) => arg === '--only' || arg.startsWith('--only='));
const only = onlyArg?.slice('--only='.length).split(',');
// A misspelt or empty tier would otherwise select nothing (and pass) or everything: every name must be a tier.
if (onlyArg !== undefined && (onlyArg === '--only' || only!.some((name) => !TIERS.includes(name)))) {
  console.error(`test-all: --only takes tiers separated by commas (${TIERS.join(', ')}); got ${JSON.stringify(onlyArg)}`);
  process.exit(2);
}
const total: Counts = { passed: 0, failed: 0 };
const summary: string[] = [];
let broken = false;

for (const step of STEPS.filter((s) => !only || only.includes(tierOf(s)))) {
  console.log(`\n▶ ${step.name}: ${step.command.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(step.command[0]!, step.command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...step.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let counts: Counts | null = null;
  try {
    counts = step.counts ? step.counts(result.stdout ?? '', result.status) : null;
  } catch {
    counts = { passed: 0, failed: 1 }; // no report: the step did not run its tests
  }
  const ok = result.status === 0 && (!counts || counts.failed === 0);
  if (counts) {
    total.passed += counts.passed;
    total.failed += counts.failed;
  }
  if (!ok) broken = true;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${step.name.padEnd(40)} ${counts ? `${counts.passed} passed, ${counts.failed} failed` : result.status === 0 ? 'clean' : `exit ${result.status}`}  (${seconds} s)`,
    ...(ok || !step.why ? [] : step.why(result.stdout ?? '').map((line) => `       ${line}`)),
  );
}

console.log(`\nSummary (database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'})`);
for (const line of summary) console.log(`  ${line}`);
if (broken && total.failed === 0) total.failed = 1; // a failed check (typecheck, lint) counts as a failure
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
process.exit(broken ? 1 : 0);
