// The gate's counting rules (./gate-outcomes.ts): retried tests and skips without a reason are failures.
import { describe, expect, it } from 'vitest';
import { playwrightOutcome, type PlaywrightSuite, vitestOutcome, vitestWhy } from './gate-outcomes';

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
});
