/**
 * An evaluator round over real projected statuses, on fake time: what goes
 * to Alertmanager (labels, annotations, generatorURL), modes with
 * per-scheduler overrides, one alert for an unreadable store, held records.
 */
import { describe, expect, it } from 'vitest';
import { project } from '../status/project';
import { ago, facts, later, lease, MIN, NOW, progress, SEC, T } from '../status/test-fixtures';
import type { SchedulerStatus } from '../status/types';
import { schedulerEvidence } from './evidence';
import { modeTable, NO_MODES, type ModeTable } from './modes';
import { reopenSends } from './reopen';
import { evaluateRound, parseAlertKey, type RoundResult } from './round';
import { firingValidForMs } from './step';
import { config } from './test-fixtures';
import type { AlertMode, AlertName, AlertRecord, ServiceEvidence } from './types';

const ZERO_FOR = config({
  LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '0s',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR: '1m',
  LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR: '0s',
});
const readable: ServiceEvidence = { storeReadable: true, lastObservedAt: NOW };

function status(name: string, over: Parameters<typeof facts>[0] = {}, now = NOW): SchedulerStatus {
  return project(facts({ name, lease: lease({ name }), ...over }), now, T);
}
const stalled = (name: string, now = NOW) => status(name, { progress: progress({ lastAdvanceAt: ago(5 * MIN) }) }, now);
const healthy = (name: string, now = NOW) => status(name, {}, now);

function modes(entries: [rule: AlertName, scheduler: string | null, mode: AlertMode][]): ModeTable {
  return modeTable(entries.map(([rule, scheduler, mode]) => ({ rule, scheduler, mode, by: 'sre', reason: 'rollout', at: NOW })));
}

function round(
  statuses: SchedulerStatus[],
  over: { modes?: ModeTable; previous?: Map<string, AlertRecord>; now?: string; service?: ServiceEvidence } = {},
): RoundResult {
  return evaluateRound({
    now: over.now ?? NOW,
    service: over.service ?? readable,
    schedulers: statuses.map((s) => schedulerEvidence(s)),
    modes: over.modes ?? NO_MODES,
    previous: over.previous ?? new Map(),
    config: ZERO_FOR,
  });
}

describe('a stalled scheduler under a rule that is on', () => {
  const result = round([stalled('retention-planner'), healthy('index-compaction')], { modes: modes([['SchedulerStalled', null, 'on']]) });

  it('then exactly one alert goes out, with labels alertname/scheduler/severity only', () => {
    expect(result.outgoing.map((o) => o.key)).toEqual(['SchedulerStalled/retention-planner']);
    expect(result.outgoing[0]!.alert.labels).toEqual({ alertname: 'SchedulerStalled', scheduler: 'retention-planner', severity: 'critical' });
  });

  it('then its summary is the status reason, and its links point at the dashboard', () => {
    const { alert } = result.outgoing[0]!;
    expect(alert.annotations).toEqual({
      summary:
        'retention-planner: occurrence retention-planner@2026-11-30T11:58:00Z last advanced 5 min ago > stall threshold 1 min; reports continuous for 1 min (last report 1 s ago)',
      runbook_url: 'https://ops.example/leaseboard/runbooks/SchedulerStalled',
      dashboard: 'https://ops.example/leaseboard/schedulers/retention-planner',
    });
    expect(alert.startsAt).toBe(NOW);
    expect(alert.endsAt).toBe(later(4 * MIN));
    expect(alert.generatorURL).toBe(`https://ops.example/leaseboard/schedulers/retention-planner?at=${encodeURIComponent(NOW)}`);
  });

  it('then healthy schedulers and rules that stay inactive leave no record (records are sparse)', () => {
    expect([...result.records.keys()].sort()).toEqual(['SchedulerStalled/retention-planner', 'Watchdog']);
    expect(result.transitions.map((t) => `${t.rule}/${t.scheduler ?? ''}:${t.from}→${t.to}@${t.mode}`)).toEqual([
      'SchedulerStalled/retention-planner:inactive→firing@on',
      'Watchdog/:inactive→firing@shadow',
    ]);
  });

  it('then generatorURL keeps the moment it started firing on re-sends', () => {
    const again = round([stalled('retention-planner', later(MIN))], {
      modes: modes([['SchedulerStalled', null, 'on']]),
      previous: result.records,
      now: later(MIN),
    });
    expect(again.outgoing[0]!.alert.generatorURL).toContain(`?at=${encodeURIComponent(NOW)}`);
    expect(again.outgoing[0]!.alert.startsAt).toBe(NOW);
  });
});

describe('modes', () => {
  it('given no mode stated, then every rule is in shadow: evaluated, recorded, not delivered', () => {
    const result = round([stalled('a')]);
    expect(result.outgoing).toEqual([]);
    expect(result.records.get('SchedulerStalled/a')?.state.kind).toBe('firing');
  });

  it('given the rule on and an override off for one scheduler, then only the other is evaluated and delivered', () => {
    const result = round([stalled('a'), stalled('b')], {
      modes: modes([
        ['SchedulerStalled', null, 'on'],
        ['SchedulerStalled', 'b', 'off'],
      ]),
    });
    expect(result.outgoing.map((o) => o.key)).toEqual(['SchedulerStalled/a']);
    expect(result.records.has('SchedulerStalled/b')).toBe(false);
  });

  it('given the rule off and an override on for one scheduler, then the override wins for it', () => {
    const result = round([stalled('a'), stalled('b')], {
      modes: modes([
        ['SchedulerStalled', null, 'off'],
        ['SchedulerStalled', 'b', 'on'],
      ]),
    });
    expect(result.outgoing.map((o) => o.key)).toEqual(['SchedulerStalled/b']);
  });

  it('given the Watchdog on, then it always goes out, without a scheduler label', () => {
    const result = round([], { modes: modes([['Watchdog', null, 'on']]) });
    expect(result.outgoing.map((o) => o.alert.labels)).toEqual([{ alertname: 'Watchdog', severity: 'none' }]);
    expect(result.outgoing[0]!.alert.generatorURL).toBe('https://ops.example/leaseboard/');
  });
});

describe('an unreadable store stands for all', () => {
  const allOn = modes([
    ['SchedulerUnknown', null, 'on'],
    ['SchedulerStalled', null, 'on'],
    ['StatusStoreUnreadable', null, 'on'],
  ]);
  const names = Array.from({ length: 10 }, (_, i) => `s${i}`);

  it('then one StatusStoreUnreadable goes out, no SchedulerUnknown, and a firing stall is held (not resolved)', () => {
    const first = round(
      names.map((n) => stalled(n)),
      { modes: allOn },
    );
    expect(first.outgoing.filter((o) => o.alert.labels.alertname === 'SchedulerStalled')).toHaveLength(10);

    const unreadable = { ok: false as const, lastObservedAt: NOW };
    const t1 = later(10 * MIN);
    const down = names.map((n) => status(n, { store: unreadable }, t1));
    expect(down.every((s) => s.health === 'unknown')).toBe(true);
    const result = round(down, { modes: allOn, previous: first.records, now: t1, service: { storeReadable: false, lastObservedAt: NOW } });
    expect(result.outgoing.map((o) => o.alert.labels.alertname)).toEqual([...names.map(() => 'SchedulerStalled'), 'StatusStoreUnreadable']);
    expect(result.outgoing.filter((o) => o.alert.labels.alertname === 'SchedulerStalled').every((o) => o.alert.endsAt > t1)).toBe(true);
    expect([...result.records.keys()].filter((k) => k.startsWith('SchedulerUnknown/'))).toEqual([]);
    expect(result.outgoing.at(-1)!.alert.annotations.summary).toBe('the status store cannot be read since 12:00:00Z; every scheduler reads unknown');
  });
});

describe('held records', () => {
  it('given a firing alert of a scheduler missing from this read, then it is held (unknown), never resolved by omission', () => {
    const on = modes([['SchedulerStalled', null, 'on']]);
    const first = round([stalled('gone')], { modes: on });
    const next = round([], { modes: on, previous: first.records, now: later(2 * MIN) });
    expect(next.records.get('SchedulerStalled/gone')?.state.kind).toBe('firing');
    expect(next.outgoing.map((o) => o.key)).toEqual(['SchedulerStalled/gone']); // re-sent: still firing
  });

  it('given a record of a rule no longer in the catalogue, then it is dropped', () => {
    const previous = new Map<string, AlertRecord>([['RetiredRule/a', { state: { kind: 'pending', activeAt: NOW }, summary: null, sent: null }]]);
    expect(round([], { previous }).records.has('RetiredRule/a')).toBe(false);
  });

  it('parseAlertKey splits at the first slash only', () => {
    expect(parseAlertKey('SchedulerStalled/team/a')).toEqual({ rule: 'SchedulerStalled', scheduler: 'team/a' });
    expect(parseAlertKey('Watchdog')).toEqual({ rule: 'Watchdog', scheduler: null });
    expect(parseAlertKey('Watchdog/a')).toBeNull();
    expect(parseAlertKey('SchedulerStalled')).toBeNull();
  });
});

describe('StaleWritesRejected', () => {
  it('given a rejection in the window, then its summary says when', () => {
    const e = { ...schedulerEvidence(healthy('a')), lastRejectionAt: ago(30 * SEC) };
    const result = evaluateRound({
      now: NOW,
      service: readable,
      schedulers: [e],
      modes: modes([['StaleWritesRejected', null, 'on']]),
      previous: new Map(),
      config: ZERO_FOR,
    });
    expect(result.outgoing.map((o) => [o.key, o.alert.annotations.summary])).toEqual([
      ['StaleWritesRejected/a', 'a: the fence rejected a stale write at 11:59:30Z (30 s ago)'],
    ]);
  });
});

describe('a new evaluator (after a takeover or restart) re-sends what Alertmanager may hold', () => {
  const on = modes([['SchedulerStalled', null, 'on']]);
  const first = round([stalled('retention-planner'), healthy('index-compaction')], { modes: on });
  const clock = { now: later(10 * SEC), resendEveryMs: ZERO_FOR.resendEveryMs, evaluateEveryMs: ZERO_FOR.evaluateEveryMs };

  it('given a firing alert that was sent, then it goes again as firing, with a fresh endsAt and its record’s sent mark', () => {
    const sends = reopenSends(first.records, clock, ZERO_FOR.externalUrl);
    expect(sends.map((s) => [s.key, s.sentAt])).toEqual([['SchedulerStalled/retention-planner', NOW]]);
    expect(sends[0]!.alert.startsAt).toBe(first.outgoing[0]!.alert.startsAt);
    expect(Date.parse(sends[0]!.alert.endsAt)).toBe(Date.parse(clock.now) + firingValidForMs(clock));
    expect(sends[0]!.alert.generatorURL).toBe(first.outgoing[0]!.alert.generatorURL);
  });

  it('given it was resolved since, then it goes again as resolved, ending at its resolution', () => {
    // keepFiringFor (5 min) holds it firing through the first false evaluation; it resolves once that passed.
    const held = round([healthy('retention-planner')], { modes: on, previous: first.records, now: later(5 * SEC) });
    const resolvedAt = later(5 * SEC + 5 * MIN);
    const second = round([healthy('retention-planner')], { modes: on, previous: held.records, now: resolvedAt });
    const [send] = reopenSends(second.records, { ...clock, now: later(6 * MIN) }, ZERO_FOR.externalUrl);
    expect(send!.alert.endsAt).toBe(resolvedAt);
    expect(send!.sentAt).toBe(resolvedAt);
  });

  it('given alerts never sent (shadow), then nothing', () => {
    const shadow = round([stalled('retention-planner')]);
    expect([...shadow.records.keys()]).toContain('SchedulerStalled/retention-planner');
    expect(reopenSends(shadow.records, clock, ZERO_FOR.externalUrl)).toEqual([]);
  });
});

describe('a stalled scheduler in a maintenance window, under a rule that is on', () => {
  const on = modes([['SchedulerStalled', null, 'on']]);
  const window = { window: 7, reason: 'database upgrade', by: 'ops', until: later(10 * MIN) };
  const inWindow = (previous: Map<string, AlertRecord>, now = NOW, suppressed = true) =>
    evaluateRound({
      now,
      service: readable,
      schedulers: [schedulerEvidence(stalled('retention-planner', now))],
      modes: on,
      previous,
      config: ZERO_FOR,
      suppressed: new Map(suppressed ? [['retention-planner', window]] : []),
    });

  it('then it fires as ever (the alert is shown) but nothing goes out, and the transition is recorded as shadow', () => {
    const result = inWindow(new Map());
    expect(result.records.get('SchedulerStalled/retention-planner')?.state.kind).toBe('firing');
    expect(result.records.get('SchedulerStalled/retention-planner')?.sent).toBeNull();
    expect(result.outgoing).toEqual([]);
    expect(result.transitions.filter((t) => t.scheduler !== null)).toEqual([
      expect.objectContaining({ rule: 'SchedulerStalled', to: 'firing', mode: 'shadow' }),
    ]);
  });

  it('then, once the window closes, the next round delivers it at once', () => {
    const during = inWindow(new Map());
    const after = inWindow(during.records, later(5 * SEC), false);
    expect(after.outgoing.map((o) => [o.key, o.alert.endsAt > later(5 * SEC)])).toEqual([['SchedulerStalled/retention-planner', true]]);
  });

  it('then an alert already firing at Alertmanager when the window opens is withdrawn (sent resolved), not left paging', () => {
    const before = round([stalled('retention-planner')], { modes: on });
    const during = inWindow(before.records, later(5 * SEC));
    expect(during.outgoing).toHaveLength(1);
    expect(during.outgoing[0]!.alert.endsAt).toBe(later(5 * SEC));
  });

  it('then a rule in shadow or off stays so: a window never turns delivery on', () => {
    const result = evaluateRound({
      now: NOW,
      service: readable,
      schedulers: [schedulerEvidence(stalled('retention-planner'))],
      modes: modes([['SchedulerStalled', null, 'off']]),
      previous: new Map(),
      config: ZERO_FOR,
      suppressed: new Map([['retention-planner', window]]),
    });
    expect(result.records.has('SchedulerStalled/retention-planner')).toBe(false);
    expect(result.outgoing.filter((o) => o.key !== 'Watchdog')).toEqual([]);
  });
});

describe('a stalled scheduler with a team', () => {
  it('then its alert carries the team as a label and the owner contact and runbook as annotations; the reopen sends the same labels', () => {
    const result = evaluateRound({
      now: NOW,
      service: readable,
      schedulers: [schedulerEvidence(stalled('retention-planner'))],
      modes: modes([['SchedulerStalled', null, 'on']]),
      previous: new Map(),
      config: ZERO_FOR,
      routing: new Map([['retention-planner', { team: 'payments', contact: '#payments-oncall', runbook: 'https://wiki.example/payments' }]]),
    });
    const { alert } = result.outgoing[0]!;
    expect(alert.labels).toEqual({ alertname: 'SchedulerStalled', scheduler: 'retention-planner', severity: 'critical', team: 'payments' });
    expect(alert.annotations).toMatchObject({ contact: '#payments-oncall', runbook: 'https://wiki.example/payments' });
    const routing = new Map([['retention-planner', { team: 'payments', contact: null, runbook: null }]]);
    const reopened = reopenSends(result.records, { now: NOW, resendEveryMs: 60 * SEC, evaluateEveryMs: SEC }, 'https://ops.example/leaseboard/', routing);
    expect(reopened[0]!.alert.labels).toEqual(alert.labels);
  });
});
