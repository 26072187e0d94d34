// The gate's counting rules (./gate-outcomes.ts): retried tests and skips without a reason are failures.
import { describe, expect, it } from 'vitest';
import { playwrightOutcome, type PlaywrightSuite, playwrightWhy, vitestOutcome, vitestWhy } from './gate-outcomes';

describe('vitest outcome', () => {
  it('counts passed tests as passed and a skip that says why as neither', () => {
    const skipped = [{ test: 'a › shared file', reason: 'no shared folder beside this clone' }];
    expect(vitestOutcome({ numTotalTests: 10, numPassedTests: 9 }, { retried: [], skipped })).toEqual({ passed: 9, failed: 0, skipped });
  });

  it('counts a skip without a reason (.skip, skipIf, todo) as failed, and says which', () => {
    const gate = { retried: [], skipped: [{ test: 'a › silent', reason: null }] };
    expect(vitestOutcome({ numTotalTests: 10, numPassedTests: 9 }, gate)).toMatchObject({ passed: 9, failed: 1 });
    expect(vitestWhy(gate)).toEqual(['skipped without a reason: a › silent']);
  });

  it('counts a test that passed only on a retry as failed', () => {
    const gate = { retried: ['a › flaky'], skipped: [] };
    expect(vitestOutcome({ numTotalTests: 3, numPassedTests: 3 }, gate)).toMatchObject({ passed: 2, failed: 1 });
    expect(vitestWhy(gate)).toEqual(['flaky (passed only on a retry): a › flaky']);
  });

  it('names each failed test with the first line of its error, so the summary a CI log keeps says which', () => {
    const gate = { retried: [], skipped: [], failed: [{ test: 'lib/x.int.test.ts › pruner › drops', error: 'expected 1 to be 2' }] };
    expect(vitestWhy(gate)).toEqual(['failed: lib/x.int.test.ts › pruner › drops — expected 1 to be 2']);
  });

  it('counts a test neither passed nor skipped (failed, or never run) as failed', () => {
    expect(vitestOutcome({ numTotalTests: 5, numPassedTests: 3 }, { retried: [], skipped: [] })).toMatchObject({ passed: 3, failed: 2 });
  });
});

describe('playwright outcome', () => {
  const spec = (title: string, status: string, description?: string) => ({
    title,
    tests: [{ status, annotations: status === 'skipped' ? [{ type: 'skip', ...(description === undefined ? {} : { description }) }] : [] }],
  });
  const suites = (...specs: ReturnType<typeof spec>[]): PlaywrightSuite[] => [{ title: 'x.spec.ts', suites: [{ title: 'group', specs }] }];

  it('lists a skip with its description and does not count it', () => {
    const outcome = playwrightOutcome({
      stats: { expected: 1, unexpected: 0, flaky: 0 },
      suites: suites(spec('runs', 'expected'), spec('no chromium', 'skipped', 'needs X')),
    });
    expect(outcome).toEqual({ passed: 1, failed: 0, skipped: [{ test: 'x.spec.ts › group › no chromium', reason: 'needs X' }] });
  });

  it('counts a skip without a description, and a flaky test, as failed', () => {
    const outcome = playwrightOutcome({
      stats: { expected: 1, unexpected: 0, flaky: 1 },
      suites: suites(spec('bare', 'skipped'), spec('blank', 'skipped', ' ')),
    });
    expect(outcome).toMatchObject({ passed: 1, failed: 3 });
    expect(outcome.skipped.map((skip) => skip.reason)).toEqual([null, null]);
  });

  it('names each unexpected and flaky test with the first line of its last error, colours stripped', () => {
    const failing = (title: string, status: string, message: string) => ({
      title,
      tests: [{ status, annotations: [], results: [{ error: { message: 'first try' } }, { error: { message } }] }],
    });
    const why = playwrightWhy(
      suites(spec('runs', 'expected'), failing('breaks', 'unexpected', '\u001b[31mTimeout 5000ms\u001b[39m\nstack'), failing('wobbles', 'flaky', 'late')),
    );
    expect(why).toEqual(['failed: x.spec.ts › group › breaks — Timeout 5000ms', 'flaky (passed only on a retry): x.spec.ts › group › wobbles — late']);
  });
});
