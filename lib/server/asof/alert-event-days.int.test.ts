// Alert transitions folded a day to a row (migration 0032_alert_event_days) leave `?at=` and history
// reading exactly what the rows gave. Differential: random transitions of several rules over ten
// days (some at one instant, ordered by id; instants to the microsecond, at day edges and a
// microsecond either side; a rule the read does not ask for; transitions of no scheduler, or with a
// mode the packed kind cannot say, which stay rows; today's, which stay rows) are written as rows, and the logs read's alert part (each
// rule's last transition at or before `from`, and those in the span) is taken for spans at every
// transition, a microsecond either side, day edges and random instants; then the pruner's fold
// runs in small batches — and once more after a late transition lands in a folded day — and the
// same read must return the same.
import { describe, expect, it } from 'vitest';
import { isoUs, uniqueLease, useConnection, usePool } from '../../../db/testing/pools';
import { foldUntilDone } from '../../../db/testing/folds';
import { seededRandom } from '../../../db/testing/random';
import { LeaseAuthority, leaseTerms, newInstanceToken } from '../../lease';
import { logsForSpan } from './testing/logs-span';

const DAY_US = 86_400_000_000;
const RULES = ['scheduler_stalled', 'scheduler_no_leader', 'scheduler_overdue'];
const STATES = ['inactive', 'pending', 'firing', 'resolved'];

describe('alert transitions folded a day to a row read exactly as the rows did', () => {
  const pool = usePool();
  const authority = new LeaseAuthority(pool);
  const held = useConnection(pool);

  async function alerts(name: string, fromUs: number, toUs: number, limit: number): Promise<unknown> {
    return (await logsForSpan(held.db, name, { fromUs, toUs, limit, rules: RULES.slice(0, 2) })).alerts;
  }

  it.each([1, 2, 3])(
    'random stream %i',
    async (seed) => {
      const next = seededRandom(seed * 15_485_863);
      const name = uniqueLease('alert-days');
      const writer = uniqueLease('evaluator');
      const grant = await authority.acquire(leaseTerms({ name: writer, ttlMs: 600_000 }), newInstanceToken());
      if (grant.kind !== 'acquired') throw new Error(grant.kind);
      // The fold leaves the last hour's day alone: in the first hour after midnight that is yesterday.
      const { rows: clock } = await held.db.query<{ us: string }>(`SELECT (extract(epoch FROM now() - interval '1 hour') * 1000000)::bigint::text AS us`);
      const foldedBeforeUs = Math.floor(Number(clock[0]!.us) / DAY_US) * DAY_US;
      const startUs = foldedBeforeUs - 10 * DAY_US;
      const insert = (scheduler: string | null, atUs: number, mode = next() < 0.8 ? 'on' : 'shadow') =>
        held.db.query(`INSERT INTO alert_events (rule, scheduler, from_state, to_state, at, mode, lease, epoch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          RULES[Math.floor(next() * RULES.length)],
          scheduler,
          STATES[Math.floor(next() * STATES.length)],
          STATES[Math.floor(next() * STATES.length)],
          isoUs(atUs),
          mode,
          writer,
          grant.epoch,
        ]);
      const instants: number[] = [];
      let t = startUs + Math.floor(next() * DAY_US);
      while (t < foldedBeforeUs + 3_600_000_000) {
        const fault = next();
        if (fault < 0.1) t = Math.ceil(t / DAY_US) * DAY_US + [-1, 0, 1][Math.floor(next() * 3)]!; // at a day's edge
        await insert(name, t);
        if (fault > 0.9) await insert(name, t); // two at one instant: ordered by id
        if (fault > 0.95) await insert(null, t); // a rule's own: stays a row
        if (fault > 0.97) await insert(name, t, 'legacy'); // a mode the packed kind cannot say: stays a row
        instants.push(t);
        t += Math.floor(next() * (next() < 0.3 ? 60_000_000 : 4 * 3_600_000_000));
      }
      const spans: [number, number, number][] = [[startUs - DAY_US, foldedBeforeUs + DAY_US, 5_000]];
      for (const i of instants.filter(() => next() < 0.3))
        for (const d of [-1, 0, 1]) spans.push([i + d, i + d + Math.floor(next() * 2 * DAY_US), next() < 0.2 ? 3 : 5_000]);
      for (let day = startUs; day <= foldedBeforeUs; day += DAY_US) for (const d of [-1, 0, 1]) spans.push([day + d, day + d + DAY_US, 5_000]);
      for (let i = 0; i < 20; i++) {
        const from = startUs + Math.floor(next() * 11 * DAY_US);
        spans.push([from, from + Math.floor(next() * DAY_US), 5_000]);
      }
      const read = async () => {
        const out = [];
        for (const [from, to, limit] of spans) out.push(await alerts(name, from, to, limit));
        return out;
      };
      const before = await read();
      expect(before.filter((a) => a !== null).length).toBeGreaterThan(spans.length / 2);

      const fold = () => foldUntilDone(held.db, 'leaseboard_fold_alert_events', { lease: writer, epoch: grant.epoch });
      expect(await fold()).toBeGreaterThan(instants.length / 2);
      const days = await held.db.query<{ n: number; events: number }>(
        `SELECT count(*)::int AS n, coalesce(sum(cardinality(ids)), 0)::int AS events FROM alert_event_days WHERE scheduler = $1`,
        [name],
      );
      expect(days.rows[0]!.n).toBeGreaterThanOrEqual(7);
      const left = await held.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alert_events WHERE scheduler = $1 AND at < $2 AND mode <> 'legacy'`, [
        name,
        isoUs(foldedBeforeUs),
      ]);
      expect(left.rows[0]!.n).toBe(0);
      expect(await read()).toEqual(before);

      // A late transition in a day already folded: a row until the next fold merges it into its day.
      await insert(name, startUs + 5 * DAY_US + 7);
      const withLate = await read();
      expect(withLate).not.toEqual(before);
      expect(await fold()).toBe(1);
      expect(await read()).toEqual(withLate);
    },
    120_000,
  );
});
