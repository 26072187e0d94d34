/**
 * `npm run bench:takeover`: pauses the leader with SIGSTOP past its ttl, ten
 * times, and prints how long the other instance took to take over (from the
 * pause, and from the old lease's expiry on the database clock), plus the
 * stale writes the resumed process attempted vs. those the store accepted.
 * Real processes, real PostgreSQL (DATABASE_URL's server or embedded).
 */
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { seedDocuments } from '../examples/demo/retention-planner/documents';
import { SchedulerProcess } from '../lib/child/scheduler-process';
import { DEMO_SCHEDULER_PROGRAM } from '../examples/demo/demo-scheduler';
import { FAST_FLAGS } from '../lib/scheduler/testing/fast-flags';

const RUNS = Number(process.env.RUNS ?? 10);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const database = await createTestDatabase(() => {});
  const pool = createPool(database.url);
  const lease = 'takeover-bench';
  const processes: SchedulerProcess[] = [];
  try {
    await seedDocuments(pool, 50_000);
    const a = new SchedulerProcess({ program: DEMO_SCHEDULER_PROGRAM, lease, label: 'A', databaseUrl: database.url, flags: FAST_FLAGS });
    processes.push(a);
    await a.waitFor((line) => line.event === 'acquired');
    const b = new SchedulerProcess({ program: DEMO_SCHEDULER_PROGRAM, lease, label: 'B', databaseUrl: database.url, flags: FAST_FLAGS });
    processes.push(b);
    await b.waitFor((line) => line.event === 'held');
    const fromPause: number[] = [];
    const fromExpiry: number[] = [];
    let attempted = 0;
    let accepted = 0;
    for (let run = 0; run < RUNS; run++) {
      const { rows } = await pool.query('SELECT holder, epoch::float8 AS epoch FROM leases WHERE name = $1', [lease]);
      const epoch = rows[0].epoch as number;
      const owner = processes.find((p) => p.token === rows[0].holder)!;
      const other = processes.find((p) => p !== owner)!;
      await new Promise((resolve) => setTimeout(resolve, 800)); // let work get under way
      const pausedAt = Date.now();
      owner.signal('SIGSTOP');
      await other.waitFor((line) => line.event === 'acquired' && line.epoch === epoch + 1, 30_000);
      fromPause.push(Date.now() - pausedAt);
      owner.signal('SIGCONT');
      await owner.waitFor((line) => line.event === 'lost' && line.epoch === epoch, 30_000);
      await owner.waitFor((line) => line.event === 'held' && line.epoch === epoch + 1, 30_000);
      const gap = await pool.query(`SELECT extract(epoch FROM at - previous_ended_at) * 1000 AS ms FROM lease_events WHERE lease = $1 AND epoch = $2`, [
        lease,
        epoch + 1,
      ]);
      fromExpiry.push(Number(gap.rows[0].ms));
      const stale = await pool.query(
        `SELECT (SELECT count(*)::int FROM stale_write_rejections WHERE lease = $1 AND attempted_epoch = $2) AS rejected,
                (SELECT count(*)::int FROM leaseboard_demo.plan_items p, lease_events e WHERE e.lease = $1 AND e.epoch = $2 + 1
                   AND p.epoch = $2 AND p.written_at >= e.previous_ended_at) AS accepted`,
        [lease, epoch],
      );
      attempted += stale.rows[0].rejected + stale.rows[0].accepted;
      accepted += stale.rows[0].accepted;
      console.log(
        `run ${run + 1}: epoch ${epoch}→${epoch + 1}, takeover ${fromPause.at(-1)} ms after the pause, ${Math.round(fromExpiry.at(-1)!)} ms after expiry; stale writes attempted ${stale.rows[0].rejected + stale.rows[0].accepted}, accepted ${stale.rows[0].accepted}`,
      );
    }
    console.log(`\nttl ${FAST_FLAGS.ttl} ms, renew every ${FAST_FLAGS['renew-every']} ms, acquisition retry ≈ renew-every ±10%`);
    console.log(`takeover after pause: median ${median(fromPause)} ms (min ${Math.min(...fromPause)}, max ${Math.max(...fromPause)}) over ${RUNS} runs`);
    console.log(`takeover after expiry (database clock): median ${Math.round(median(fromExpiry))} ms`);
    console.log(`stale writes after resume: attempted ${attempted}, accepted ${accepted}`);
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await pool.end();
    await database.drop();
  }
}

void main();
