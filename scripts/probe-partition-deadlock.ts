/**
 * Probe: reports growing runs beside the pruner's partition round, with partitions a second wide so
 * every round makes and drops some (the pruner race). Prints how each side ended:
 * a round `written` (its `busy` slots counted), `rejected`, `unknown`, or an ERROR with its SQLSTATE;
 * a report ok or its SQLSTATE. 40P01 on the round's side is the deadlock migration 0025's lock order removes.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/probe-partition-deadlock.ts [seconds=20] [reporters=6]
 *
 * Run it against a migrated scratch database (it makes and drops partitions of progress_reports).
 */
import { sql } from 'drizzle-orm';
import { createPool } from '../db/pool';
import { fenceFor, LeaseAuthority, leaseTerms, newInstanceToken, writeFenced } from '../lib/lease';
import { appendReport } from '../lib/scheduler/report-store';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('probe: set DATABASE_URL to a migrated scratch database');
const seconds = Number(process.argv[2] ?? 20);
const reporters = Number(process.argv[3] ?? 6);
if (!(seconds > 0 && Number.isInteger(reporters) && reporters > 0)) throw new Error('probe: usage: [seconds > 0] [reporters ≥ 1]');
const pool = createPool(url, { applicationName: 'leaseboard-probe', max: reporters + 2 });
const outcomes = new Map<string, number>();
const count = (outcome: string, n = 1) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + n);
const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? 'none');
const until = Date.now() + seconds * 1000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function reporter(i: number): Promise<void> {
  const lease = `probe-r${i}-${Math.random().toString(36).slice(2, 8)}`;
  for (let seq = 1; Date.now() < until; seq++) {
    try {
      // Every 20 ms, the cursor moving at every 7th: runs grow by UPDATE, as at a scheduler's cadence.
      await appendReport(pool, { lease, epoch: 1, seq, occurrence: 'o', cursor: seq - (seq % 7), reportEveryMs: 20 });
      count('report ok');
    } catch (error) {
      count(`report ERROR ${codeOf(error)}`);
    }
    await pause(20);
  }
}

async function pruner(): Promise<void> {
  const name = `probe-pruner-${Math.random().toString(36).slice(2, 8)}`;
  const grant = await new LeaseAuthority(pool).acquire(leaseTerms({ name, ttlMs: 600_000 }), newInstanceToken());
  if (grant.kind !== 'acquired') throw new Error(`probe: pruner lease ${grant.kind}`);
  const fence = fenceFor({ name, epoch: grant.epoch });
  const ms = (value: number) => sql`${value}::bigint * interval '1 millisecond'`;
  while (Date.now() < until) {
    const now = new Date().toISOString();
    try {
      // As the pruner's partitions step: ahead 4 s, keep 3 s, partitions 1 s wide.
      const round = await writeFenced(pool, fence, (w) => [
        w.call<{ busy: number }>('leaseboard_retention_partitions', [sql`${now}::timestamptz`, ms(4_000), ms(3_000), ms(1_000), sql`${5_000}::int`], {
          resource: 'progress_reports',
        }),
      ]);
      count(`round ${round.kind}`);
      if (round.kind === 'written') count('round slots busy', round.results[0].rows[0]!.result.busy);
    } catch (error) {
      count(`round ERROR ${codeOf((error as { cause?: unknown }).cause)}`);
    }
    await pause(50);
  }
}

void (async () => {
  await Promise.all([pruner(), ...Array.from({ length: reporters }, (_, i) => reporter(i))]);
  for (const [outcome, n] of [...outcomes].sort()) console.log(`${String(n).padStart(6)}  ${outcome}`);
  await pool.end();
})();
