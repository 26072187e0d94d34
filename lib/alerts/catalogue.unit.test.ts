/**
 * Rule conditions over the projection's answer: unknown is never OK and
 * never stalled; an unreadable store stands for all; the rejection window.
 */
import { describe, expect, it } from 'vitest';
import type { Health } from '../status/types';
import { ALERT_NAMES, SCHEDULER_ALERT_NAMES, judgeScheduler, judgeService, ruleInfo } from './catalogue';
import { T0_MS, at, evidence, MIN, SEC } from './test-fixtures';
import type { Condition, SchedulerAlertName } from './types';

const HEALTHS: Health[] = ['stalled', 'no_leader', 'unknown', 'disabled', 'idle', 'progressing'];
const WINDOW = 15 * MIN;

describe('scheduler rules by health (store readable, not at risk, no rejection)', () => {
  const expected: Record<Exclude<SchedulerAlertName, 'StaleWritesRejected'>, Record<Health, Condition>> = {
    SchedulerStalled: { stalled: 'true', no_leader: 'false', unknown: 'unknown', disabled: 'false', idle: 'false', progressing: 'false' },
    SchedulerNoLeader: { stalled: 'false', no_leader: 'true', unknown: 'unknown', disabled: 'false', idle: 'false', progressing: 'false' },
    SchedulerUnknown: { stalled: 'false', no_leader: 'false', unknown: 'true', disabled: 'false', idle: 'false', progressing: 'false' },
    LeaseRenewalAtRisk: { stalled: 'false', no_leader: 'false', unknown: 'unknown', disabled: 'false', idle: 'false', progressing: 'false' },
  };
  const rows = Object.entries(expected).flatMap(([rule, byHealth]) =>
    HEALTHS.map((health) => ({ rule: rule as SchedulerAlertName, health, then: byHealth[health] })),
  );
  it.each(rows)('given health $health, then $rule is $then', ({ rule, health, then }) => {
    expect(judgeScheduler(rule, evidence({ health }), T0_MS, WINDOW)).toBe(then);
  });
});

describe('LeaseRenewalAtRisk', () => {
  it.each([
    { health: 'progressing', atRisk: true, then: 'true' },
    { health: 'disabled', atRisk: true, then: 'true' },
    { health: 'unknown', atRisk: true, then: 'unknown' },
    { health: 'idle', atRisk: false, then: 'false' },
  ] as const)('given health $health and atRisk $atRisk, then $then', ({ health, atRisk, then }) => {
    expect(judgeScheduler('LeaseRenewalAtRisk', evidence({ health, atRisk }), T0_MS, WINDOW)).toBe(then);
  });
});

describe('StaleWritesRejected: a rejection within the window', () => {
  it.each([
    { given: 'no rejection', lastRejectionAt: null, then: 'false' },
    { given: 'one just now', lastRejectionAt: at(0), then: 'true' },
    { given: 'one exactly a window ago', lastRejectionAt: at(-WINDOW), then: 'true' },
    { given: 'one a window and 1 ms ago', lastRejectionAt: at(-WINDOW - 1), then: 'false' },
    { given: 'one after now (read skew)', lastRejectionAt: at(SEC), then: 'false' },
  ])('given $given, then $then', ({ lastRejectionAt, then }) => {
    expect(judgeScheduler('StaleWritesRejected', evidence({ lastRejectionAt }), T0_MS, WINDOW)).toBe(then);
  });

  it('given a silent (unknown) scheduler with a rejection, then it still counts: the log is a fact of the store', () => {
    expect(judgeScheduler('StaleWritesRejected', evidence({ health: 'unknown', lastRejectionAt: at(-MIN) }), T0_MS, WINDOW)).toBe('true');
  });
});

describe('an unreadable store stands for all', () => {
  it.each(SCHEDULER_ALERT_NAMES)('given the store cannot be read, then %s judges unknown (held, no alert per scheduler)', (rule) => {
    expect(judgeScheduler(rule, evidence({ health: 'unknown', storeReadable: false, lastRejectionAt: at(-MIN) }), T0_MS, WINDOW)).toBe('unknown');
  });
  it('then StatusStoreUnreadable is true, and false once readable', () => {
    expect(judgeService('StatusStoreUnreadable', { storeReadable: false, lastObservedAt: at(-MIN) })).toBe('true');
    expect(judgeService('StatusStoreUnreadable', { storeReadable: true, lastObservedAt: at(0) })).toBe('false');
  });
});

describe('catalogue', () => {
  it('Watchdog always fires', () => {
    expect(judgeService('Watchdog', { storeReadable: false, lastObservedAt: null })).toBe('true');
    expect(judgeService('Watchdog', { storeReadable: true, lastObservedAt: at(0) })).toBe('true');
  });
  it('has the six rules of the issue plus the Watchdog, each with a severity', () => {
    expect(ALERT_NAMES).toEqual([
      'SchedulerStalled',
      'SchedulerNoLeader',
      'SchedulerUnknown',
      'LeaseRenewalAtRisk',
      'StaleWritesRejected',
      'StatusStoreUnreadable',
      'Watchdog',
    ]);
    expect(ALERT_NAMES.map((n) => ruleInfo(n).severity)).toEqual(['critical', 'critical', 'warning', 'warning', 'warning', 'critical', 'none']);
  });
});
