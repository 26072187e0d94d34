/**
 * A vitest reporter for scripts/test-all.ts: writes to the file in
 * VITEST_GATE_FILE, as JSON, the names of the tests that passed only after a
 * retry (a per-test `retry` option overrides the command line's --retry=0),
 * and every skipped test with its reason — the note of `ctx.skip('why')`, or
 * null for a `.skip`, `skipIf` or `todo`, which say none. vitest's JSON
 * report says neither; the gate counts retried tests and unexplained skips as failed.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

export default class GateReporter implements Reporter {
  private readonly retried: string[] = [];
  private readonly skipped: { test: string; reason: string | null }[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if ((testCase.diagnostic()?.retryCount ?? 0) > 0) this.retried.push(testCase.fullName);
    const result = testCase.result();
    if (result.state === 'skipped')
      this.skipped.push({ test: `${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} › ${testCase.fullName}`, reason: result.note?.trim() || null });
  }

  onTestRunEnd(): void {
    const file = process.env.VITEST_GATE_FILE;
    if (file) writeFileSync(file, JSON.stringify({ retried: this.retried, skipped: this.skipped }));
  }
}
