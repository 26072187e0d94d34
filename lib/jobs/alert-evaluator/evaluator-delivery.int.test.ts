// The alert evaluator end to end, with real processes: scheduler processes
// whose faults are real signals, evaluator processes (`npm run scheduler --
// --job leaseboard-alerts`) under their lease, a REAL Alertmanager (Debian
// `prometheus-alertmanager`, loopback, clustering off) and a local webhook
// receiver standing in for the pager. Timings are short (for 2 s, evaluation
// every second); every wait is on an event or a stored fact, never a sleep.
// The shared setup is ./testing/evaluator-fixture.ts; the evaluator's tests
// are three files so that the tier's workers can share them out:
// this one is about what is delivered when Alertmanager is down, when the
// round's write is refused, and when the status store cannot be read.
import { describe, expect, it } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease } from '../../../db/testing/pools';
import { parseAlertConfig } from '../../alerts';
import { changeAlertMode } from '../../alerts/store/modes';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../../lease';
import { createPool, createReadOnlyPool, defineJob, fencedStep, schedulerConfig, SchedulerRuntime, type FencedStep } from '../../scheduler';
import type { RuntimeEvent } from '../../scheduler';
import { poll } from '../../scheduler/testing/fixtures';
import { factsSql } from '../../server/live/facts-sql';
import { ALERT_EVALUATOR_JOB, alertEvaluatorJob } from './index';
import type { RoundData, RoundPlan } from './plan';
import { ALERT_ENV, POLL, useEvaluatorFixture } from './testing/evaluator-fixture';

describe('the alert evaluator with a real Alertmanager', () => {
  const { pool, env, evaluator, scheduler, setMode, stateOf, untilNotified, moreRounds } = useEvaluatorFixture();

  it('Alertmanager stopped: delivery retries with backoff, evaluation goes on; back: delivery resumes', async () => {
    const name = uniqueLease('am-down');
    const s = await scheduler(name);
    await setMode('SchedulerStalled', name, 'on');
    const e = evaluator('E1');
    await e.waitFor((line) => line.event === 'acquired', POLL);
    await env.am.stop();
    try {
      s.signal('SIGUSR1');
      const firing = await poll(
        () => stateOf('SchedulerStalled', name),
        (row) => row?.state === 'firing' && row.sent_as === 'firing',
        POLL,
      );
      expect(firing?.delivered).toBe(false);
      const failing = await poll(
        async () => (await pool.query('SELECT queue_depth, consecutive_failures, last_error FROM alert_delivery')).rows[0],
        (row) => row !== undefined && row.consecutive_failures >= 2,
        POLL,
      );
      expect(failing).toMatchObject({ last_error: 'connection refused' });
      expect(failing!.queue_depth).toBeGreaterThanOrEqual(1);
      // Evaluation goes on meanwhile: rounds complete, and a new fact (the scheduler recovers) is judged at once.
      await moreRounds(e, 2);
      s.signal('SIGUSR1');
      await poll(
        () => stateOf('SchedulerStalled', name),
        (row) => row?.state === 'resolved',
        POLL,
      );
      s.signal('SIGUSR1');
      await poll(
        () => stateOf('SchedulerStalled', name),
        (row) => row?.state === 'firing',
        POLL,
      );
    } finally {
      await env.am.start();
    }
    await untilNotified(name, 'SchedulerStalled', 'firing');
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.delivered === true,
      POLL,
    );
    await poll(
      async () => (await pool.query('SELECT queue_depth, consecutive_failures FROM alert_delivery')).rows[0],
      (row) => row?.consecutive_failures === 0 && row.queue_depth === 0,
      POLL,
    );
  });
});

describe('a round whose write the database refuses delivers nothing', () => {
  const { pool, spawn, env } = useEvaluatorFixture();

  it('the first round that would page is paused before its write while another holder takes the lease: refused, and never sent', async () => {
    const name = uniqueLease('refused');
    const s = spawn(name, 'A');
    await s.waitFor((line) => line.event === 'occurrence_started', POLL);
    await changeAlertMode(pool, { rule: 'SchedulerStalled', scheduler: name, mode: 'on', by: 'tester', reason: 'refused round' });
    const config = parseAlertConfig({ ...ALERT_ENV, ALERTMANAGER_URL: env.am.url });
    const real = alertEvaluatorJob({ config }).steps[0] as FencedStep<RoundData, RoundPlan>;
    // The real step, watched: which round first plans to page for this scheduler.
    let paging: RoundPlan | null = null;
    let refusedPlan: RoundPlan | null = null;
    const step = fencedStep({
      ...real,
      plan: (data: RoundData, input) => {
        const plan = real.plan(data, input);
        paging = plan.outgoing.some((o) => o.alert.labels.scheduler === name && o.alert.labels.alertname === 'SchedulerStalled') ? plan : null;
        return plan;
      },
    });
    const job = defineJob({ ...alertEvaluatorJob({ config }), steps: [step] });
    const db = createPool(databaseUrl(), { applicationName: 'leaseboard-test-evaluator' });
    const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-evaluator' });
    const authority = new LeaseAuthority(pool);
    const intruder = newInstanceToken();
    const events: RuntimeEvent[] = [];
    // Before every write: let it go, unless this round pages — then another holder takes the lease first.
    const pause = async () => {
      if (paging === null) return runtime.armPauseBefore('write');
      refusedPlan = paging;
      await forceExpire(pool, ALERT_EVALUATOR_JOB);
      const taken = await authority.acquire(leaseTerms({ name: ALERT_EVALUATOR_JOB, ttlMs: 60_000 }), intruder);
      expect(taken.kind).toBe('acquired');
    };
    const runtime: SchedulerRuntime = new SchedulerRuntime(
      job,
      schedulerConfig({ name: ALERT_EVALUATOR_JOB, batchWorkMs: 0, ttlMs: 3_000, renewEveryMs: 1_000, renewDeadlineMs: 2_000, safetyMarginMs: 500 }),
      {
        db,
        readDb,
        pause,
        onEvent: (event) => events.push(event),
      },
    );
    try {
      runtime.start();
      await poll(async () => events.some((e) => e.event === 'acquired'), Boolean, POLL);
      runtime.armPauseBefore('write');
      s.signal('SIGUSR1');
      await poll(
        async () => events.find((e) => e.event === 'write_rejected') ?? null,
        (e) => e !== null,
        POLL,
      );
      const refused = refusedPlan as RoundPlan | null;
      expect(refused?.outgoing.map((o) => o.key)).toContain(`SchedulerStalled/${name}`);
      // The intruder leaves; the evaluator takes the lease again, judges anew and pages — once, from its committed round.
      const held = await authority.release({
        name: ALERT_EVALUATOR_JOB,
        holder: intruder,
        epoch: (await pool.query('SELECT epoch::int FROM leases WHERE name = $1', [ALERT_EVALUATOR_JOB])).rows[0].epoch,
      });
      expect(held.kind).toBe('released');
      await poll(
        async () => env.am.webhook.alerts().filter((a) => a.labels.scheduler === name && a.status === 'firing'),
        (alerts) => alerts.length > 0,
        POLL,
      );
      const [page] = env.am.webhook.alerts().filter((a) => a.labels.scheduler === name && a.status === 'firing');
      const stored = await pool.query<{ fired_at: string }>(
        `SELECT to_char(fired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS fired_at FROM alert_state WHERE rule = 'SchedulerStalled' AND scheduler = $1`,
        [name],
      );
      const refusedSend = refused!.outgoing.find((o) => o.key === `SchedulerStalled/${name}`)!;
      expect(Date.parse(page!.startsAt)).toBe(Date.parse(stored.rows[0]!.fired_at)); // the committed round's firing
      expect(Date.parse(page!.startsAt)).toBeGreaterThan(Date.parse(refusedSend.alert.startsAt)); // not the refused one's
      expect(env.am.webhook.alerts().filter((a) => a.labels.scheduler === name && a.status === 'firing')).toHaveLength(1);
    } finally {
      await runtime.stop();
      await job.close?.();
      await Promise.all([db.end(), readDb.end()]);
    }
  });

  it('the status read times out while the store still takes writes: StatusStoreUnreadable fires, and it alone — every scheduler rule holds', async () => {
    const name = uniqueLease('unreadable');
    const s = spawn(name, 'A');
    await s.waitFor((line) => line.event === 'occurrence_started', POLL);
    await changeAlertMode(pool, { rule: 'SchedulerUnknown', scheduler: name, mode: 'on', by: 'tester', reason: 'unreadable store' });
    const config = parseAlertConfig({ ...ALERT_ENV, ALERTMANAGER_URL: env.am.url });
    const job = alertEvaluatorJob({ config, readTimeoutMs: 300 });
    const db = createPool(databaseUrl(), { applicationName: 'leaseboard-test-evaluator' });
    const real = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-evaluator' });
    // The status read (the full or the incremental facts statement) becomes slower than the evaluator's read deadline; nothing else changes.
    let slow = false;
    const statusReads = new Set([factsSql('all'), factsSql('changed')]);
    const query = ((config: { text?: string }, ...rest: unknown[]) =>
      slow && statusReads.has(config?.text ?? '')
        ? new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => (real.query as (...args: unknown[]) => unknown)(config, ...rest))
        : (real.query as (...args: unknown[]) => unknown)(config, ...rest)) as typeof real.query;
    const readDb = { readOnly: true as const, query, end: () => real.end() };
    const events: RuntimeEvent[] = [];
    const runtime = new SchedulerRuntime(job, schedulerConfig({ name: ALERT_EVALUATOR_JOB, batchWorkMs: 0 }), { db, readDb, onEvent: (e) => events.push(e) });
    const stateOf = async (rule: string, scheduler: string | null) =>
      (await pool.query<{ state: string }>('SELECT state FROM alert_state WHERE rule = $1 AND scheduler IS NOT DISTINCT FROM $2', [rule, scheduler])).rows[0]
        ?.state ?? null;
    try {
      runtime.start();
      const completed = () => events.filter((e) => e.event === 'occurrence_completed').length;
      await poll(
        async () => completed(),
        (n) => n >= 2,
        POLL,
      ); // rounds that read the store: the scheduler is known
      s.signal('SIGUSR2'); // its reports stop: were the store read, SchedulerUnknown would go pending within seconds
      slow = true;
      await poll(
        () => stateOf('StatusStoreUnreadable', null),
        (state) => state === 'firing',
        POLL,
      );
      const after = completed();
      await poll(
        async () => completed(),
        (n) => n >= after + 4,
        POLL,
      );
      expect(await stateOf('SchedulerUnknown', name)).toBeNull(); // held: unknown evidence of an unreadable store fires nothing
      slow = false;
      await poll(
        () => stateOf('StatusStoreUnreadable', null),
        (state) => state !== 'firing',
        POLL,
      );
      await poll(
        () => stateOf('SchedulerUnknown', name),
        (state) => state === 'pending' || state === 'firing',
        POLL,
      );
    } finally {
      await runtime.stop();
      await job.close?.();
      await Promise.all([db.end(), readDb.end()]);
    }
  });
});
