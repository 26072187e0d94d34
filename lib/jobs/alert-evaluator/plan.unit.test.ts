/**
 * The evaluator's plan, pure: from stored records and an evaluation round to
 * what is written — changed records upserted, forgotten ones deleted,
 * acknowledgements stored only for the send they name, each key once.
 */
import { describe, expect, it } from 'vitest';
import { modeTable, parseAlertConfig, type AlertRecord } from '../../alerts';
import type { StoredAlert } from '../../alerts/store/state';
import { planRound, type RoundData } from './plan';

const NOW = '2026-11-30T12:00:00.000Z';
const config = parseAlertConfig({ LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR: '0s', LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR: '0s' });
const on = modeTable([{ rule: 'SchedulerStalled', scheduler: null, mode: 'on', by: 'sre', reason: 'rollout', at: NOW }]);

function stored(scheduler: string, record: AlertRecord, deliveredSentAt: string | null = null): StoredAlert {
  return { key: `SchedulerStalled/${scheduler}`, rule: 'SchedulerStalled', scheduler, record, deliveredSentAt, updatedAt: NOW };
}
const evidence = (scheduler: string, health: 'stalled' | 'progressing') => ({
  scheduler,
  health,
  atRisk: false,
  storeReadable: true,
  lastRejectionAt: null,
  reasons: [],
});
function data(over: Partial<RoundData>): RoundData {
  return {
    now: NOW,
    service: { storeReadable: true, lastObservedAt: NOW },
    schedulers: [],
    modes: on,
    stored: [],
    recordedHealth: new Map(),
    acks: new Map(),
    delivery: [],
    ...over,
  };
}

const firing = (at: string): AlertRecord => ({
  state: { kind: 'firing', activeAt: at, firedAt: at, keepFiringSince: null },
  summary: 'a: stalled',
  sent: { at, as: 'firing' },
});

describe('planRound', () => {
  it('given a new stall, then its record is upserted, its transition recorded, and it is sent', () => {
    const plan = planRound(data({ schedulers: [evidence('a', 'stalled')] }), config);
    expect(plan.upserts.filter((r) => r.rule === 'SchedulerStalled')).toEqual([
      expect.objectContaining({ scheduler: 'a', state: 'firing', firedAt: NOW, sentAt: NOW, sentAs: 'firing', deliveredSentAt: null }),
    ]);
    expect(plan.transitions.filter((t) => t.rule === 'SchedulerStalled')).toEqual([
      { rule: 'SchedulerStalled', scheduler: 'a', from: 'inactive', to: 'firing', at: NOW, mode: 'on' },
    ]);
    expect(plan.outgoing.map((o) => [o.key, o.sentAt])).toEqual([['SchedulerStalled/a', NOW]]);
  });

  it('given an unchanged firing record and an acknowledgement of its send, then only the acknowledgement is written', () => {
    const earlier = '2026-11-30T11:59:58.000Z';
    const plan = planRound(
      data({ schedulers: [evidence('a', 'stalled')], stored: [stored('a', firing(earlier))], acks: new Map([['SchedulerStalled/a', earlier]]) }),
      config,
    );
    expect(plan.upserts.filter((r) => r.rule === 'SchedulerStalled')).toEqual([]);
    expect(plan.delivered).toEqual([{ rule: 'SchedulerStalled', scheduler: 'a', sentAt: earlier }]);
    expect(plan.acked).toEqual([['SchedulerStalled/a', earlier]]);
  });

  it('given an acknowledgement of an OLDER send than the stored one, then nothing is marked delivered', () => {
    const plan = planRound(
      data({
        schedulers: [evidence('a', 'stalled')],
        stored: [stored('a', firing('2026-11-30T11:59:58.000Z'))],
        acks: new Map([['SchedulerStalled/a', '2026-11-30T11:50:00.000Z']]),
      }),
      config,
    );
    expect(plan.delivered).toEqual([]);
  });

  it('given a record that resolves and one that is forgotten, then an upsert and a delete, never both for one key', () => {
    const old = '2026-11-30T11:40:00.000Z';
    const resolvedLongAgo: AlertRecord = {
      state: { kind: 'resolved', activeAt: old, firedAt: old, resolvedAt: old },
      summary: null,
      sent: { at: old, as: 'resolved' },
    };
    const plan = planRound(
      data({
        schedulers: [evidence('a', 'progressing'), evidence('b', 'progressing')],
        stored: [stored('a', firing('2026-11-30T11:59:58.000Z')), stored('b', resolvedLongAgo)],
      }),
      config,
    );
    const upserted = plan.upserts.filter((r) => r.rule === 'SchedulerStalled').map((r) => [r.scheduler, r.state]);
    expect(upserted).toEqual([['a', 'resolved']]);
    expect(plan.deletes).toEqual([{ rule: 'SchedulerStalled', scheduler: 'b' }]);
    expect(plan.outgoing.map((o) => [o.key, o.alert.endsAt])).toEqual([['SchedulerStalled/a', NOW]]);
  });

  it('given the rollup recorded a scheduler as progressing, then only changed or new schedulers are recorded', () => {
    const plan = planRound(
      data({
        schedulers: [evidence('steady', 'progressing'), evidence('froze', 'stalled'), evidence('new', 'progressing')],
        recordedHealth: new Map([
          ['steady', 'progressing'],
          ['froze', 'progressing'],
        ]),
      }),
      config,
    );
    expect(plan.healthChanges).toEqual([
      { name: 'froze', health: 'stalled' },
      { name: 'new', health: 'progressing' },
    ]);
  });
});
