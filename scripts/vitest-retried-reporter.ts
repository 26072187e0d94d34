/**
 * A vitest reporter for scripts/test-all.ts: writes the names of the tests
 * that passed only after a retry (a per-test `retry` option overrides the
 * command line's --retry=0) to the file in VITEST_RETRIED_FILE, as JSON.
 * vitest's JSON report does not say whether a test was retried; the gate
 * counts each of these as failed.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

export default class RetriedReporter implements Reporter {
  private readonly retried: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if ((testCase.diagnostic()?.retryCount ?? 0) > 0) this.retried.push(testCase.fullName);
  }

  onTestRunEnd(): void {
    const file = process.env.VITEST_RETRIED_FILE;
    if (file) writeFileSync(file, JSON.stringify(this.retried));
  }
}
