// The alert evaluator end to end, with real processes: scheduler processes
// whose faults are real signals, evaluator processes (`npm run scheduler --
// --job leaseboard-alerts`) under their lease, a REAL Alertmanager (Debian
// `prometheus-alertmanager`, loopback, clustering off) and a local webhook
// receiver standing in for the pager. Timings are short (for 2 s, evaluation
// every second); every wait is on an event or a stored fact, never a sleep.
// The shared setup is ./testing/evaluator-fixture.ts; the evaluator's tests
// are three files so that the tier's workers can share them out:
// this one pages (or not) by mode: on, shadow, off, and dropped reports.
import { describe, expect, it } from 'vitest';
import { uniqueLease } from '../../../db/testing/pools';
import { poll } from '../../scheduler/testing/fixtures';
import { answersOf } from '../../server/testing/answers';
import { serviceOn } from '../../server/testing/seed';
import { EXTERNAL, POLL, useEvaluatorFixture } from './testing/evaluator-fixture';

describe('the alert evaluator with a real Alertmanager', () => {
  const { pool, env, evaluator, scheduler, setMode, stateOf, eventsOf, notified, untilNotified, moreRounds, firingUndelivered } = useEvaluatorFixture();

  it('freeze progress: SchedulerStalled goes pending, then fires after `for`; delivered, its generatorURL reads stalled then; unfreeze: the resolution is delivered', async () => {
    const name = uniqueLease('stall');
    const s = await scheduler(name);
    expect((await setMode('SchedulerStalled', name, 'on')).kind).toBe('changed');
    const e = evaluator('E1');
    const acquired = await e.waitFor((line) => line.event === 'acquired', POLL);

    s.signal('SIGUSR1');
    const pending = await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.state === 'pending' || row?.state === 'firing',
      POLL,
    );
    expect(pending?.state).toBe('pending'); // `for` is 2 s, rounds every second: pending is seen first
    const firing = await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.state === 'firing',
      POLL,
    );
    await untilNotified(name, 'SchedulerStalled', 'firing');
    const [page] = notified(name, 'SchedulerStalled', 'firing');
    expect(page!.labels).toEqual({ alertname: 'SchedulerStalled', scheduler: name, severity: 'critical' });
    expect(page!.annotations.runbook_url).toBe(`${EXTERNAL}/runbooks/SchedulerStalled`);
    expect(page!.annotations.summary).toMatch(new RegExp(`^${name}: occurrence ${name}@.* last advanced .* > stall threshold 2 s`));
    expect(page!.generatorURL).toBe(`${EXTERNAL}/schedulers/${name}?at=${encodeURIComponent(firing!.fired_at!)}`);
    // The link, opened: the page as of the moment it started firing reads stalled.
    const at = new URL(page!.generatorURL).searchParams.get('at')!;
    const then = await answersOf(serviceOn(pool)).detail(name, at);
    if (!then.ok) throw new Error(then.error.message);
    expect(then.value.status.health).toBe('stalled');
    // The dashboard's "delivered": Alertmanager accepted the send, and the evaluator stored that.
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.delivered === true,
      POLL,
    );

    s.signal('SIGUSR1');
    await untilNotified(name, 'SchedulerStalled', 'resolved');
    expect(notified(name, 'SchedulerStalled', 'firing')).toHaveLength(1);
    const epoch = Number(acquired.epoch);
    expect((await eventsOf(name)).filter((x) => x.rule === 'SchedulerStalled')).toEqual([
      { rule: 'SchedulerStalled', from: 'inactive', to: 'pending', mode: 'on', epoch },
      { rule: 'SchedulerStalled', from: 'pending', to: 'firing', mode: 'on', epoch },
      { rule: 'SchedulerStalled', from: 'firing', to: 'resolved', mode: 'on', epoch },
    ]);
  });

  it('shadow: evaluated, stored and shown, never delivered; off: not evaluated (forgotten), the raw status still stalled', async () => {
    const name = uniqueLease('shadow');
    const s = await scheduler(name);
    expect((await setMode('SchedulerStalled', name, 'shadow')).kind).toBe('changed');
    const e = evaluator('E1');
    await e.waitFor((line) => line.event === 'acquired', POLL);
    s.signal('SIGUSR1');
    await firingUndelivered(e, name);
    expect((await env.am.alerts()).filter((a) => a.labels.scheduler === name)).toEqual([]); // Alertmanager's own view: nothing
    expect((await eventsOf(name)).map((x) => [x.rule, x.to, x.mode])).toContainEqual(['SchedulerStalled', 'firing', 'shadow']);

    expect((await setMode('SchedulerStalled', name, 'off')).kind).toBe('changed');
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row === null,
      POLL,
    );
    expect((await eventsOf(name)).at(-1)).toMatchObject({ rule: 'SchedulerStalled', from: 'firing', to: 'inactive', mode: 'off' });
    await moreRounds(e, 2);
    expect(await stateOf('SchedulerStalled', name)).toBeNull();
    const raw = await serviceOn(pool).list({ q: name });
    expect(raw.schedulers.map((x) => [x.name, x.health])).toEqual([[name, 'stalled']]);
    expect(notified(name, 'SchedulerStalled', 'firing')).toEqual([]);
  });

  it('dropped reports: SchedulerUnknown fires and is delivered, SchedulerStalled never even goes pending', async () => {
    const name = uniqueLease('dropped');
    const s = await scheduler(name);
    await setMode('SchedulerStalled', name, 'on');
    await setMode('SchedulerUnknown', name, 'on');
    const e = evaluator('E1');
    await e.waitFor((line) => line.event === 'acquired', POLL);
    s.signal('SIGUSR1'); // frozen too: were the reports seen, it would read stalled
    s.signal('SIGUSR2');
    await untilNotified(name, 'SchedulerUnknown', 'firing');
    await moreRounds(e, 3);
    const rules = new Set((await eventsOf(name)).map((x) => x.rule));
    expect(rules).toContain('SchedulerUnknown');
    expect(rules).not.toContain('SchedulerStalled');
    expect(notified(name, 'SchedulerStalled', 'firing')).toEqual([]);
  });
});
