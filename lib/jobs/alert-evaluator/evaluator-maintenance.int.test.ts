// The alert evaluator and a maintenance window, with real processes and a REAL
// Alertmanager (./testing/evaluator-fixture.ts): a scheduler labelled with a
// team, its SchedulerStalled rule on, a window over its team. Frozen, it
// stalls and its alert fires — recorded and shown, suppressed by the window,
// never delivered; the window is edited to close a moment later and, with no
// restart, the next rounds deliver the alert, carrying its team as a label
// and the team owner's contact and runbook as annotations.
import { describe, expect, it } from 'vitest';
import { uniqueLease } from '../../../db/testing/pools';
import { changeLabels } from '../../actions/labels';
import { createWindow, editWindow } from '../../actions/maintenance';
import { setTeamOwner } from '../../actions/owners';
import { readAlerts } from '../../server/alerts/read';
import { POLL, useEvaluatorFixture } from './testing/evaluator-fixture';

const actor = { by: 'tester', reason: 'database upgrade', identifiedBy: 'cli' as const };

describe('the alert evaluator and a maintenance window', () => {
  const { pool, env, evaluator, scheduler, setMode, eventsOf, untilNotified, firingUndelivered } = useEvaluatorFixture();

  it('skips delivery for a scheduler in the window, says why, and delivers again once the window ends, with the team routing', async () => {
    const name = uniqueLease('mw');
    const team = uniqueLease('team');
    const s = await scheduler(name);
    expect((await changeLabels(pool, name, { labels: { team }, by: 'tester', reason: 'owner' }, { identifiedBy: 'cli' })).kind).toBe('changed');
    expect((await setTeamOwner(pool, team, { contact: '#payments-oncall', runbookUrl: 'https://wiki.example/payments', ...actor })).kind).toBe('changed');
    await setMode('SchedulerStalled', name, 'on');
    const startsAtMs = Date.now() - 60_000;
    const created = await createWindow(
      pool,
      { selector: `team=${team}`, schedulers: null, startsAtMs, endsAtMs: Date.now() + 3_600_000, weekly: false },
      actor,
    );
    if (created.kind !== 'changed') throw new Error(`window not created: ${created.kind}`);
    const e = evaluator('E1');
    await e.waitFor((line) => line.event === 'acquired', POLL);

    s.signal('SIGUSR1'); // freeze progress: renewals and reports go on, the occurrence stalls
    // It fires, and several rounds later nothing was sent or paged.
    await firingUndelivered(e, name);
    expect((await eventsOf(name)).filter((t) => t.rule === 'SchedulerStalled').map((t) => [t.to, t.mode])).toEqual([
      ['pending', 'shadow'],
      ['firing', 'shadow'],
    ]);
    // The alerts answer says why: suppressed by this window.
    const alerts = await readAlerts(pool, { limit: 500, alertmanagerUrl: null });
    const entry = alerts.body.alerts.find((a) => a.scheduler === name && a.rule === 'SchedulerStalled');
    expect(entry).toMatchObject({ state: 'firing', mode: 'on', suppressedBy: { window: created.window.id, reason: 'database upgrade', by: 'tester' } });

    // The window ends (edited to close in a moment): the next rounds deliver, no restart.
    const edited = await editWindow(
      pool,
      created.window.id,
      { selector: `team=${team}`, schedulers: null, startsAtMs, endsAtMs: Date.now() + 1_000, weekly: false },
      { ...actor, reason: 'upgrade finished' },
    );
    expect(edited.kind).toBe('changed');
    const [paged] = await untilNotified(name, 'SchedulerStalled', 'firing');
    expect(paged!.labels).toMatchObject({ alertname: 'SchedulerStalled', scheduler: name, team });
    expect(paged!.annotations).toMatchObject({ contact: '#payments-oncall', runbook: 'https://wiki.example/payments' });
    expect(env.am.webhook.alerts().filter((a) => a.labels.scheduler === name && a.status === 'firing').length).toBeGreaterThan(0);
    const after = await readAlerts(pool, { limit: 500, alertmanagerUrl: null });
    expect(after.body.alerts.find((a) => a.scheduler === name && a.rule === 'SchedulerStalled')?.suppressedBy).toBeNull();
  });
});
