// The health rollup end to end on real PostgreSQL: a real alert evaluator
// (the job, in a runtime under its lease, a round a second) records what it
// judges; the strips read draws it — nothing before a scheduler registered,
// every change the evaluator saw, the worst in the window ranked and filtered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { parseAlertConfig } from '../../alerts';
import { ALERT_EVALUATOR_JOB, alertEvaluatorJob } from '../../jobs/alert-evaluator';
import { createPool, createReadOnlyPool, schedulerConfig, SchedulerRuntime, type RuntimeEvent } from '../../scheduler';
import { poll } from '../../scheduler/testing/fixtures';
import { answersOf } from '../testing/answers';
import { acquire, register, reporter, serviceOn } from '../testing/seed';

const POLL = 30_000;

describe('health rollup and strips (real PostgreSQL, a real evaluator)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const events: RuntimeEvent[] = [];
  const job = alertEvaluatorJob({ config: parseAlertConfig({ LEASEBOARD_ALERT_EVALUATE_EVERY: '1s' }), readTimeoutMs: 2_000 });
  const db = createPool(databaseUrl(), { applicationName: 'leaseboard-test-strips' });
  const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-strips' });
  const runtime = new SchedulerRuntime(job, schedulerConfig({ name: ALERT_EVALUATOR_JOB, batchWorkMs: 0 }), { db, readDb, onEvent: (e) => events.push(e) });
  const rounds = () => events.filter((e) => e.event === 'occurrence_completed').length;
  /** Waits for `n` more completed rounds: each read every status after the call. */
  const moreRounds = async (n: number) => {
    const target = rounds() + n;
    await poll(
      async () => rounds(),
      (count) => count >= target,
      POLL,
    );
  };
  const changes = async (name: string) =>
    (
      await pool.query<{ health: string; at_ms: number }>(
        'SELECT health, extract(epoch FROM at) * 1000 AS at_ms FROM health_changes WHERE name = $1 ORDER BY at',
        [name],
      )
    ).rows;
  const registeredMs = async (name: string) =>
    Number((await pool.query('SELECT ceil(extract(epoch FROM first_registered_at) * 1000) AS ms FROM schedulers WHERE name = $1', [name])).rows[0].ms);

  beforeAll(() => runtime.start());
  afterAll(async () => {
    await runtime.stop();
    await job.close?.();
    await Promise.all([db.end(), readDb.end()]);
  });

  it('records a change only when the health changes, and marks each observed minute', async () => {
    const name = uniqueLease('strip-rec');
    await register(pool, name);
    await moreRounds(3);
    expect((await changes(name)).map((c) => c.health)).toEqual(['no_leader']); // three rounds, one change
    const grant = await acquire(pool, name);
    const r = reporter(pool, grant);
    await r.report(`${name}@2026-12-02T00:00:00Z`, 1);
    await poll(
      () => changes(name),
      (rows) => rows.at(-1)?.health === 'progressing',
      POLL,
    );
    const healths = (await changes(name)).map((c) => c.health);
    expect(healths[0]).toBe('no_leader');
    expect(healths.every((h, i) => i === 0 || h !== healths[i - 1])).toBe(true); // never the same twice in a row
    const observed = await pool.query(`SELECT 1 FROM health_observed_minutes WHERE minute = date_trunc('minute', clock_timestamp())`);
    expect(observed.rowCount).toBe(1);
    // A later registration (a restart) never moves the first one.
    const first = await registeredMs(name);
    await register(pool, name);
    expect(await registeredMs(name)).toBe(first);
  });

  it('draws nothing before registration, the no-leader start, then progress; worst ranks and filters', async () => {
    const name = uniqueLease('strip-draw');
    await register(pool, name);
    await moreRounds(2);
    const grant = await acquire(pool, name);
    await reporter(pool, grant).report(`${name}@2026-12-02T00:00:00Z`, 1);
    await poll(
      () => changes(name),
      (rows) => rows.at(-1)?.health === 'progressing',
      POLL,
    );
    await moreRounds(1);
    const born = await registeredMs(name);

    const answer = await answersOf(service).strips(`window=1h&name=${encodeURIComponent(name)}`);
    if (!answer.ok) throw new Error(answer.error.message);
    const [row] = answer.value.rows;
    expect(row!.registeredAt).toBe(new Date(born).toISOString());
    expect(row!.since).toBe(row!.registeredAt);
    expect(row!.segments.length).toBeGreaterThan(0);
    expect(row!.segments.every((s) => Date.parse(s.from) >= born)).toBe(true);
    // A cell shows the worst of its minute, the health carried into it included: the minute in which
    // progress began still holds the no-leader start, so the last cell (the minute of the strip's end)
    // is progressing only once a minute after that one has begun.
    const recorded = await changes(name);
    const minuteOf = (ms: number) => Math.floor(ms / 60_000);
    const endMinute = minuteOf(Date.parse(row!.segments.at(-1)!.to) - 1);
    const later = endMinute > minuteOf(Number(recorded.at(-1)!.at_ms));
    // (A new minute that began after the last evaluator round and before this read is nobody's yet: unknown.)
    const last = row!.segments.at(-1)!;
    expect(last.health).toBe(last.notObserved ? 'unknown' : later ? 'progressing' : 'no_leader');
    expect(row!.worst).toBe('no_leader');
    const noLeader = row!.segments.find((s) => s.health === 'no_leader')!;
    expect(Date.parse(noLeader.at)).toBeGreaterThanOrEqual(born); // the moment to open is after registration

    const ranked = await answersOf(service).strips(`window=1h&worst=no_leader&q=${encodeURIComponent(name)}`);
    if (!ranked.ok) throw new Error(ranked.error.message);
    expect(ranked.value.rows.map((x) => x.name)).toEqual([name]);
    expect(ranked.value.counts!.no_leader).toBe(1);
    const none = await answersOf(service).strips(`window=24h&worst=stalled&q=${encodeURIComponent(name)}`);
    expect(none.ok && none.value.total).toBe(0);
  });

  it('refuses a bad window, health or name with 400 before any read', async () => {
    for (const query of ['window=2h', 'worst=red', `name=${'x'.repeat(1_000)}`]) {
      const answer = await answersOf(service).strips(query);
      expect(answer.ok ? 200 : answer.error.status, query).toBe(400);
    }
  });

  it('history starts at registration: no segment, gap or no-leader before it, and the default span zooms to it', async () => {
    const name = uniqueLease('hist-young');
    await register(pool, name);
    const born = await registeredMs(name);
    await acquire(pool, name);
    const hourBefore = new Date(born - 3_600_000).toISOString();
    const asked = await answersOf(service).history(name, hourBefore, null);
    if (!asked.ok) throw new Error(asked.error.message);
    expect(asked.value.registeredAt).toBe(new Date(born).toISOString());
    expect(asked.value.from).toBe(hourBefore); // what was asked…
    expect(Date.parse(asked.value.segments[0]!.from)).toBe(born); // …drawn only from registration on
    expect(asked.value.segments.every((s) => Date.parse(s.from) >= born)).toBe(true);
    expect(asked.value.gaps.every((g) => Date.parse(g.from) >= born)).toBe(true);
    const byDefault = await answersOf(service).history(name);
    if (!byDefault.ok) throw new Error(byDefault.error.message);
    expect(byDefault.value.from).toBe(new Date(born).toISOString()); // younger than an hour: the span starts at registration
  });
});
