// What starts in the next hour, on real PostgreSQL through the route handler: schedulers of several
// cadences, one whose current slot already ran, one disabled, filtered by a label selector.
import { describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { changeIntent } from '../../lease';
import { upcomingRoute } from '../http/handlers';
import { serviceOn } from '../testing/seed';

const DAY = 86_400_000;

describe('upcoming runs (real PostgreSQL)', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const ask = async (query: string) => upcomingRoute(new Request(`http://x/api/v1/upcoming${query}`), () => service);

  it('given minutely, daily-not-run-yet, daily-already-run and disabled schedulers, then the hour lists the minutely and the due ones, soonest first', async () => {
    const team = uniqueLease('t').replace(/[^a-z0-9]/g, '');
    const [minutely, dueDaily, doneDaily, off] = ['up-min', 'up-due', 'up-done', 'up-off'].map((p) => uniqueLease(p));
    const add = (name: string, everyMs: number) =>
      pool.query(
        `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at, first_registered_at, labels)
         VALUES ($1, $2, 1000, 60000, 3600000, clock_timestamp(), clock_timestamp(), $3::jsonb)`,
        [name, everyMs, JSON.stringify({ team })],
      );
    await add(minutely!, 60_000);
    await add(dueDaily!, DAY);
    await add(doneDaily!, DAY);
    await add(off!, 60_000);
    await changeIntent(pool, off!, { disabled: true, by: 'oncall', reason: 'migration' });
    // The daily one's slot of today already ran (written as the runtime would, its fence aside).
    const client = await pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      await client.query(
        `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at, completed_at)
         VALUES ($1 || '@today', $1, date_trunc('day', clock_timestamp(), 'UTC'), 'completed', 1, clock_timestamp(), clock_timestamp())`,
        [doneDaily],
      );
    } finally {
      await client.query('RESET session_replication_role');
      client.release();
    }

    const res = await ask(`?selector=${encodeURIComponent(`team=${team}`)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { until: string; total: number; runs: { name: string; at: string; due: boolean; disabled: boolean; held: boolean }[] };
    expect(body.total).toBe(3);
    const names = body.runs.map((r) => r.name);
    expect(names.sort()).toEqual([minutely, dueDaily, off].sort()); // the daily one that ran starts tomorrow
    const due = body.runs.find((r) => r.name === dueDaily)!;
    expect(due).toMatchObject({ due: true, held: false, disabled: false });
    expect(Date.parse(due.at) % DAY).toBe(0);
    expect(body.runs.find((r) => r.name === off)).toMatchObject({ disabled: true });
    const times = body.runs.map((r) => Date.parse(r.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t <= Date.parse(body.until))).toBe(true);

    // A limit keeps the soonest and still counts them all; one that is not a number is refused by name.
    const first = (await (await ask(`?selector=${encodeURIComponent(`team=${team}`)}&limit=1`)).json()) as typeof body;
    expect(first.total).toBe(3);
    expect(first.runs.map((r) => r.name)).toEqual([body.runs[0]!.name]);
    const notNumber = await ask('?limit=many');
    expect(notNumber.status).toBe(400);
    expect(((await notNumber.json()) as { error: { message: string } }).error.message).toMatch(/^limit:/);

    expect((await ask(`?selector=${encodeURIComponent('team in (')}`)).status).toBe(400);
  });
});
