// Asking past the horizon on real PostgreSQL: `?at=` and history older than
// the history kept answer 410 outside_retention naming the oldest instant
// kept; just inside answers as before; LEASEBOARD_RETAIN_* moves the horizon.
//
// The horizon is the database's now minus the retention, and now moves on:
// "just outside" is 1 ms before the horizon at a database time read BEFORE
// the call (it only moves later, so it stays outside); "just inside" is 10 s
// after it, more than a read may take (the read timeout is 2 s). The exact
// boundary (the horizon itself inside) is pinned in ./horizon.unit.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { parseServerEnv } from '../env';
import { acquire, register, reporter, serviceOn } from '../testing/seed';
import { dbNow } from '../testing/scenario';
import { answersOf } from '../testing/answers';

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
const READ_MARGIN_MS = 10_000;

describe('asking past the retention horizon (real PostgreSQL)', () => {
  const pool = usePool();
  // The status service as instance.ts configures it, from the environment: history kept 1 hour.
  const env = parseServerEnv({ DATABASE_URL: 'postgres://unused', LEASEBOARD_RETAIN_REPORTS: '1h' });
  const hour = serviceOn(pool, 2_000, { retention: env.retention });
  const byDefault = serviceOn(pool);
  const name = uniqueLease('horizon');

  beforeAll(async () => {
    await register(pool, name);
    // Registered two hours ago: a younger scheduler's default history starts at its registration instead.
    await pool.query(`UPDATE schedulers SET first_registered_at = clock_timestamp() - interval '2 hours' WHERE name = $1`, [name]);
    await reporter(pool, await acquire(pool, name)).report(`${name}@2026-01-01T00:00:00Z`, 1);
  });

  it('?at=: just outside → 410 naming the instant, the oldest kept and the retention; just inside → the rebuilt status', async () => {
    const now = await dbNow(pool);
    const outside = now - HOUR - 1;
    const refused = await answersOf(hour).detail(name, iso(outside));
    if (refused.ok) throw new Error('expected 410');
    expect(refused.error).toMatchObject({ status: 410, code: 'outside_retention', retention: { keptMs: HOUR, keptFor: '1 hour' } });
    const oldestKept = Date.parse(refused.error.retention!.oldestKept);
    expect(oldestKept).toBeGreaterThan(outside);
    expect(oldestKept).toBeLessThanOrEqual(now - HOUR + READ_MARGIN_MS);
    expect(refused.error.message).toBe(
      `at: ${iso(outside)} is no longer kept; the oldest instant kept is ${refused.error.retention!.oldestKept} (kept 1 hour)`,
    );

    const inside = now - HOUR + READ_MARGIN_MS;
    const answered = await answersOf(hour).detail(name, iso(inside));
    if (!answered.ok) throw new Error(`${answered.error.code}: ${answered.error.message}`);
    expect(answered.value.asOf).toBe(iso(inside));
    expect(answered.value.status.authority.state).toBe('none');
  });

  it('the retention comes from the environment: the default (7 days) still answers an instant 2 hours old, and refuses 7 days + 1 ms', async () => {
    const now = await dbNow(pool);
    expect(await answersOf(hour).detail(name, iso(now - 2 * HOUR))).toMatchObject({ ok: false, error: { status: 410 } });
    expect(await answersOf(byDefault).detail(name, iso(now - 2 * HOUR))).toMatchObject({ ok: true, value: { asOf: iso(now - 2 * HOUR) } });
    const week = await answersOf(byDefault).detail(name, iso(now - 7 * 24 * HOUR - 1));
    expect(week).toMatchObject({ ok: false, error: { status: 410, code: 'outside_retention', retention: { keptFor: '7 days' } } });
    expect(week.ok || week.error.message).toMatch(/\(kept 7 days\)$/);
  });

  it('the future, unknown names and instants before 2000 keep their own answers', async () => {
    const now = await dbNow(pool);
    expect(await answersOf(hour).detail(name, iso(now + HOUR))).toMatchObject({ ok: false, error: { status: 400, code: 'at_in_future' } });
    expect(await answersOf(hour).detail('nobody-here', iso(now - 2 * HOUR))).toMatchObject({ ok: false, error: { status: 404, code: 'unknown_scheduler' } });
    expect(await answersOf(hour).detail(name, '1999-12-31T23:59:59Z')).toMatchObject({ ok: false, error: { status: 400, code: 'invalid_parameter' } });
    expect(await answersOf(hour).history(name, '1999-12-31T23:59:59Z', '2000-01-01T00:00:01Z')).toMatchObject({
      ok: false,
      error: { status: 400, code: 'invalid_parameter' },
    });
  });

  it('history: `from` just outside → 410; just inside → the history; a `to` past the horizon → 410', async () => {
    const now = await dbNow(pool);
    const outside = now - HOUR - 1;
    const refused = await answersOf(hour).history(name, iso(outside), iso(outside + 60_000));
    if (refused.ok) throw new Error('expected 410');
    expect(refused.error).toMatchObject({ status: 410, code: 'outside_retention', retention: { keptMs: HOUR, keptFor: '1 hour' } });
    expect(refused.error.message).toMatch(new RegExp(`^from: ${iso(outside)} is no longer kept; the oldest instant kept is \\S+ \\(kept 1 hour\\)$`));

    const inside = now - HOUR + READ_MARGIN_MS;
    const answered = await answersOf(hour).history(name, iso(inside), iso(inside + 60_000));
    if (!answered.ok) throw new Error(`${answered.error.code}: ${answered.error.message}`);
    expect(answered.value.from).toBe(iso(inside));

    const onlyTo = await answersOf(hour).history(name, undefined, iso(outside));
    expect(onlyTo).toMatchObject({ ok: false, error: { status: 410, message: expect.stringMatching(/^to: /) } });
    expect(await answersOf(byDefault).history(name, iso(outside), iso(outside + 60_000))).toMatchObject({ ok: true });
  });

  it('history without `from` reaches back an hour, or only to the oldest instant kept', async () => {
    const tenMinutes = serviceOn(pool, 2_000, { retention: parseServerEnv({ DATABASE_URL: 'x', LEASEBOARD_RETAIN_REPORTS: '10m' }).retention });
    const short = await answersOf(tenMinutes).history(name);
    if (!short.ok) throw new Error(short.error.message);
    expect(Date.parse(short.value.to) - Date.parse(short.value.from)).toBe(10 * 60_000);
    const long = await answersOf(byDefault).history(name);
    if (!long.ok) throw new Error(long.error.message);
    expect(Date.parse(long.value.to) - Date.parse(long.value.from)).toBe(HOUR);
  });
});
