/**
 * How `npm test` (./test-all.ts) counts a tier's tests from its reports — the
 * gate's rules, pure: a test that passed only on a retry is failed; a test
 * neither passed nor skipped is failed, never passed; a skip counts as neither
 * passed nor failed only when the test says why (vitest's `ctx.skip('why')`,
 * Playwright's `test.skip(cond, 'why')`), otherwise as failed.
 */

export interface Counts {
  passed: number;
  failed: number;
}

interface Skip {
  test: string;
  /** Why it was skipped, as the test says; null when it does not say (a failure). */
  reason: string | null;
}

export interface Outcome extends Counts {
  skipped: Skip[];
}

/** A failed test and the first line of its error. */
interface Failure {
  test: string;
  error: string;
}

/** What ./vitest-gate-reporter.ts writes. */
export interface GateReport {
  retried: string[];
  skipped: Skip[];
  /** Absent in a report from before failures were listed. */
  failed?: Failure[];
}

/** The totals of vitest's JSON report that the gate reads. */
export interface VitestTotals {
  numTotalTests: number;
  numPassedTests: number;
}

const unexplained = (skipped: Skip[]) => skipped.filter((skip) => skip.reason === null).length;

export function vitestOutcome(totals: VitestTotals, gate: GateReport): Outcome {
  const passed = totals.numPassedTests - gate.retried.length;
  return { passed, failed: totals.numTotalTests - passed - gate.skipped.length + unexplained(gate.skipped), skipped: gate.skipped };
}

/** Why a vitest tier failed: its failing tests with their errors, flaky ones and unexplained skips. */
export function vitestWhy(gate: GateReport): string[] {
  return [
    ...(gate.failed ?? []).map((failure) => `failed: ${failure.test} — ${failure.error}`),
    ...gate.retried.map((name) => `flaky (passed only on a retry): ${name}`),
    ...gate.skipped.filter((skip) => skip.reason === null).map((skip) => `skipped without a reason: ${skip.test}`),
  ];
}

export interface PlaywrightSuite {
  title: string;
  specs?: {
    title: string;
    tests: { status: string; annotations: { type: string; description?: string }[]; results?: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

export interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number };
  suites: PlaywrightSuite[];
}

/** Playwright's skipped tests, each with the description of its `skip` annotation (null without one). */
function playwrightSkips(suites: PlaywrightSuite[], prefix = ''): Skip[] {
  return suites.flatMap((suite) => {
    const title = prefix ? `${prefix} › ${suite.title}` : suite.title;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'skipped')
        .map((test) => ({ test: `${title} › ${spec.title}`, reason: test.annotations.find((a) => a.type === 'skip')?.description?.trim() || null })),
    );
    return [...own, ...playwrightSkips(suite.suites ?? [], title)];
  });
}

/** A flaky test (passed only on a retry) is a failed test: the gate never lets one through. */
export function playwrightOutcome(report: PlaywrightReport): Outcome {
  const skipped = playwrightSkips(report.suites);
  return { passed: report.stats.expected, failed: report.stats.unexpected + report.stats.flaky + unexplained(skipped), skipped };
}

/** Why a Playwright run failed: each unexpected or flaky test, with the first line of its last error. */
export function playwrightWhy(suites: PlaywrightSuite[], prefix = ''): string[] {
  return suites.flatMap((suite) => {
    const title = prefix ? `${prefix} › ${suite.title}` : suite.title;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected' || test.status === 'flaky')
        .map((test) => {
          const error = [...(test.results ?? [])].reverse().find((result) => result.error?.message)?.error?.message ?? 'no message';
          return `${test.status === 'flaky' ? 'flaky (passed only on a retry)' : 'failed'}: ${title} › ${spec.title} — ${stripAnsi(error).split('\n')[0]!.slice(0, 240)}`;
        }),
    );
    return [...own, ...playwrightWhy(suite.suites ?? [], title)];
  });
}

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
