// Occurrences folded into hour rows (migration 0031_occurrence_hours) leave `?at=` and history
// reading exactly what the rows gave. Differential: each random occurrence stream with faults
// (skipped slots, claims late by up to minutes to the microsecond, abandoned runs, failures, runs
// that outlast the next slot's claim, keys that are not their slot's, a slot off the millisecond,
// a claim before its slot) is written as rows, and the whole logs
// read behind `?at=` and history (LOGS_SQL: slots at every bucket end) is taken at each claim and
// end, a microsecond either side, hour edges and random instants; then the pruner's fold runs in
// small batches (so hours are merged into more than once) and the same read must return the same,
// while the newest occurrence and the newest ended one — all the live read takes — stay rows.
import { describe, expect, it } from 'vitest';
import { isoUs, uniqueLease, useConnection, usePool } from '../../../db/testing/pools';
import { seededRandom } from '../../../db/testing/random';
import { LeaseAuthority, leaseTerms, newInstanceToken, occurrenceKey } from '../../lease';
import { LOGS_SQL } from './logs-sql';
import { EVENT_LIMIT } from './logs';
import { DEFAULT_REPORT_EVERY_MS, DEFAULT_THRESHOLDS } from '../../status/thresholds';

const EVERY_MS = 5 * 60_000;
const HOUR = 60 * 60_000;

interface Occurrence {
  key: string;
  scheduledUs: number;
  claimedUs: number;
  completedUs: number | null;
  state: 'running' | 'completed' | 'failed';
}

function stream(next: () => number, lease: string, firstSlotMs: number, lastSlotMs: number): Occurrence[] {
  const out: Occurrence[] = [];
  for (let slot = firstSlotMs; slot <= lastSlotMs; slot += EVERY_MS) {
    const fault = next();
    if (fault < 0.08) continue; // a skipped slot
    let scheduledUs = slot * 1000;
    let key = occurrenceKey(lease, new Date(slot));
    let claimedUs = scheduledUs + Math.floor(next() * (next() < 0.2 ? 200_000_000 : 2_000_000)); // late by up to 200 s
    if (fault < 0.1)
      key = `${lease}#custom-${slot}`; // a key that is not its slot's
    else if (fault < 0.12)
      scheduledUs += 250; // a slot off the millisecond
    else if (fault < 0.14) claimedUs = scheduledUs - 1; // claimed before its slot
    const outcome = next();
    const state = outcome < 0.08 ? 'running' : outcome < 0.2 ? 'failed' : 'completed';
    const runUs = outcome > 0.9 ? EVERY_MS * 1000 + Math.floor(next() * 600_000_000) : Math.floor(next() * 100_000_000);
    out.push({ key, scheduledUs, claimedUs, completedUs: state === 'running' ? null : claimedUs + runUs, state });
  }
  return out;
}

describe('occurrences folded an hour to a row read exactly as the rows did', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);
  const held = useConnection(pool);

  async function logs(name: string, fromUs: number, toUs: number, ends: number[]) {
    const { rows } = await held.db.query(LOGS_SQL, [
      name,
      isoUs(fromUs),
      isoUs(toUs),
      ends.map(isoUs),
      60_000,
      DEFAULT_THRESHOLDS.stallAfterMs,
      DEFAULT_REPORT_EVERY_MS,
      EVENT_LIMIT,
      [],
    ]);
    const read: Record<string, unknown> = { ...rows[0] };
    delete read.now_ms; // the read's own clock
    return read;
  }

  it.each([1, 2, 3])(
    'random stream %i',
    async (seed) => {
      const next = seededRandom(seed * 104_729);
      const name = uniqueLease('occ-hours');
      const grant = await authority.acquire(leaseTerms({ name, ttlMs: 600_000 }), newInstanceToken());
      if (grant.kind !== 'acquired') throw new Error(grant.kind);
      const nowMs = Date.now();
      const firstSlotMs = Math.floor((nowMs - 14 * HOUR) / EVERY_MS) * EVERY_MS;
      const occurrences = stream(next, name, firstSlotMs, nowMs - 10 * 60_000);
      // The newest one runs (what the live read shows).
      occurrences.push({ ...occurrences.at(-1)!, state: 'running', completedUs: null });
      const last = occurrences.at(-1)!;
      last.scheduledUs = Math.floor(nowMs / EVERY_MS) * EVERY_MS * 1000;
      last.key = occurrenceKey(name, new Date(last.scheduledUs / 1000));
      last.claimedUs = last.scheduledUs + 1_000;
      await held.db.query(
        `INSERT INTO schedulers (name, every_ms, report_every_ms, stall_after_ms, overdue_after_ms, registered_at) VALUES ($1, $2, 2000, 300000, 300000, $3)`,
        [name, EVERY_MS, isoUs(firstSlotMs * 1000 - 60_000_000)],
      );
      for (const o of occurrences) {
        await held.db.query(
          `INSERT INTO occurrences (key, lease, scheduled_at, state, epoch, claimed_at, completed_at, exit_code) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            o.key,
            name,
            isoUs(o.scheduledUs),
            o.state,
            grant.epoch,
            isoUs(o.claimedUs),
            o.completedUs === null ? null : isoUs(o.completedUs),
            o.state === 'failed' ? 1 : null,
          ],
        );
      }

      const instants: number[] = [];
      for (const o of occurrences) for (const t of [o.claimedUs, o.completedUs]) if (t !== null) instants.push(t - 1, t, t + 1);
      for (let h = Math.ceil(firstSlotMs / HOUR) * HOUR; h < nowMs; h += HOUR) instants.push(h * 1000 - 1, h * 1000, h * 1000 + 1);
      for (let i = 0; i < 200; i++) instants.push(Math.floor((firstSlotMs - 10 * 60_000 + next() * (nowMs - firstSlotMs + 10 * 60_000)) * 1000));
      instants.sort((a, b) => a - b);
      const spans: number[][] = [];
      for (let i = 0; i < instants.length; i += 150) spans.push(instants.slice(i, i + 150));
      const read = async () => {
        const out = [];
        for (const ends of spans) out.push(await logs(name, ends[0]!, ends.at(-1)!, ends));
        return out;
      };
      const before = await read();
      expect(before.flatMap((r) => r.slots as unknown[]).length).toBe(instants.length);

      let folded = 0;
      for (let round = 0; round < 200; round++) {
        const { rows } = await held.db.query<{ n: number }>('SELECT leaseboard_fold_occurrences($1, $2, 7) AS n', [name, grant.epoch]);
        if (rows[0]!.n === 0) break;
        folded += rows[0]!.n;
      }
      const foldable = occurrences.slice(0, -1).filter((o) => o.scheduledUs < (Math.floor(nowMs / HOUR) - 1) * HOUR * 1000);
      expect(folded).toBeGreaterThan(foldable.length / 2);
      const hours = await held.db.query<{ n: number; merged: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE cardinality(scheduled_ms) > 7)::int AS merged FROM occurrence_hours WHERE lease = $1`,
        [name],
      );
      expect(hours.rows[0]!.n).toBeGreaterThan(5);
      expect(hours.rows[0]!.merged).toBeGreaterThan(0); // hours merged into by more than one batch
      const kept = await held.db.query<{ key: string }>(`SELECT key FROM occurrences WHERE lease = $1`, [name]);
      const keptKeys = new Set(kept.rows.map((r) => r.key));
      expect(keptKeys.has(last.key)).toBe(true);
      const newestEnded = occurrences.filter((o) => o.state !== 'running').at(-1)!;
      expect(keptKeys.has(newestEnded.key)).toBe(true);
      for (const o of occurrences) if (o.key.includes('#custom')) expect(keptKeys.has(o.key), o.key).toBe(true);

      const after = await read();
      for (let i = 0; i < spans.length; i++) expect(after[i], `span ${i}`).toEqual(before[i]);
    },
    120_000,
  );
});
