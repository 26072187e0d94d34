/**
 * A vitest reporter for scripts/test-all.ts: writes to the file in
 * VITEST_GATE_FILE, as JSON, the names of the tests that passed only after a
 * retry (a per-test `retry` option overrides the command line's --retry=0),
 * every skipped test with its reason — the note of `ctx.skip('why')`, or
 * null for a `.skip`, `skipIf` or `todo`, which say none — and every failed
 * test with the first line of its error, so the gate's summary (the tail a CI
 * log keeps) names it. vitest's JSON report says none of these compactly; the
 * gate counts retried tests and unexplained skips as failed.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export default class GateReporter implements Reporter {
  private readonly retried: string[] = [];
  private readonly skipped: { test: string; reason: string | null }[] = [];
  private readonly failed: { test: string; error: string }[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if ((testCase.diagnostic()?.retryCount ?? 0) > 0) this.retried.push(testCase.fullName);
    const result = testCase.result();
    const test = `${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} › ${testCase.fullName}`;
    if (result.state === 'skipped') this.skipped.push({ test, reason: result.note?.trim() || null });
    if (result.state === 'failed') this.failed.push({ test, error: firstLine(result.errors?.[0]?.message) });
  }

  /** A file that failed outside any test (an import, a hook) has no failed test case to name it. */
  onTestModuleEnd(testModule: TestModule): void {
    for (const error of testModule.errors())
      this.failed.push({ test: `${testModule.moduleId.replace(`${process.cwd()}/`, '')} (outside its tests)`, error: firstLine(error.message) });
  }

  onTestRunEnd(): void {
    const file = process.env.VITEST_GATE_FILE;
    if (file) writeFileSync(file, JSON.stringify({ retried: this.retried, skipped: this.skipped, failed: this.failed }));
  }
}

const firstLine = (message: string | undefined) => (message ?? 'no message').split('\n')[0]!.slice(0, 240);
