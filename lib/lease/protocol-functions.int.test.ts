// One implementation, run both ways: every protocol function gives what its own
// statement gives when issued inline (as the library did before the functions),
// over a seeded random sequence of acquires, renewals (single and batched),
// releases, expiries and reports on two twin leases; leaseboard_report's break
// rule is exactly lib/status's reportBreakSql; and a batch naming a lease twice
// answers for its first matching entry, every time.
import { describe, expect, it } from 'vitest';
import { protocolStatement, type ProtocolFunction } from '../../db/protocol-functions';
import { forceExpire, uniqueLease, usePool } from '../../db/testing/pools';
import { seededRandom as random } from '../../db/testing/random';
import { reportBreakSql } from '../status';

const ARGUMENTS: Record<ProtocolFunction, number> = {
  leaseboard_acquire: 4,
  leaseboard_renew: 3,
  leaseboard_renew_many: 3,
  leaseboard_release: 3,
  leaseboard_report: 6,
};

describe('the protocol functions', () => {
  const db = usePool();

  it("leaseboard_report judges breaks by lib/status's report-break rule, written out exactly", async () => {
    const statement = await protocolStatement(db, 'leaseboard_report');
    const rule = reportBreakSql({ prevSeq: 'prev.last_seq', seq: '$3::int', prevAt: 'prev.last_report_at', at: 'c.now', prevEveryMs: 'prev.report_every_ms' });
    expect(statement).toContain(rule);
    // And a run of reports grows only while the same rule sees no break (migration 0025_report_runs).
    const run = reportBreakSql({
      prevSeq: 'COALESCE(o.last_seq, o.seq)',
      seq: 'r.seq',
      prevAt: 'COALESCE(o.last_at, o.reported_at)',
      at: 'r.now',
      prevEveryMs: 'o.report_every_ms',
    });
    expect(statement).toContain(`${run} IS NULL`);
  });

  it('leaseboard_renew_many renews a lease named twice once, answering for its first matching entry', async () => {
    const lease = uniqueLease('twice');
    const [{ epoch }] = (await db.query(`SELECT epoch::text FROM leaseboard_acquire($1, 'holder-a', 'a', 60000)`, [lease])).rows;
    const renewMany = async (holders: string[]) =>
      (await db.query(`SELECT i::int FROM leaseboard_renew_many($1, $2, $3)`, [holders.map(() => lease), holders, holders.map(() => epoch)])).rows;
    // Repeated, since the unpredictable join row of 0018 showed only now and then.
    for (let round = 0; round < 20; round++) {
      expect(await renewMany(['holder-a', 'holder-a'])).toEqual([{ i: 1 }]);
      expect(await renewMany(['holder-b', 'holder-a', 'holder-a'])).toEqual([{ i: 2 }]);
    }
    expect(await renewMany(['holder-b', 'holder-c'])).toEqual([]);
  });

  it('give, step by step, what their statements give inline (500 random steps on twin leases)', async () => {
    const inline = Object.fromEntries(
      await Promise.all(Object.keys(ARGUMENTS).map(async (name) => [name, await protocolStatement(db, name as ProtocolFunction)])),
    ) as Record<ProtocolFunction, string>;
    const twins = { viaFunction: uniqueLease('fn'), viaStatement: uniqueLease('inline') };
    const call = async (way: keyof typeof twins, fn: ProtocolFunction, values: unknown[]) => {
      const text = way === 'viaFunction' ? `SELECT * FROM ${fn}(${values.map((_, i) => `$${i + 1}`).join(', ')})` : inline[fn];
      return (await db.query({ text, values })).rows;
    };
    /** What a step's answer says, without the instants (the two ways run a few milliseconds apart). */
    const meaning = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? 'instant' : value])));
    const state = async (lease: string) =>
      (
        await db.query(
          `SELECT l.holder, l.epoch::text, l.released_at IS NULL AS open, l.previous_epoch::text, l.previous_holder,
                  s.epoch::text AS report_epoch, s.last_seq, s.in_flight, s.cursor::text, s.gap_reason,
                  (SELECT count(*)::int FROM lease_events e WHERE e.lease = l.name) AS events,
                  (SELECT count(*)::int FROM progress_reports r WHERE r.lease = l.name) AS reports
           FROM leases l LEFT JOIN progress_summaries s ON s.lease = l.name WHERE l.name = $1`,
          [lease],
        )
      ).rows[0] ?? null;

    const next = random(20261202);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const holders = ['holder-a', 'holder-b', 'holder-c'];
    const seqs = new Map<string, number>();
    /** Which answers the walk met, so a walk that never reached an outcome cannot pass unnoticed. */
    const seen = new Set<string>();
    for (let step = 0; step < 500; step++) {
      const current = await state(twins.viaFunction);
      const epoch = current ? Number(current.epoch) : 0;
      const holder = pick(holders);
      const staleEpoch = pick([epoch, epoch - 1, epoch + 1]);
      const op = pick(['acquire', 'renew', 'renew_many', 'release', 'expire', 'report', 'report'] as const);
      // Drawn once per step: both ways get the same arguments.
      const report = { jump: pick([1, 1, 1, 2]), occurrence: pick([null, 'occurrence-1', 'occurrence-2']), cursor: pick([null, 0, 10]) };
      const answers = [];
      for (const way of ['viaFunction', 'viaStatement'] as const) {
        const lease = twins[way];
        switch (op) {
          case 'acquire':
            answers.push(await call(way, 'leaseboard_acquire', [lease, holder, `label-${holder}`, 60_000]));
            break;
          case 'renew':
            answers.push(await call(way, 'leaseboard_renew', [lease, holder, staleEpoch]));
            break;
          case 'renew_many':
            answers.push(
              await call(way, 'leaseboard_renew_many', [
                [lease, lease],
                [holder, current?.holder ?? holder],
                [staleEpoch, epoch],
              ]),
            );
            break;
          case 'release':
            answers.push(await call(way, 'leaseboard_release', [lease, holder, staleEpoch]));
            break;
          case 'expire':
            await forceExpire(db, lease);
            answers.push([]);
            break;
          case 'report': {
            const seq = (seqs.get(`${way}/${staleEpoch}`) ?? 0) + report.jump;
            seqs.set(`${way}/${staleEpoch}`, seq);
            answers.push(await call(way, 'leaseboard_report', [lease, staleEpoch, seq, report.occurrence, report.cursor, 60_000]));
            break;
          }
        }
      }
      const context = `step ${step}: ${op} by ${holder} at epoch ${staleEpoch}`;
      seen.add(`${op}:${answers[0]!.length === 0 ? 'none' : answers[0]![0]!.granted === false ? 'refused' : 'row'}`);
      expect(meaning(answers[1]!), context).toEqual(meaning(answers[0]!));
      const [viaFunction, viaStatement] = await Promise.all([state(twins.viaFunction), state(twins.viaStatement)]);
      expect(viaStatement, context).toEqual(viaFunction);
      if (viaFunction?.gap_reason) seen.add(`gap:${viaFunction.gap_reason}`);
    }
    for (const outcome of [
      'acquire:row',
      'acquire:refused',
      'renew:row',
      'renew:none',
      'renew_many:row',
      'release:row',
      'release:none',
      'report:row',
      'gap:lost_reports',
    ]) {
      expect(seen, outcome).toContain(outcome);
    }
  });
});
