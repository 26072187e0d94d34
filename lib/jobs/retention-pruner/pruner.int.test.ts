// The retention pruner against a real PostgreSQL: backdated rows in every
// table it prunes (never waiting), one round of the real job under a real
// runtime, then what is gone and what is kept. Its fence is the database's:
// a stale pruner's statements are refused. Its batches hold no lock a
// renewal or a report waits on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, forceExpire, uniqueLease, usePool } from '../../../db/testing/pools';
import { fencedWrites, fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../../lease';
import { DEFAULT_RETENTION } from '../../retention';
import { createReadOnlyPool, type FencedStep } from '../../scheduler';
import { appendReport } from '../../scheduler/report-store';
import { runOneOccurrence } from '../../scheduler/testing/fixtures';
import { cutoffsAt, retentionPrunerJob } from './index';

const DAY = 86_400_000;
const job = retentionPrunerJob(DEFAULT_RETENTION);

describe('the retention pruner (leaseboard-retention)', () => {
  const pool = usePool();
  const readDb = createReadOnlyPool(databaseUrl(), { applicationName: 'leaseboard-test-read' });
  afterAll(() => readDb.end());
  const authority = new LeaseAuthority(pool);
  const names = { planner: uniqueLease('planner'), lonely: uniqueLease('lonely'), old: uniqueLease('old'), busy: uniqueLease('busy') };
  const epochs = new Map<string, number>();

  /** One round of the real job under its own (test-unique) lease; resolves when it completed. */
  async function runOneRound(): Promise<void> {
    const events = await runOneOccurrence(job, uniqueLease('pruner'), { db: pool, readDb });
    expect(events.filter((e) => e.event === 'error' || e.event === 'write_rejected')).toEqual([]);
  }

  const q = (text: string, values: unknown[] = []) => pool.query(text, values);

  beforeAll(async () => {
    for (const name of Object.values(names)) {
      const grant = await authority.acquire(leaseTerms({ name, ttlMs: 600_000 }), newInstanceToken());
      if (grant.kind !== 'acquired') throw new Error(grant.kind);
      epochs.set(name, grant.epoch);
    }
    const epoch = (name: string) => epochs.get(name)!;
    // Reports: a partition 10 days back (dropped whole), a row 20 days back in the default partition (deleted), one 3 days back (kept).
    await q(`SELECT leaseboard_report_partition(date_bin('1 day', clock_timestamp() - interval '10 days', '2000-01-01 00:00:00+00'),
                                                date_bin('1 day', clock_timestamp() - interval '10 days', '2000-01-01 00:00:00+00') + interval '1 day')`);
    for (const days of [10, 20, 3]) {
      await q(
        `INSERT INTO progress_reports (lease, epoch, seq, advanced, reported_at) VALUES ($1, $2, $3::int, true, clock_timestamp() - $3::int * interval '1 day')`,
        [names.planner, epoch(names.planner), days],
      );
    }
    // Lease events: `old` at 40, 35 and 20 days, and a day folded 45 days back (migration 0034); `lonely` once, 50 days ago.
    await q(
      `INSERT INTO lease_event_days (lease, day, nums, holders, labels)
       VALUES ($1, date_trunc('day', clock_timestamp() - interval '45 days', 'UTC'), ARRAY[[1, 4 * 3600000000::bigint, 1, NULL, NULL, NULL]], 'h', E'\\x1e')`,
      [names.old],
    );
    for (const [name, days] of [
      [names.old, 40],
      [names.old, 35],
      [names.old, 20],
      [names.lonely, 50],
    ] as const) {
      await q(`INSERT INTO lease_events (lease, kind, epoch, holder, at) VALUES ($1, 'acquired', 1, 'h', clock_timestamp() - $2 * interval '1 day')`, [
        name,
        days,
      ]);
    }
    // Renewal gaps (7 d), rejections (7 d), alert events (30 d): one just past, one just inside.
    // Renewal gaps are an hour to a row: one whose last minute is past retention goes, one with a minute inside stays.
    for (const at of [`- interval '7 days' - interval '1 hour'`, `- interval '7 days' + interval '10 minutes'`])
      await q(
        `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals) VALUES ($1, 1, leaseboard_gap_hour(clock_timestamp() ${at}), array_fill(100, ARRAY[60]), 10)`,
        [names.old],
      );
    for (const days of [8, 6]) {
      await q(
        `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals) VALUES ($1, 1, leaseboard_gap_hour(clock_timestamp() - $2 * interval '1 day'), array_fill(100, ARRAY[60]), 10)`,
        [names.old, days],
      );
      await q(
        `INSERT INTO stale_write_rejections (lease, attempted_epoch, resource, reason, at) VALUES ($1, 1, 'x', 'stale_epoch', clock_timestamp() - $2 * interval '1 day')`,
        [names.old, days],
      );
    }
    // Occurrences: `planner` has 6 recent completed ones and a running one 10 days old that
    // they superseded (abandoned: interrupted, and its slot passed before anyone resumed it); `busy` is
    // still running its one occurrence, 10 days long; `lonely` has a single completed occurrence 9 days old;
    // `old` a completed one 9 days old and a newer one.
    const occurrence = async (name: string, key: string, ageMs: number, state: 'running' | 'completed') => {
      await q(
        `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at) VALUES ($1, $2, clock_timestamp() - $3 * interval '1 millisecond', $4, $5, clock_timestamp())`,
        [key, name, ageMs, state, epoch(name)],
      );
    };
    for (let i = 1; i <= 6; i++) await occurrence(names.planner, `${names.planner}@${i}`, (7 - i) * 60_000, 'completed');
    await occurrence(names.planner, `${names.planner}@abandoned`, 10 * DAY, 'running');
    await occurrence(names.busy, `${names.busy}@running`, 10 * DAY, 'running');
    await occurrence(names.lonely, `${names.lonely}@only`, 9 * DAY, 'completed');
    await occurrence(names.old, `${names.old}@old`, 9 * DAY, 'completed');
    await occurrence(names.old, `${names.old}@new`, 60_000, 'completed');
    // Health rollup (kept as long as reports, 7 d): `old` changed 10, 9 and 3 days ago; a scheduler gone
    // since (no lease, no registration) 9 days ago; observed minutes 8 and 6 days ago.
    const gone = `${names.old}-gone`;
    for (const [name, days] of [
      [names.old, 10],
      [names.old, 9],
      [names.old, 3],
      [gone, 9],
    ] as const) {
      await q(`INSERT INTO health_changes (name, at, health, lease, epoch) VALUES ($1, clock_timestamp() - $2 * interval '1 day', 'unknown', $3, $4)`, [
        name,
        days,
        names.old,
        epoch(names.old),
      ]);
    }
    for (const days of [8, 6]) {
      await q(`INSERT INTO health_observed_minutes (minute, lease, epoch) VALUES (date_trunc('minute', clock_timestamp() - $1 * interval '1 day'), $2, $3)`, [
        days,
        names.old,
        epoch(names.old),
      ]);
    }
    // Audit trails: never pruned, however old.
    await q(
      `INSERT INTO intent_audit (lease, disabled, "by", reason, at) VALUES ($1, true, 'ops', 'ancient choice', clock_timestamp() - interval '400 days')`,
      [names.old],
    );
  });

  it('drops whole partitions past retention, makes the next ones ahead, and deletes old rows left in the default partition', async () => {
    const before = await q(`SELECT count(*)::int AS n FROM report_partitions WHERE "to" <= clock_timestamp() - interval '7 days'`);
    expect(before.rows[0].n).toBeGreaterThanOrEqual(1);
    await runOneRound();
    const { rows: partitions } = await q(`SELECT "from", "to" FROM report_partitions ORDER BY "from"`);
    expect(partitions.every((p: { to: Date }) => p.to.getTime() > Date.now() - 7 * DAY - 60_000)).toBe(true);
    // Ahead: the partition holding now + 2 partition widths (two days) exists.
    const ahead = await q(
      `SELECT count(*)::int AS n FROM report_partitions WHERE "from" <= clock_timestamp() + interval '2 days' AND "to" > clock_timestamp() + interval '2 days'`,
    );
    expect(ahead.rows[0].n).toBe(1);
    const { rows } = await q(`SELECT seq FROM progress_reports WHERE lease = $1 ORDER BY seq`, [names.planner]);
    expect(rows.map((r: { seq: number }) => r.seq)).toEqual([3]);
    const partitionTables = await q(`SELECT count(*)::int AS n FROM pg_partition_tree('progress_reports') WHERE isleaf`);
    const listed = await q(`SELECT count(*)::int AS n FROM report_partitions`);
    expect(partitionTables.rows[0].n).toBe(listed.rows[0].n + 1); // + the default partition
  });

  it('keeps what each rule promises: anchors, the newest occurrence, running work, audit trails; an abandoned occurrence goes', async () => {
    await runOneRound(); // a second round: what the first folded into days (an anchor among them) stays
    const events = await q(
      `SELECT l.lease, round(extract(epoch FROM clock_timestamp() - e.at) / 86400)::int AS days
       FROM unnest(ARRAY[$1, $2]) l(lease) CROSS JOIN LATERAL leaseboard_lease_log(l.lease, 'infinity') e ORDER BY l.lease, e.at`,
      [names.old, names.lonely],
    );
    // Per lease, oldest first (the grants in beforeAll added today's events), rows and folded days alike:
    // `old` keeps its anchor — the newest event at or before the 30-day cutoff — and what follows (its
    // day 45 days back went); `lonely` keeps its only old event. The old ones are folded into days.
    const rowsLeft = await q(`SELECT count(*)::int AS n FROM lease_events WHERE lease IN ($1, $2) AND at < clock_timestamp() - interval '2 days'`, [
      names.old,
      names.lonely,
    ]);
    expect(rowsLeft.rows[0].n).toBe(0);
    expect(events.rows).toEqual(
      [...[50, 0].map((days) => ({ lease: names.lonely, days })), ...[35, 20, 0].map((days) => ({ lease: names.old, days }))].sort((a, b) =>
        a.lease.localeCompare(b.lease),
      ),
    );
    const days = async (table: string, column: string) =>
      (await q(`SELECT round(extract(epoch FROM clock_timestamp() - ${column}) / 86400)::int AS d FROM ${table} WHERE lease = $1`, [names.old])).rows.map(
        (r: { d: number }) => r.d,
      );
    expect((await days('renewal_gap_hours', 'hour')).sort()).toEqual([6, 7]);
    expect(await days('stale_write_rejections', 'at')).toEqual([6]);

    const occurrences = await q(`SELECT key FROM occurrences WHERE lease = ANY ($1) ORDER BY key`, [Object.values(names)]);
    expect(occurrences.rows.map((r: { key: string }) => r.key)).toEqual(
      [...[1, 2, 3, 4, 5, 6].map((i) => `${names.planner}@${i}`), `${names.busy}@running`, `${names.lonely}@only`, `${names.old}@new`].sort(),
    );
    expect((await q(`SELECT count(*)::int AS n FROM intent_audit WHERE lease = $1`, [names.old])).rows[0].n).toBe(1);
  });

  it('folds occurrences a newer ended one supersedes into hour rows, and drops an hour row once all of it is past retention', async () => {
    const name = uniqueLease('folded');
    const grant = await authority.acquire(leaseTerms({ name, ttlMs: 600_000 }), newInstanceToken());
    if (grant.kind !== 'acquired') throw new Error(grant.kind);
    const slotAt = `date_trunc('hour', clock_timestamp() - $3 * interval '1 hour') + $4 * interval '5 minutes'`;
    // 9 days old (past retention: pruned as before), three in one hour 3 days ago, the newest a minute ago.
    for (const [hoursAgo, slot] of [
      [9 * 24, 0],
      [72, 1],
      [72, 2],
      [72, 3],
      [0, -1],
    ] as const)
      await q(
        `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at, completed_at)
         SELECT $1 || '@' || to_char(s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), $1, s, 'completed', $2, s + interval '1 s', s + interval '40 s'
         FROM (SELECT ${slotAt} AS s) x`,
        [name, grant.epoch, hoursAgo, slot],
      );
    await q(
      `INSERT INTO occurrence_hours (lease, hour, scheduled_ms, claimed_us, ended_us) VALUES ($1, leaseboard_gap_hour(clock_timestamp() - interval '8 days'), '{0}', '{1}', '{2}')`,
      [name],
    );
    await runOneRound();
    const rows = await q(`SELECT round(extract(epoch FROM clock_timestamp() - scheduled_at) / 3600)::int AS h FROM occurrences WHERE lease = $1`, [name]);
    expect(rows.rows).toHaveLength(1); // the newest, 5 to 65 minutes ago
    expect(rows.rows[0].h).toBeLessThanOrEqual(1);
    const hours = await q(
      `SELECT round(extract(epoch FROM clock_timestamp() - hour) / 3600)::int AS h, scheduled_ms, claimed_us, ended_us FROM occurrence_hours WHERE lease = $1`,
      [name],
    );
    expect(hours.rows).toHaveLength(1);
    expect(hours.rows[0]).toMatchObject({
      scheduled_ms: [300_000, 600_000, 900_000],
      claimed_us: ['1000000', '1000000', '1000000'],
      ended_us: ['39000000', '39000000', '39000000'],
    });
    expect(Math.abs(hours.rows[0].h - 72)).toBeLessThanOrEqual(1);
  });

  it('prunes the health rollup past the reports retention, keeping the health carried into the oldest window of a scheduler that exists', async () => {
    await runOneRound();
    const ages = async (name: string) =>
      (
        await q(`SELECT round(extract(epoch FROM clock_timestamp() - at) / 86400)::int AS days FROM health_changes WHERE name = $1 ORDER BY at`, [name])
      ).rows.map((r: { days: number }) => r.days);
    expect(await ages(names.old)).toEqual([9, 3]);
    expect(await ages(`${names.old}-gone`)).toEqual([]);
    const minutes = await q(
      `SELECT round(extract(epoch FROM clock_timestamp() - minute) / 86400)::int AS days FROM health_observed_minutes WHERE minute < clock_timestamp() - interval '1 day' ORDER BY minute`,
    );
    expect(minutes.rows.map((r: { days: number }) => r.days)).toEqual([6]);
  });

  it('a stale pruner (its epoch no longer current) has every statement refused: nothing dropped, nothing deleted', async () => {
    const lease = uniqueLease('stale-pruner');
    const grant = await authority.acquire(leaseTerms({ name: lease, ttlMs: 60_000 }), newInstanceToken());
    if (grant.kind !== 'acquired') throw new Error(grant.kind);
    const fence = fenceFor({ name: lease, epoch: grant.epoch });
    await forceExpire(pool, lease);
    const taken = await authority.acquire(leaseTerms({ name: lease, ttlMs: 60_000 }), newInstanceToken());
    expect(taken.kind).toBe('acquired');
    await q(
      `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals) VALUES ($1, 1, leaseboard_gap_hour(clock_timestamp() - interval '9 days'), '{1}', 1)`,
      [lease],
    );
    const partitionsBefore = (await q(`SELECT name FROM report_partitions ORDER BY name`)).rows;
    // Every step's own statements, built by the job for the present, under the stale fence.
    const cutoffs = cutoffsAt(DEFAULT_RETENTION, Date.now());
    const input = { lease, key: `${lease}@x`, scheduledAt: new Date(), cursor: 0, next: 1 };
    for (const step of job.steps as FencedStep<unknown, unknown>[]) {
      const plan = step.name === 'partitions' ? new Date(Date.now() + 30 * DAY).toISOString() : step.name.endsWith('-fold') ? 100 : cutoffs;
      const result = await writeFenced(pool, fence, (w) => step.write(w, plan, input));
      expect({ step: step.name, kind: result.kind, reason: result.kind === 'rejected' ? result.reason : null }).toEqual({
        step: step.name,
        kind: 'rejected',
        reason: 'stale_epoch',
      });
    }
    expect((await q(`SELECT name FROM report_partitions ORDER BY name`)).rows).toEqual(partitionsBefore);
    expect((await q(`SELECT count(*)::int AS n FROM renewal_gap_hours WHERE lease = $1`, [lease])).rows[0].n).toBe(1);
    const logged = await q(`SELECT DISTINCT resource FROM stale_write_rejections WHERE lease = $1 ORDER BY resource`, [lease]);
    expect(logged.rows.map((r: { resource: string }) => r.resource)).toEqual(
      [
        'alert_event_days',
        'alert_events',
        'health_changes',
        'health_observed_minutes',
        'lease_event_days',
        'lease_events',
        'occurrence_hours',
        'occurrences',
        'progress_reports',
        'renewal_gap_hours',
        'stale_write_rejections',
      ].sort(),
    );
    // And the pruned logs refuse a plain DELETE without any fence.
    await expect(q(`DELETE FROM renewal_gap_hours WHERE lease = $1`, [lease])).rejects.toMatchObject({ code: 'LB002' });
    await expect(q(`DELETE FROM progress_reports WHERE lease = $1`, [lease])).rejects.toMatchObject({ code: 'LB002' });
  });

  it('while a prune batch is uncommitted, the pruned lease still renews and reports; a partition drop that would wait gives up after 200 ms', async () => {
    const name = uniqueLease('busy');
    const holder = newInstanceToken();
    const grant = await authority.acquire(leaseTerms({ name, ttlMs: 60_000 }), holder);
    if (grant.kind !== 'acquired') throw new Error(grant.kind);
    await q(
      `INSERT INTO renewal_gap_hours (lease, epoch, hour, max_gap_ms, renewals) VALUES ($1, $2, leaseboard_gap_hour(clock_timestamp() - interval '9 days'), '{1}', 1)`,
      [name, grant.epoch],
    );
    const pruner = uniqueLease('pruner');
    const pruning = await authority.acquire(leaseTerms({ name: pruner, ttlMs: 60_000 }), newInstanceToken());
    if (pruning.kind !== 'acquired') throw new Error(pruning.kind);
    const renewalGaps = job.steps.find((s) => s.name === 'renewal-gaps') as FencedStep<unknown, unknown>;
    const [statement] = renewalGaps.write(fencedWrites, cutoffsAt(DEFAULT_RETENTION, Date.now()), {
      lease: pruner,
      key: 'k',
      scheduledAt: new Date(),
      cursor: 0,
      next: 1,
    });
    const batch = await pool.connect();
    const other = await pool.connect();
    try {
      await batch.query('BEGIN');
      await batch.query('SELECT leaseboard_fence($1, $2, $3)', [pruner, pruning.epoch, 'renewal_gap_hours']);
      const { PgDialect } = await import('drizzle-orm/pg-core');
      const rendered = new PgDialect().sqlToQuery(statement!.dml);
      const deleted = await batch.query(rendered.sql, rendered.params);
      expect(deleted.rowCount).toBeGreaterThanOrEqual(1);
      // The batch holds its locks; the pruned lease's holder renews and reports as usual.
      await other.query(`SET statement_timeout = '2s'`);
      const renewed = await new LeaseAuthority(other).renew({ name, holder, epoch: grant.epoch });
      expect(renewed.kind).toBe('renewed');
      await appendReport(other, { lease: name, epoch: grant.epoch, seq: 1, occurrence: null, cursor: null, reportEveryMs: 2_000 });
      await batch.query('ROLLBACK');

      // A reader holds progress_reports; a partition round that must drop one gives up on it after its
      // lock timeout (200 ms) instead of queueing every report behind it (the 2 s statement timeout would fail it).
      await q(`SELECT leaseboard_report_partition(date_bin('1 day', clock_timestamp() - interval '12 days', '2000-01-01 00:00:00+00'),
                                                  date_bin('1 day', clock_timestamp() - interval '12 days', '2000-01-01 00:00:00+00') + interval '1 day')`);
      await batch.query('BEGIN');
      await batch.query('SELECT count(*) FROM progress_reports');
      const round = await other.query(
        `SELECT leaseboard_retention_partitions($1, $2, clock_timestamp(), interval '2 days', interval '7 days', interval '1 day', 100) AS r`,
        [pruner, pruning.epoch],
      );
      expect(round.rows[0].r).toMatchObject({ dropped: 0, busy: 1 });
      await batch.query('ROLLBACK');
      const again = await other.query(
        `SELECT leaseboard_retention_partitions($1, $2, clock_timestamp(), interval '2 days', interval '7 days', interval '1 day', 100) AS r`,
        [pruner, pruning.epoch],
      );
      expect(again.rows[0].r).toMatchObject({ dropped: 1, busy: 0 });
    } finally {
      await batch.query('ROLLBACK').catch(() => {});
      batch.release();
      other.release();
    }
  });

  it('a report queued behind a partition round holds nothing on progress_reports: the round still makes its partition (no deadlock, 40P01)', async () => {
    // The round's earlier slot already holds SHARE ROW EXCLUSIVE (leaseboard_report_partition's LOCK); a report
    // arrives and queues; the round's next slot then needs ACCESS EXCLUSIVE to make a partition. Were the report
    // holding ACCESS SHARE while it queued (its read of the open run, taken before its write's lock), PostgreSQL
    // would fail the round at once with deadlock_detected — not a lock_timeout, so not `busy` (migration 0025).
    const lease = uniqueLease('queued');
    await appendReport(pool, { lease, epoch: 1, seq: 1, occurrence: 'o', cursor: 1, reportEveryMs: 2_000 });
    const pruner = uniqueLease('pruner');
    const pruning = await authority.acquire(leaseTerms({ name: pruner, ttlMs: 60_000 }), newInstanceToken());
    if (pruning.kind !== 'acquired') throw new Error(pruning.kind);
    // A slot a century ahead: no partition exists there, so the round must make one; nothing is old enough to drop.
    const far = (await q(`SELECT date_bin('1 day', clock_timestamp() + interval '36500 days', '2000-01-01 00:00:00+00') AS at`)).rows[0].at as Date;
    const round = await pool.connect();
    const reporter = await pool.connect();
    try {
      const pid = (await reporter.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await round.query('BEGIN');
      await round.query('LOCK TABLE progress_reports IN SHARE ROW EXCLUSIVE MODE');
      const reporting = appendReport(reporter, { lease, epoch: 1, seq: 2, occurrence: 'o', cursor: 1, reportEveryMs: 2_000 });
      // The report waits on a lock (the round's), as the server shows it.
      for (;;) {
        const { rows } = await q(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid]);
        if (rows[0]?.wait_event_type === 'Lock') break;
      }
      const made = await round.query(
        `SELECT leaseboard_retention_partitions($1, $2, $3, interval '1 day', interval '100000 days', interval '1 day', 100) AS r`,
        [pruner, pruning.epoch, far],
      );
      expect(made.rows[0].r).toMatchObject({ created: 1, dropped: 0, busy: 0 });
      await round.query('COMMIT');
      // Then the report goes through, as the next one of its run.
      expect((await reporting).advanced).toBe(false);
      expect((await q(`SELECT max(COALESCE(last_seq, seq))::int AS seq FROM progress_reports WHERE lease = $1`, [lease])).rows[0].seq).toBe(2);
    } finally {
      await round.query('ROLLBACK').catch(() => {});
      round.release();
      reporter.release();
      const { rows } = await q(`SELECT name FROM report_partitions WHERE "from" >= $1`, [far]);
      for (const { name } of rows as { name: string }[]) await q(`DROP TABLE ${name}`);
      await q(`DELETE FROM report_partitions WHERE "from" >= $1`, [far]);
    }
  });
});
