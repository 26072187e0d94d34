// The README example job (README "Run your own job under a lease"); its table `squares` is not part of
// Leaseboard's schema (only this test creates it) and is bounded by the job: 1,000 rows per occurrence.
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../../db/testing/pools';
import { leaseRow, poll, useSchedulers } from '../../scheduler/testing/fixtures';
import { SQUARES_MIGRATION, squaresJob } from './job';

const DAY = 86_400_000;

// The README's example job (this very file's neighbour, job.ts) under a lease,
// as real processes: two instances, a takeover mid-occurrence, each row once.
describe('the README example: a user-defined job', () => {
  const pool = usePool();
  const spawnScheduler = useSchedulers(databaseUrl);
  beforeAll(() => pool.query(SQUARES_MIGRATION));

  /** Returns once the database clock is at least `marginMs` before the end of its current `everyMs` slot (at once, nearly always). */
  async function clearOfSlotEnd(everyMs: number, marginMs: number): Promise<void> {
    const { rows } = await pool.query<{ ms: string }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms');
    const leftMs = everyMs - (Number(rows[0]!.ms) % everyMs);
    if (leftMs < marginMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 1_000));
  }

  it('runs under a lease with two instances, survives a takeover, and writes each item at most once', async () => {
    expect(squaresJob.steps.map((step) => step.class)).toEqual(['fenced']);
    const lease = uniqueLease('squares');
    const job = { job: 'squares' };
    // B must resume A's occurrence, which it does only while that occurrence's slot is the one due: with
    // the job's own minute, a takeover across a minute boundary ran the next slot instead (a CI failure).
    // A day's cadence, and a start clear of the day's end on the database clock, keep one slot throughout.
    // Ten batches of a second each: the pause must be armed while A is mid-occurrence, and on a loaded
    // machine 400 ms batches let A finish all ten before the arming command arrived (a failure seen at load 11).
    const cadence = { every: DAY, 'batch-work': 1_000 };
    await clearOfSlotEnd(DAY, 120_000);
    const a = spawnScheduler(lease, 'A', cadence, job);
    const acquired = await a.waitFor((line) => line.event === 'acquired');
    const b = spawnScheduler(lease, 'B', cadence, job);
    await b.waitFor((line) => line.event === 'held');
    const started = await a.waitFor((line) => line.event === 'occurrence_started');
    const key = String(started.occurrence);
    const written = () => pool.query<{ n: number }>('SELECT count(*)::int AS n FROM squares WHERE occurrence = $1', [key]);
    await poll(written, (r) => r.rows[0]!.n > 0); // A has written part of the occurrence
    // A pauses between fence and write; B takes over, resumes the occurrence, finishes it.
    await a.pauseMidWrite('write', () => b.waitFor((line) => line.event === 'acquired' && line.epoch === Number(acquired.epoch) + 1, 20_000));
    await a.waitFor((line) => line.event === 'write_rejected', 10_000);
    await b.waitFor((line) => line.event === 'occurrence_completed' && line.occurrence === key, 30_000);
    expect(b.lines.find((line) => line.event === 'occurrence_started' && line.occurrence === key)).toMatchObject({ resumed: true });

    const { rows } = await pool.query<{ n: number; distinct: number; wrong: number; epochs: number[] }>(
      `SELECT count(*)::int AS n, count(DISTINCT n)::int AS distinct, count(*) FILTER (WHERE square <> n * n)::int AS wrong,
              array_agg(DISTINCT epoch::int ORDER BY epoch::int) AS epochs
       FROM squares WHERE occurrence = $1`,
      [key],
    );
    expect(rows[0]).toEqual({ n: 1000, distinct: 1000, wrong: 0, epochs: [Number(acquired.epoch), Number(acquired.epoch) + 1] });
    expect((await leaseRow(pool, lease))?.holder).toBe(b.token);
    const occurrence = await pool.query(`SELECT state, epoch::int FROM occurrences WHERE key = $1`, [key]);
    expect(occurrence.rows).toEqual([{ state: 'completed', epoch: Number(acquired.epoch) + 1 }]);
  });
});
