// Alerts as the status API shows them, on real PostgreSQL: a scheduler's
// alert goes pending, then fires and is delivered — written by the
// evaluator's own statements (lib/jobs/alert-evaluator/write.ts) under a
// fence — and the detail (live and as of an instant), the history's alert
// spans and GET /api/v1/alerts say so, with the mode in force.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { changeAlertMode } from '../../alerts/store/modes';
import { fenceFor, writeFenced } from '../../lease';
import { roundStatements } from '../../jobs/alert-evaluator/write';
import { quietPlan, type RoundPlan } from '../../jobs/alert-evaluator/plan';
import { toIso } from '../../status/time';
import { dbNow } from '../testing/scenario';
import { acquire, register, reporter, serviceOn } from '../testing/seed';
import { answersOf } from '../testing/answers';

const AM = 'http://alertmanager.test:9093';

const plan = (over: Partial<RoundPlan>): RoundPlan => quietPlan(over);

const row = (scheduler: string, over: Partial<RoundPlan['upserts'][number]>): RoundPlan['upserts'][number] => ({
  rule: 'SchedulerStalled',
  scheduler,
  state: 'pending',
  activeAt: null,
  firedAt: null,
  keepFiringSince: null,
  resolvedAt: null,
  summary: `${scheduler}: occurrence … last advanced 5 min ago > stall threshold 1 min`,
  sentAt: null,
  sentAs: null,
  deliveredSentAt: null,
  ...over,
});

describe('alerts in the status API (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool, 2_000, { alertmanagerUrl: AM });
  const name = uniqueLease('alerts-view');
  let pendingAt = 0;
  let firingAt = 0;

  beforeAll(async () => {
    await register(pool, name);
    await reporter(pool, await acquire(pool, name)).report(`${name}@2026-01-01T00:00:00Z`, 1);
    const evaluator = await acquire(pool, uniqueLease('evaluator'), 60_000);
    const write = async (p: RoundPlan) => {
      const result = await writeFenced(pool, fenceFor(evaluator), (w) => roundStatements(w, p));
      expect(result.kind).toBe('written');
    };
    await changeAlertMode(pool, { rule: 'SchedulerStalled', scheduler: name, mode: 'on', by: 'carol', reason: 'page on stalls' });
    pendingAt = await dbNow(pool);
    const t1 = toIso(pendingAt);
    await write(
      plan({
        now: t1,
        upserts: [row(name, { activeAt: t1 })],
        transitions: [{ rule: 'SchedulerStalled', scheduler: name, from: 'inactive', to: 'pending', at: t1, mode: 'on' }],
      }),
    );
    // Firing at a later instant than pending, on the database clock.
    firingAt = await vi.waitFor(async () => {
      const ms = await dbNow(pool);
      if (ms <= pendingAt) throw new Error('the database clock is still at the pending instant');
      return ms;
    });
    const t2 = toIso(firingAt);
    await write(
      plan({
        now: t2,
        upserts: [row(name, { state: 'firing', activeAt: t1, firedAt: t2, sentAt: t2, sentAs: 'firing' })],
        transitions: [{ rule: 'SchedulerStalled', scheduler: name, from: 'pending', to: 'firing', at: t2, mode: 'on' }],
      }),
    );
    // Alertmanager accepted it: the next round stores that.
    await write(plan({ now: t2, delivered: [{ rule: 'SchedulerStalled', scheduler: name, sentAt: t2 }] }));
  });

  it('the detail lists the live alert: its mode in force, what was delivered, a prefilled silence link', async () => {
    const detail = await answersOf(service).detail(name);
    if (!detail.ok) throw new Error(detail.error.message);
    expect(detail.value.alerts).toEqual([
      {
        rule: 'SchedulerStalled',
        state: 'firing',
        mode: 'on',
        since: toIso(firingAt),
        activeAt: toIso(pendingAt),
        firedAt: toIso(firingAt),
        summary: expect.stringContaining(name),
        delivery: { as: 'firing', sentAt: toIso(firingAt), delivered: true },
        silenceUrl: `${AM}/#/silences/new?filter=${encodeURIComponent(`{alertname="SchedulerStalled", scheduler="${name}"}`)}`,
      },
    ]);
  });

  it('as of an instant, the detail says which alerts were pending or firing then', async () => {
    const at = async (ms: number) => {
      const r = await answersOf(service).detail(name, toIso(ms));
      if (!r.ok) throw new Error(r.error.message);
      return r.value.alerts.map((a) => [a.rule, a.state, a.mode, a.since]);
    };
    expect(await at(pendingAt - 1)).toEqual([]);
    expect(await at(pendingAt + 1)).toEqual([['SchedulerStalled', 'pending', 'on', toIso(pendingAt)]]);
    expect(await at(firingAt)).toEqual([['SchedulerStalled', 'firing', 'on', toIso(firingAt)]]);
  });

  it('the history shows the alert spans, the last one open', async () => {
    const h = await answersOf(service).history(name, toIso(pendingAt - 60_000));
    if (!h.ok) throw new Error(h.error.message);
    expect(h.value.alerts).toEqual([
      { rule: 'SchedulerStalled', state: 'pending', from: toIso(pendingAt), to: toIso(firingAt), mode: 'on' },
      { rule: 'SchedulerStalled', state: 'firing', from: toIso(firingAt), to: null, mode: 'on' },
    ]);
  });

  it('GET /api/v1/alerts counts it as firing under its rule, lists it and the override', async () => {
    const r = await answersOf(service).alerts(2_000);
    if (!r.ok) throw new Error(r.error.message);
    const body = r.value;
    expect(body.alerts.find((a) => a.scheduler === name)).toMatchObject({ rule: 'SchedulerStalled', state: 'firing', mode: 'on', severity: 'critical' });
    expect(body.rules.find((x) => x.rule === 'SchedulerStalled')?.counts.firing).toBeGreaterThanOrEqual(1);
    expect(body.rules.find((x) => x.rule === 'SchedulerStalled')).toMatchObject({ mode: 'shadow', setting: null, scope: 'scheduler' });
    expect(body.overrides).toContainEqual(expect.objectContaining({ rule: 'SchedulerStalled', scheduler: name, mode: 'on', by: 'carol' }));
    expect(body.counts.firing).toBeGreaterThanOrEqual(1);
    expect(body.delivery.alertmanagerUrl).toBe(AM);
    const countsOnly = await answersOf(service).alerts(0);
    expect(countsOnly.ok && countsOnly.value).toMatchObject({ alerts: [], counts: body.counts });
  });
});
