// The alert evaluator end to end, with real processes: scheduler processes
// whose faults are real signals, evaluator processes (`npm run scheduler --
// --job leaseboard-alerts`) under their lease, a REAL Alertmanager (Debian
// `prometheus-alertmanager`, loopback, clustering off) and a local webhook
// receiver standing in for the pager. Timings are short (for 2 s, evaluation
// every second); every wait is on an event or a stored fact, never a sleep.
// The shared setup is ./testing/evaluator-fixture.ts; the evaluator's tests
// are three files so that the tier's workers can share them out:
// this one changes holders: restarts, takeovers, pruning, a paused evaluator.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { alertEvents } from '../../../db/schema';
import { databaseUrl, uniqueLease } from '../../../db/testing/pools';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../../lease';
import { poll } from '../../scheduler/testing/fixtures';
import { ALERT_EVALUATOR_JOB } from './index';
import { POLL, useEvaluatorFixture } from './testing/evaluator-fixture';

describe('the alert evaluator with a real Alertmanager', () => {
  const { pool, env, evaluator, scheduler, setMode, stateOf, eventsOf, notified, untilNotified, moreRounds } = useEvaluatorFixture();

  it('a mode change is audited and survives restarts, takeovers and pruning', async () => {
    const name = uniqueLease('modes');
    const s = await scheduler(name);
    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(process.cwd(), 'scripts/alerts.ts'),
        'mode',
        '--rule',
        'SchedulerStalled',
        '--scheduler',
        name,
        '--mode',
        'on',
        '--by',
        'carol',
        '--reason',
        'page on stalls',
      ],
      { env: { ...process.env, DATABASE_URL: databaseUrl() }, encoding: 'utf8' },
    );
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ rule: 'SchedulerStalled', scheduler: name, mode: 'on', by: 'carol', from: 'shadow (inherited)' });
    const audit = () => pool.query('SELECT rule, scheduler, from_mode, from_effective, to_mode, by, reason FROM alert_mode_audit WHERE scheduler = $1', [name]);
    const modes = () => pool.query('SELECT rule, scheduler, mode, by, reason, at FROM alert_modes WHERE scheduler = $1', [name]);
    const audited = (await audit()).rows;
    expect(audited).toEqual([
      { rule: 'SchedulerStalled', scheduler: name, from_mode: null, from_effective: 'shadow', to_mode: 'on', by: 'carol', reason: 'page on stalls' },
    ]);
    const set = (await modes()).rows;

    const e1 = evaluator('E1');
    await e1.waitFor((line) => line.event === 'acquired', POLL);
    s.signal('SIGUSR1');
    await untilNotified(name, 'SchedulerStalled', 'firing');

    // Restart: E1 stops (releasing its lease), E2 starts and holds the same mode.
    await e1.stop();
    const e2 = evaluator('E2');
    const second = await e2.waitFor((line) => line.event === 'acquired', POLL);
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.epoch === Number(second.epoch) && row.sent_as === 'firing',
      POLL,
    );
    // Takeover: E2 crashes, E3 (standing by) takes over after the ttl.
    const e3 = evaluator('E3');
    await e3.waitFor((line) => line.event === 'held', POLL);
    e2.signal('SIGKILL');
    const third = await e3.waitFor((line) => line.event === 'acquired', POLL);
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.epoch === Number(third.epoch) && row.sent_as === 'firing',
      POLL,
    );
    // Pruning: the retention job deletes alert history under its own fence; modes and their audit are not history.
    const authority = new LeaseAuthority(pool);
    const pruner = uniqueLease('pruner');
    const grant = await authority.acquire(leaseTerms({ name: pruner, ttlMs: 15_000 }), newInstanceToken());
    if (grant.kind !== 'acquired') throw new Error(grant.kind);
    const pruned = await writeFenced(pool, fenceFor({ name: pruner, epoch: grant.epoch }), (w) => [w.delete(alertEvents, sql`true`)]);
    expect(pruned.kind).toBe('written');
    expect((await modes()).rows).toEqual(set);
    expect((await audit()).rows).toEqual(audited);

    // Still `on` under the third holder: the resolution is delivered, and nothing was paged twice.
    s.signal('SIGUSR1');
    await untilNotified(name, 'SchedulerStalled', 'resolved');
    expect(notified(name, 'SchedulerStalled', 'firing')).toHaveLength(1);
    // The stall's own last transition: on a loaded machine another rule (an observation gap's SchedulerUnknown) may move after it.
    const stalled = (await eventsOf(name)).filter((event) => event.rule === 'SchedulerStalled');
    expect(stalled.at(-1)).toMatchObject({ rule: 'SchedulerStalled', to: 'resolved', mode: 'on', epoch: Number(third.epoch) });
  });

  it('an evaluator paused with SIGSTOP mid-round: the other instance takes over, the stale write is refused, nothing is paged twice', async () => {
    const name = uniqueLease('sigstop');
    const s = await scheduler(name);
    await setMode('SchedulerStalled', name, 'on');
    const e1 = evaluator('E1');
    const first = await e1.waitFor((line) => line.event === 'acquired', POLL);
    const e2 = evaluator('E2');
    await e2.waitFor((line) => line.event === 'held', POLL);
    s.signal('SIGUSR1');
    await untilNotified(name, 'SchedulerStalled', 'firing');

    // E1 stops itself (SIGSTOP) between its round's plan and its write, past its ttl.
    await e1.pauseMidWrite('write', async () => {
      await e2.waitFor((line) => line.event === 'acquired' && line.epoch === Number(first.epoch) + 1, POLL);
      // The new holder re-sends what Alertmanager holds (deduplicated); then the scheduler recovers.
      await poll(
        () => stateOf('SchedulerStalled', name),
        (row) => row?.epoch === Number(first.epoch) + 1,
        POLL,
      );
      s.signal('SIGUSR1');
      await untilNotified(name, 'SchedulerStalled', 'resolved');
    });
    const rejected = await e1.waitFor((line) => line.event === 'write_rejected', POLL);
    expect(rejected).toMatchObject({ epoch: Number(first.epoch), currentEpoch: Number(first.epoch) + 1 });
    const logged = await pool.query('SELECT attempted_epoch::int, current_epoch::int FROM stale_write_rejections WHERE lease = $1 AND attempted_epoch = $2', [
      ALERT_EVALUATOR_JOB,
      Number(first.epoch),
    ]);
    expect(logged.rows).toContainEqual({ attempted_epoch: Number(first.epoch), current_epoch: Number(first.epoch) + 1 });

    // A few more rounds of the new holder: one page, one resolution — the stale evaluator reopened nothing.
    await moreRounds(e2, 3);
    expect(notified(name, 'SchedulerStalled', 'firing')).toHaveLength(1);
    expect(notified(name, 'SchedulerStalled', 'resolved')).toHaveLength(1);
    expect((await env.am.alerts()).filter((a) => a.labels.scheduler === name)).toEqual([]); // resolved at Alertmanager
  });
});
