// Lease events folded a day to a row (migration 0034_lease_event_days) leave `?at=`, history, the
// recent read and history's first-event time reading exactly what the rows gave. Differential: a
// random stream of one lease over ten days — first grants, takeovers after an expiry (the previous
// tenure ended long before, or a microsecond before), releases and grants after them, failovers
// (the epoch jumps a generation: generation × 10⁹ + tenure), two events at one instant (ordered by
// id), null labels and renewals, instants to the microsecond, at day edges and a microsecond either
// side, holders and labels a join cannot say (which stay rows), today's (which stay rows) — is
// written as rows; then the logs read's events (spans at every event, a microsecond either side, day
// edges and random ones, some with a small event limit), the recent read at the same instants and
// live, the birth read and the whole log (every column to the microsecond) are taken; the pruner's
// fold runs in small batches — and once more after a late event lands in a folded day — and the same
// reads must return the same.
import { describe, expect, it } from 'vitest';
import { isoUs, uniqueLease, useConnection, usePool } from '../../../db/testing/pools';
import { foldUntilDone } from '../../../db/testing/folds';
import { seededRandom } from '../../../db/testing/random';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../../lease';
import { BIRTH_SQL } from './history';
import { RECENT_SQL } from './recent-sql';
import { logsForSpan } from './testing/logs-span';

const DAY_US = 86_400_000_000;
const HOUR_US = 3_600_000_000;
const GENERATION = 1_000_000_000;

interface Tenure {
  epoch: number;
  renewedUs: number | null;
  expiresUs: number;
  releasedUs: number | null;
}

describe('lease events folded a day to a row read exactly as the rows did', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);
  const held = useConnection(pool);

  const logsEvents = async (name: string, fromUs: number, toUs: number, limit: number) => (await logsForSpan(held.db, name, { fromUs, toUs, limit })).events;
  const recentEvents = async (name: string, until: string, limit: number) =>
    (await held.db.query(RECENT_SQL, [name, until, limit, 5])).rows[0].events as unknown;
  const born = async (name: string) => (await held.db.query(BIRTH_SQL, [name])).rows[0].born_ms as unknown;
  const wholeLog = async (name: string) =>
    (
      await held.db.query(
        `SELECT id, kind, epoch::text, holder, holder_label, at::text, previous_epoch::text, previous_ended_at::text, last_renewed_at::text
         FROM leaseboard_lease_log($1, 'infinity') ORDER BY at, id`,
        [name],
      )
    ).rows;

  it.each([1, 2, 3])(
    'random stream %i',
    async (seed) => {
      const next = seededRandom(seed * 32_452_843);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
      const name = uniqueLease('lease-days');
      const writer = uniqueLease('pruner');
      const grant = await authority.acquire(leaseTerms({ name: writer, ttlMs: 600_000 }), newInstanceToken());
      if (grant.kind !== 'acquired') throw new Error(grant.kind);
      const { rows: clock } = await held.db.query<{ us: string }>(`SELECT (extract(epoch FROM now() - interval '1 hour') * 1000000)::bigint::text AS us`);
      const foldedBeforeUs = Math.floor(Number(clock[0]!.us) / DAY_US) * DAY_US; // days before this one are folded
      const startUs = foldedBeforeUs - 10 * DAY_US;

      const insert = (e: {
        kind: string;
        epoch: number;
        atUs: number;
        previousEpoch?: number | null;
        previousEndedUs?: number | null;
        lastRenewedUs?: number | null;
      }) =>
        held.db.query(
          `INSERT INTO lease_events (lease, kind, epoch, holder, holder_label, at, previous_epoch, previous_holder, previous_ended_at, last_renewed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            name,
            e.kind,
            e.epoch,
            next() < 0.03 ? pick(['', 'odd\u001fholder', 'odd\u001eholder']) : `inst_${Math.floor(next() * 1e8).toString(16)}`,
            next() < 0.03 ? pick(['', 'a\u001fb', 'a\u001eb']) : pick([null, 'A', 'B', 'worker 3']),
            isoUs(e.atUs),
            e.previousEpoch ?? null,
            next() < 0.5 ? 'inst_prev' : null,
            e.previousEndedUs == null ? null : isoUs(e.previousEndedUs),
            e.lastRenewedUs == null ? null : isoUs(e.lastRenewedUs),
          ],
        );

      const instants: number[] = [];
      let generation = 0;
      let tenure = 0;
      let current: Tenure | null = null;
      let t = startUs + Math.floor(next() * DAY_US);
      while (t < foldedBeforeUs + 2 * HOUR_US) {
        const fault = next();
        if (fault < 0.1) t = Math.ceil(t / DAY_US) * DAY_US + pick([-1, 0, 1]); // at a day's edge
        if (fault > 0.92) generation += 1; // a failover: the next grant is of a newer generation
        if (current !== null && current.releasedUs === null && current.expiresUs > t && next() < 0.5) {
          // The holder releases.
          current.releasedUs = t;
          await insert({ kind: 'released', epoch: current.epoch, atUs: t, lastRenewedUs: next() < 0.1 ? null : current.renewedUs });
        } else {
          const previous: Tenure | null = current;
          tenure = previous !== null && Math.floor(previous.epoch / GENERATION) === generation ? tenure + 1 : 1;
          const epoch = generation * GENERATION + tenure;
          const released = previous?.releasedUs != null;
          const expiresUs = previous !== null && !released ? Math.min(previous.expiresUs, t - pick([0, 1, Math.floor(next() * 3 * DAY_US)])) : null;
          await insert({
            kind: previous === null || released ? 'acquired' : 'taken_over',
            epoch,
            atUs: t,
            previousEpoch: previous?.epoch ?? null,
            previousEndedUs: previous === null ? null : released ? previous.releasedUs : expiresUs,
            lastRenewedUs: previous === null || released ? null : next() < 0.1 ? null : (expiresUs ?? t) - Math.floor(next() * 15_000_000),
          });
          const renewedUs = t + Math.floor(next() * 60_000_000);
          current = { epoch, renewedUs, expiresUs: renewedUs + 15_000_000 + Math.floor(next() * 10 * HOUR_US), releasedUs: null };
        }
        instants.push(t); // else the next one at the same instant: ordered by id
        if (fault <= 0.9) t += Math.floor(next() * (next() < 0.3 ? 60_000_000 : 5 * HOUR_US));
      }

      const spans: [number, number, number][] = [[startUs - DAY_US, foldedBeforeUs + DAY_US, 5_000]];
      const at: [string, number][] = [['infinity', 10]];
      for (const i of instants)
        for (const d of [-1, 0, 1]) {
          if (next() < 0.4) spans.push([i + d, i + d + Math.floor(next() * 2 * DAY_US), next() < 0.2 ? 3 : 5_000]);
          at.push([isoUs(i + d), next() < 0.2 ? 2 : 10]);
        }
      for (let day = startUs; day <= foldedBeforeUs + DAY_US; day += DAY_US)
        for (const d of [-1, 0, 1]) {
          spans.push([day + d, day + d + DAY_US, 5_000]);
          at.push([isoUs(day + d), 10]);
        }
      for (let i = 0; i < 20; i++) {
        const from = startUs + Math.floor(next() * 11 * DAY_US);
        spans.push([from, from + Math.floor(next() * DAY_US), 5_000]);
      }
      const read = async () => {
        const out: unknown[] = [await wholeLog(name), await born(name)];
        for (const [from, to, limit] of spans) out.push(await logsEvents(name, from, to, limit));
        for (const [until, limit] of at) out.push(await recentEvents(name, until, limit));
        return out;
      };
      const before = await read();
      expect((before[0] as unknown[]).length).toBe(instants.length);
      expect(before.filter((e) => e !== null).length).toBeGreaterThan(spans.length);

      const fold = () => foldUntilDone(held.db, 'leaseboard_fold_lease_events', { lease: writer, epoch: grant.epoch });
      expect(await fold()).toBeGreaterThan(instants.length / 2);
      const days = await held.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM lease_event_days WHERE lease = $1`, [name]);
      expect(days.rows[0]!.n).toBeGreaterThanOrEqual(7);
      const left = await held.db.query<{ holder: string; label: string | null }>(
        `SELECT holder, holder_label AS label FROM lease_events WHERE lease = $1 AND at < $2`,
        [name, isoUs(foldedBeforeUs)],
      );
      const unsayable = (text: string | null) => text === '' || /[\u001e\u001f]/.test(text ?? '');
      expect(left.rows.filter((row) => !unsayable(row.holder) && !unsayable(row.label))).toEqual([]);
      expect(left.rows.length).toBeGreaterThan(0); // the stream wrote some that stay rows
      expect(await read()).toEqual(before);

      // A late event in a day already folded: a row until the next fold merges it into its day.
      await insert({ kind: 'released', epoch: 7, atUs: startUs + 5 * DAY_US + 7, lastRenewedUs: startUs + 5 * DAY_US });
      const withLate = await read();
      expect(withLate).not.toEqual(before);
      expect(await fold()).toBe(1);
      expect(await read()).toEqual(withLate);
    },
    300_000,
  );
});
