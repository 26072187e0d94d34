// Conditions, table-driven: given these facts, projected at NOW, expect each condition's status,
// reason and lastTransitionTime — authority and progress apart, missing evidence never True.
import { describe, expect, it } from 'vitest';
import { conditionsOf } from './conditions';
import { project } from './project';
import { ago, facts, lease, MIN, NOW, progress, SEC, T } from './test-fixtures';
import type { ConditionType, SchedulerFacts } from './types';

type Expected = Record<ConditionType, [status: string, reason: string, lastTransitionTime: string | null]>;

const DISABLED = { disabled: true, by: 'sre-on-call', reason: 'maintenance window', at: ago(5 * MIN) };
const ENABLED = { disabled: false, by: 'sre-on-call', reason: 'maintenance done', at: ago(2 * MIN) };

const cases: { given: string; facts: SchedulerFacts; then: Expected }[] = [
  {
    given: 'a holder whose work advanced 3 s ago',
    facts: facts(),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['True', 'Advancing', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a holder renewing late (at risk)',
    facts: facts({ lease: lease({ renewedAt: ago(10 * SEC), expiresAt: ago(-5 * SEC) }) }),
    then: {
      LeaseHeld: ['True', 'RenewalAtRisk', ago(10 * MIN)],
      Progressing: ['True', 'Advancing', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a holder that renews and reports but has not advanced for 2 min (stalled)',
    facts: facts({ progress: progress({ lastAdvanceAt: ago(2 * MIN) }) }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['False', 'Stalled', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'nothing in flight, an occurrence due 2 min ago and not started (overdue)',
    facts: facts({
      progress: progress({ lastAdvanceAt: ago(3 * MIN), inFlight: null }),
      due: { occurrence: 'retention-planner@2026-11-30T11:58:00Z', dueAt: ago(2 * MIN) },
    }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['False', 'Overdue', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'nothing in flight, nothing due (idle)',
    facts: facts({ progress: progress({ lastAdvanceAt: ago(5 * MIN), inFlight: null }) }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['False', 'Idle', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a holder silent for 30 s (> gapAfter 6 s): evidence missing, not stalled',
    facts: facts({ progress: progress({ lastReportAt: ago(30 * SEC), lastAdvanceAt: ago(40 * SEC) }) }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['Unknown', 'ReportsSilent', null],
      Observed: ['False', 'ReportsSilent', ago(30 * SEC)],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a new holder that has not reported yet',
    facts: facts({ lease: lease({ acquiredAt: ago(20 * SEC) }), progress: null }),
    then: {
      LeaseHeld: ['True', 'Held', ago(20 * SEC)],
      Progressing: ['Unknown', 'NoReportYet', ago(20 * SEC)],
      Observed: ['False', 'NoReportYet', ago(20 * SEC)],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a new holder (epoch 8) when only epoch 7 reported',
    facts: facts({ lease: lease({ epoch: 8, acquiredAt: ago(20 * SEC) }) }),
    then: {
      LeaseHeld: ['True', 'Held', ago(20 * SEC)],
      Progressing: ['Unknown', 'PreviousEpochOnly', ago(20 * SEC)],
      Observed: ['False', 'PreviousEpochOnly', ago(20 * SEC)],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'reports lost 50 s ago, no advance since, an occurrence in flight: stall unproven',
    facts: facts({
      progress: progress({ lastAdvanceAt: ago(2 * MIN), gap: { from: ago(60 * SEC), to: ago(50 * SEC), reason: 'lost_reports' } }),
    }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['Unknown', 'ReportsBroken', null],
      Observed: ['True', 'ResumedAfterGap', ago(50 * SEC)],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a lease that expired 30 s ago',
    facts: facts({ lease: lease({ renewedAt: ago(45 * SEC), expiresAt: ago(30 * SEC) }) }),
    then: {
      LeaseHeld: ['False', 'Expired', ago(30 * SEC)],
      Progressing: ['False', 'NoLeader', ago(30 * SEC)],
      Observed: ['True', 'NoReportsExpected', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a lease released 10 s ago',
    facts: facts({ lease: lease({ released: true, renewedAt: ago(12 * SEC), expiresAt: ago(10 * SEC) }) }),
    then: {
      LeaseHeld: ['False', 'Released', ago(10 * SEC)],
      Progressing: ['False', 'NoLeader', ago(10 * SEC)],
      Observed: ['True', 'NoReportsExpected', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a lease never held',
    facts: facts({ lease: null, progress: null }),
    then: {
      LeaseHeld: ['False', 'NeverHeld', null],
      Progressing: ['False', 'NoLeader', null],
      Observed: ['True', 'NoReportsExpected', null],
      Enabled: ['True', 'NoIntent', null],
    },
  },
  {
    given: 'a stalled holder disabled by an operator: the axes still told as they are',
    facts: facts({ intent: DISABLED, progress: progress({ lastAdvanceAt: ago(2 * MIN) }) }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['False', 'Stalled', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['False', 'DisabledByOperator', ago(5 * MIN)],
    },
  },
  {
    given: 'a holder enabled again by an operator',
    facts: facts({ intent: ENABLED }),
    then: {
      LeaseHeld: ['True', 'Held', ago(10 * MIN)],
      Progressing: ['True', 'Advancing', null],
      Observed: ['True', 'Reporting', null],
      Enabled: ['True', 'EnabledByOperator', ago(2 * MIN)],
    },
  },
  {
    given: 'a store unreadable since 40 s ago (it said disabled then): nothing True',
    facts: facts({ store: { ok: false, lastObservedAt: ago(40 * SEC) }, intent: DISABLED }),
    then: {
      LeaseHeld: ['Unknown', 'StoreUnreadable', null],
      Progressing: ['Unknown', 'StoreUnreadable', null],
      Observed: ['False', 'StoreUnreadable', ago(40 * SEC)],
      Enabled: ['Unknown', 'StoreUnreadable', null],
    },
  },
];

describe('conditionsOf', () => {
  it.each(cases)('given $given', ({ facts: f, then }) => {
    const conditions = conditionsOf(project(f, NOW, T), NOW);
    expect(conditions.map((c) => c.type)).toEqual(['LeaseHeld', 'Progressing', 'Observed', 'Enabled']);
    const got = Object.fromEntries(conditions.map((c) => [c.type, [c.status, c.reason, c.lastTransitionTime]]));
    expect(got).toEqual(then);
    for (const c of conditions) expect(c.message).not.toBe('');
  });

  it('never says True where the projection has no evidence (health unknown ⇒ Progressing is not True)', () => {
    for (const { facts: f } of cases) {
      const status = project(f, NOW, T);
      const progressingCondition = conditionsOf(status, NOW).find((c) => c.type === 'Progressing')!;
      expect(progressingCondition.status === 'True').toBe(status.work.state === 'progressing');
      if (status.health === 'unknown') expect(progressingCondition.status).toBe('Unknown');
    }
  });

  it("carries the projection's own sentences as messages", () => {
    const status = project(facts({ progress: progress({ lastAdvanceAt: ago(2 * MIN) }) }), NOW, T);
    const byType = new Map(conditionsOf(status, NOW).map((c) => [c.type, c]));
    expect(byType.get('LeaseHeld')!.message).toContain('inst_7kq2m9xd (A), epoch 7');
    expect(byType.get('Progressing')!.message).toContain('> stall threshold 1 min');
  });
});
