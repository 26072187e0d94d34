// The alert evaluator end to end, with real processes: scheduler processes
// whose faults are real signals, evaluator processes (`npm run scheduler --
// --job leaseboard-alerts`) under their lease, a REAL Alertmanager (Debian
// `prometheus-alertmanager`, loopback, clustering off) and a local webhook
// receiver standing in for the pager. Timings are short (for 2 s, evaluation
// every second); every wait is on an event or a stored fact, never a sleep.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertEvents } from '../../../db/schema';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { parseAlertConfig } from '../../alerts';
import { startLocalAlertmanager, type LocalAlertmanager } from '../../alerts/local/alertmanager';
import { changeAlertMode } from '../../alerts/store/modes';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../../lease';
import { createPool, createReadOnlyPool, defineJob, fencedStep, schedulerConfig, SchedulerRuntime, type FencedStep } from '../../scheduler';
import type { RuntimeEvent } from '../../scheduler';
import { poll, useSchedulers } from '../../scheduler/testing/fixtures';
import { serviceOn } from '../../server/testing/seed';
import { seedDocuments } from '../demo/retention-planner/documents';
import { ALERT_EVALUATOR_JOB, alertEvaluatorJob } from './index';
import type { RoundData, RoundPlan } from './plan';
import { answersOf } from '../../server/testing/answers';

const EXTERNAL = 'http://dashboard.test/leaseboard';
/** Alert settings shared by every evaluator here (what the environment would say). */
const ALERT_ENV = {
  LEASEBOARD_EXTERNAL_URL: EXTERNAL,
  LEASEBOARD_ALERT_EVALUATE_EVERY_MS: '1000',
  LEASEBOARD_ALERT_RESEND_EVERY_MS: '5000',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_FOR_MS: '2000',
  LEASEBOARD_ALERT_SCHEDULER_STALLED_KEEP_FIRING_FOR_MS: '0',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR_MS: '2000',
  LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_KEEP_FIRING_FOR_MS: '0',
  LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR_MS: '0',
};
/** The evaluator's own lease timings: a takeover within about 3 s. */
const EVALUATOR_FLAGS = { every: 1_000, 'batch-work': 0, ttl: 3_000, 'renew-every': 1_000, 'renew-deadline': 2_000, 'safety-margin': 500 };
const POLL = 30_000;

/** Per describe: documents for the schedulers to plan over, and a real Alertmanager on loopback, closed after its tests. */
function useAlertEnvironment(pool: pg.Pool): { readonly am: LocalAlertmanager } {
  let am: LocalAlertmanager | null = null;
  beforeAll(async () => {
    await seedDocuments(pool, 20_000);
    const started = await startLocalAlertmanager();
    if (started.kind === 'missing') throw new Error(started.hint);
    am = started.am;
  });
  afterAll(() => am?.close());
  return {
    get am() {
      if (am === null) throw new Error('the Alertmanager has not started');
      return am;
    },
  };
}

describe('the alert evaluator with a real Alertmanager', () => {
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);
  const env = useAlertEnvironment(pool);

  const evaluator = (label: string) =>
    spawn(ALERT_EVALUATOR_JOB, label, EVALUATOR_FLAGS, { job: ALERT_EVALUATOR_JOB, env: { ...ALERT_ENV, ALERTMANAGER_URL: env.am.url } });
  /** A retention planner with an occurrence in flight (400 batches of 50 documents, 400 ms each). */
  const scheduler = async (name: string) => {
    const s = spawn(name, 'A');
    await s.waitFor((line) => line.event === 'occurrence_started', POLL);
    return s;
  };
  const setMode = (rule: 'SchedulerStalled' | 'SchedulerUnknown', scheduler: string, mode: 'on' | 'shadow' | 'off', reason = 'integration test') =>
    changeAlertMode(pool, { rule, scheduler, mode, by: 'tester', reason }, { mustExist: true });

  const stateOf = async (rule: string, scheduler: string) => {
    const { rows } = await pool.query<{
      state: string;
      fired_at: string | null;
      sent_at: string | null;
      sent_as: string | null;
      delivered: boolean;
      epoch: number;
    }>(
      `SELECT state, to_char(fired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS fired_at, sent_at::text, sent_as,
              delivered_sent_at IS NOT NULL AND delivered_sent_at = sent_at AS delivered, epoch::int
       FROM alert_state WHERE rule = $1 AND scheduler = $2`,
      [rule, scheduler],
    );
    return rows[0] ?? null;
  };
  const eventsOf = async (scheduler: string) =>
    (
      await pool.query<{ rule: string; from: string; to: string; mode: string; epoch: number }>(
        'SELECT rule, from_state AS from, to_state AS to, mode, epoch::int FROM alert_events WHERE scheduler = $1 ORDER BY id',
        [scheduler],
      )
    ).rows;
  const notified = (scheduler: string, alertname: string, status: 'firing' | 'resolved') =>
    env.am.webhook.alerts().filter((a) => a.labels.scheduler === scheduler && a.labels.alertname === alertname && a.status === status);
  const roundsOf = (process: { lines: { event: string }[] }) => process.lines.filter((line) => line.event === 'occurrence_completed').length;
  /** Resolves once `process` has completed `n` more rounds. */
  const moreRounds = async (process: { lines: { event: string }[] }, n: number) => {
    const target = roundsOf(process) + n;
    await poll(
      async () => roundsOf(process),
      (count) => count >= target,
      POLL,
    );
  };

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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'firing'),
      (alerts) => alerts.length > 0,
      POLL,
    );
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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'resolved'),
      (alerts) => alerts.length > 0,
      POLL,
    );
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
    await poll(
      () => stateOf('SchedulerStalled', name),
      (row) => row?.state === 'firing',
      POLL,
    );
    await moreRounds(e, 3);
    expect(await stateOf('SchedulerStalled', name)).toMatchObject({ state: 'firing', sent_at: null, sent_as: null });
    expect(notified(name, 'SchedulerStalled', 'firing')).toEqual([]);
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
    await poll(
      async () => notified(name, 'SchedulerUnknown', 'firing'),
      (alerts) => alerts.length > 0,
      POLL,
    );
    await moreRounds(e, 3);
    const rules = new Set((await eventsOf(name)).map((x) => x.rule));
    expect(rules).toContain('SchedulerUnknown');
    expect(rules).not.toContain('SchedulerStalled');
    expect(notified(name, 'SchedulerStalled', 'firing')).toEqual([]);
  });

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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'firing'),
      (alerts) => alerts.length > 0,
      POLL,
    );

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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'resolved'),
      (alerts) => alerts.length > 0,
      POLL,
    );
    expect(notified(name, 'SchedulerStalled', 'firing')).toHaveLength(1);
    expect((await eventsOf(name)).at(-1)).toMatchObject({ rule: 'SchedulerStalled', to: 'resolved', mode: 'on', epoch: Number(third.epoch) });
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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'firing'),
      (alerts) => alerts.length > 0,
      POLL,
    );

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
      await poll(
        async () => notified(name, 'SchedulerStalled', 'resolved'),
        (alerts) => alerts.length > 0,
        POLL,
      );
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
    await poll(
      async () => notified(name, 'SchedulerStalled', 'firing'),
      (alerts) => alerts.length > 0,
      POLL,
    );
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
  const pool = usePool();
  const spawn = useSchedulers(databaseUrl);
  const env = useAlertEnvironment(pool);

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
    const query = ((config: { name?: string }, ...rest: unknown[]) =>
      slow && (config?.name === 'status_facts_all' || config?.name === 'status_facts_changed')
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
