// Reports stored as runs (migrations 0025_report_runs, 0028_report_events) rebuild exactly what the
// row-per-report store did. Differential: each random report stream, with faults (lost reports,
// silences at and 1 ms past the bound, jitter in −1…12 ms (two reports to a byte) and past it,
// epoch, occurrence (in the product's `lease@slot` shape too), cursor (small, negative, large moves)
// and cadence changes, stretches where the cursor moves at nearly every report, a late report of an older epoch), is written twice with the same injected times — once by
// the report statement as migration 0018 wrote it (a row per report), once by today's
// leaseboard_report (runs) — then `?at=` at every report instant, a millisecond either side, each
// silence bound and random instants, and history over the whole span, must read the same.
// Times are injected by issuing each function's own statement with clock_timestamp() bound to a
// parameter, inside 10-minute partitions of 2001 made (and dropped) for the test: runs grow only
// inside a partition, so its ends are exercised too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowPerReportStatement, runsStatement } from '../../../db/testing/report-statements';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { seededRandom as random } from '../../../db/testing/random';
import { appendReport } from '../../scheduler/report-store';
import { project } from '../../status';
import type { SchedulerStatus } from '../../status/types';
import { silenceAfterMs } from '../../status/report-break';
import { toIso as iso } from '../../status/time';
import { thresholdsFor } from '../live/facts';
import { factsAt, ReportStates } from './facts-at';
import { bucketEnds, buildHistory } from './history';
import { readLogs } from './logs';
import { currentLease, rebuildTenures } from './tenures';

const BASE_MS = Date.UTC(2001, 2, 4);
const PARTITION_MS = 10 * 60_000;
const PARTITIONS = 12;
/** Written as the lease's own name: an occurrence key in the product's shape (`lease@slot`), which a run stores without the name. */
const LEASE = '{lease}';
const KEYED = `${LEASE}@2001-03-04T00:05:00Z`;

interface Report {
  epoch: number;
  seq: number;
  occurrence: string | null;
  cursor: number | null;
  everyMs: number;
  atMs: number;
}

/** A report stream with faults, in time order, and the instants its epochs were acquired. */
function stream(next: () => number, startMs: number, count: number): { reports: Report[]; epochs: { epoch: number; atMs: number }[] } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const reports: Report[] = [];
  const epochs = [{ epoch: 1, atMs: startMs - 1000 }];
  let working = false;
  let cur = { epoch: 1, seq: 1, occurrence: null as string | null, cursor: null as number | null, everyMs: 2000, atMs: startMs };
  for (let i = 0; i < count; i++) {
    reports.push({ ...cur });
    const fault = next();
    // Mostly the usual jitter (−1…12 ms: two reports to a byte), else wider (to 28 ms a byte, past that more).
    let quiet = cur.everyMs + (next() < 0.7 ? Math.round(next() * 13) - 1 : Math.round((next() - 0.5) * 100));
    let seq = cur.seq + 1;
    if (fault < 0.03)
      seq += 1; // one lost report
    else if (fault < 0.05)
      quiet = silenceAfterMs(cur.everyMs) + 1; // silent 1 ms past the bound
    else if (fault < 0.07)
      quiet = silenceAfterMs(cur.everyMs); // quiet exactly at the bound: no break
    else if (fault < 0.09)
      quiet = cur.everyMs + pick([-200, 129, 128, 127, -128, -129, 300]); // past what a byte holds, or at its ends
    else if (fault < 0.11)
      quiet = pick([90_000, 700_000]); // long silence (past a partition end, past the run cap)
    else if (fault < 0.14) cur = { ...cur, occurrence: pick([null, 'occ-1', 'occ-2', KEYED, `${KEYED}-2`, 'ünïcödé@x']) };
    else if (fault < 0.17) working = !working;
    else if (fault < 0.19) cur = { ...cur, cursor: (cur.cursor ?? 0) + pick([5, 9, 10, -1, -300, 2 ** 40]) };
    else if (fault < 0.2) cur = { ...cur, everyMs: pick([1000, 2000, 5000]) };
    const atMs = cur.atMs + quiet;
    if (fault > 0.2 && fault < 0.21) {
      epochs.push({ epoch: cur.epoch + 1, atMs: atMs - 1 });
      // The old epoch reports once more, late, after the new one took over.
      reports.push({ ...cur, seq: cur.seq + 1, atMs: atMs + 300 });
      cur = { ...cur, epoch: cur.epoch + 1, seq: 1, atMs, cursor: null, occurrence: null };
      reports.push({ ...cur });
      cur = { ...cur, seq: 2, atMs: atMs + 700 + cur.everyMs };
      continue;
    }
    // While working, the cursor moves at nearly every report (now and then back to none).
    const cursor = working && next() < 0.9 ? (next() < 0.05 ? null : (cur.cursor ?? 0) + 1) : cur.cursor;
    cur = { ...cur, seq, atMs, cursor };
  }
  reports.sort((a, b) => a.atMs - b.atMs);
  return { reports, epochs };
}

describe('reports stored as runs', () => {
  const db = usePool();
  const partitions: string[] = [];

  beforeAll(async () => {
    for (let p = 0; p < PARTITIONS; p++) {
      const from = BASE_MS + p * PARTITION_MS;
      await db.query(`SELECT leaseboard_report_partition($1, $2)`, [iso(from), iso(from + PARTITION_MS)]);
      const { rows } = await db.query<{ name: string }>(`SELECT name FROM report_partitions WHERE "from" = $1`, [iso(from)]);
      partitions.push(rows[0]!.name);
    }
  });
  afterAll(async () => {
    for (const name of partitions) await db.query(`DROP TABLE IF EXISTS ${name}`);
    await db.query(`DELETE FROM report_partitions WHERE name = ANY($1)`, [partitions]);
  });

  async function write(statement: string, lease: string, s: ReturnType<typeof stream>): Promise<void> {
    for (const e of s.epochs) {
      await db.query(`INSERT INTO lease_events (lease, kind, epoch, holder, at) VALUES ($1, 'acquired', $2, $3, $4)`, [
        lease,
        e.epoch,
        `holder-${e.epoch}`,
        iso(e.atMs),
      ]);
    }
    for (const r of s.reports) {
      await db.query(statement, [lease, r.epoch, r.seq, r.occurrence?.replace(LEASE, lease) ?? null, r.cursor, r.everyMs, iso(r.atMs)]);
    }
  }

  async function statusAt(lease: string, t: number): Promise<unknown> {
    const logs = await readLogs(db, lease, { fromMs: t, toMs: t, ends: [t], bucketMs: 1 });
    const tenures = rebuildTenures(logs.events, currentLease(logs.lease), logs.nowMs);
    const { facts } = factsAt(logs, tenures, new ReportStates(logs.carry), t, 0);
    return { facts, status: project(facts, iso(t), thresholdsFor(logs.registration)) };
  }

  async function history(lease: string, fromMs: number, toMs: number, bucketMs: number): Promise<unknown> {
    const read = await readLogs(db, lease, { fromMs, toMs, ends: bucketEnds(fromMs, toMs, bucketMs), bucketMs });
    // The twin leases' events differ only in their ids: numbered in order instead.
    const logs = { ...read, events: read.events.map((e, i) => ({ ...e, id: i })) };
    return { logs: { ...logs, nowMs: 0 }, history: buildHistory({ ...logs, bornMs: null }) };
  }

  const same = (value: unknown, from: string, to: string) => JSON.parse(JSON.stringify(value).replaceAll(from, to)) as unknown;

  // Outcomes the walks reached, over every seed (checked after the last one).
  const seen = new Set<string>();
  // One test per stream: each is a few thousand as-of rebuilds, and a loaded CI machine must not push four
  // of them past one test's timeout together.
  it.each([1, 2, 3, 4])(
    'rebuild, at every instant tried and over the span, what the row-per-report store rebuilt (random stream %i with faults)',
    async (seed) => {
      const rowPerReport = rowPerReportStatement();
      const runs = await runsStatement(db);
      const next = random(20261202 + seed);
      const s = stream(next, BASE_MS + 60_000 * seed, 260);
      const lease = { rows: uniqueLease('rows'), runs: uniqueLease('runs') };
      await write(rowPerReport, lease.rows, s);
      await write(runs, lease.runs, s);

      const count = async (name: string) =>
        (
          await db.query<{ rows: number; reports: number; stepped: number }>(
            `SELECT count(*)::int AS rows, sum(COALESCE(last_seq, seq) - seq + 1)::int AS reports,
                (count(*) FILTER (WHERE later_advance))::int AS stepped FROM progress_reports WHERE lease = $1`,
            [name],
          )
        ).rows[0]!;
      const [stored, compacted] = [await count(lease.rows), await count(lease.runs)];
      expect(stored.rows).toBe(s.reports.length);
      expect(compacted.reports, 'every report is kept').toBe(s.reports.length);
      expect(compacted.rows, 'runs are fewer than reports').toBeLessThan(s.reports.length / 4);
      expect(compacted.stepped, 'runs that hold advances').toBeGreaterThan(0);
      // A run never outlives its partition: dropping one drops exactly the reports it held before.
      const crossing = await db.query(
        `SELECT r.seq FROM progress_reports r JOIN report_partitions p ON p."from" <= r.reported_at AND r.reported_at < p."to"
       WHERE r.lease = $1 AND COALESCE(r.last_at, r.reported_at) >= p."to"`,
        [lease.runs],
      );
      expect(crossing.rows).toEqual([]);

      const instants = new Set<number>();
      for (const r of s.reports) {
        // Just before, at or just after each report (one of the three, drawn: every boundary kind is met many
        // times over the walk, at a third of the as-of rebuilds the three would cost).
        instants.add(r.atMs + Math.floor(next() * 3) - 1);
        if (next() < 0.3) for (const d of [0, 1]) instants.add(r.atMs + silenceAfterMs(r.everyMs) + d);
        if (next() < 0.2) instants.add(r.atMs + Math.floor(next() * 5000));
      }
      instants.add(s.epochs[0]!.atMs - 1);
      for (const t of instants) {
        const [a, b] = await Promise.all([statusAt(lease.rows, t), statusAt(lease.runs, t)]);
        expect(same(b, lease.runs, lease.rows), `seed ${seed}, at ${iso(t)}`).toEqual(a);
        const { status } = a as { status: SchedulerStatus };
        seen.add(`work:${status.work.state}`);
        if (status.observation.gap) seen.add(`gap:${status.observation.gap.reason}`);
      }
      const span = [s.epochs[0]!.atMs, s.reports.at(-1)!.atMs + 10_000] as const;
      for (const bucketMs of [1_000, 7_000, 60_000]) {
        const [a, b] = await Promise.all([history(lease.rows, span[0], span[1], bucketMs), history(lease.runs, span[0], span[1], bucketMs)]);
        expect(same(b, lease.runs, lease.rows), `seed ${seed}, history by ${bucketMs} ms`).toEqual(a);
      }
    },
  );

  it('were compared over every kind of break and judgement, so the comparison above was not vacuous', () => {
    for (const outcome of ['work:progressing', 'work:unknown', 'gap:silence', 'gap:lost_reports']) expect(seen, outcome).toContain(outcome);
  });

  it('keep every break: one lost seq, and a silence 1 ms past its bound, while a quiet exactly at it is none', async () => {
    const runs = await runsStatement(db);
    const lease = uniqueLease('breaks');
    const start = BASE_MS + 30 * 60_000;
    const every = 2000;
    // seq 1..5 every 2 s with a quiet exactly at the bound before seq 5; seq 6 silent 1 ms past it; seq 8 after a lost seq 7.
    const reports: Report[] = [];
    let at = start;
    const quiets = [0, every, every, every, silenceAfterMs(every), silenceAfterMs(every) + 1, every];
    const seqs = [1, 2, 3, 4, 5, 6, 8];
    for (let i = 0; i < seqs.length; i++) {
      at += quiets[i]!;
      // The cursor moves at every report and the occurrence changes at seq 3: events inside the run, never a break.
      reports.push({ epoch: 1, seq: seqs[i]!, occurrence: i < 2 ? 'occ' : 'occ-2', cursor: 7 + i, everyMs: every, atMs: at });
    }
    await write(runs, lease, { reports, epochs: [{ epoch: 1, atMs: start - 1 }] });
    const logs = await readLogs(db, lease, { fromMs: start, toMs: at + 1, ends: [at + 1], bucketMs: at + 1 - start });
    expect(logs.breaks.map((b) => ({ from: iso(b.from_ms), to: iso(b.to_ms), reason: b.reason }))).toEqual([
      { from: iso(reports[4]!.atMs), to: iso(reports[5]!.atMs), reason: 'silence' },
      { from: iso(reports[5]!.atMs), to: iso(reports[6]!.atMs), reason: 'lost_reports' },
    ]);
    const { rows } = await db.query(`SELECT seq, COALESCE(last_seq, seq) AS last FROM progress_reports WHERE lease = $1 ORDER BY reported_at`, [lease]);
    // seq 5's quiet (exactly the bound, 6 s) is no break: it goes on in the run (a varint offset).
    expect(rows, 'seq 1–5 one run; each break starts a row').toEqual([
      { seq: 1, last: 5 },
      { seq: 6, last: 6 },
      { seq: 8, last: 8 },
    ]);
  });
  it('are what leaseboard_report itself writes as reports arrive: a run, and `?at=` now says what the live summary says', async () => {
    // A partition for today (unless one exists), dropped after: runs grow only inside one.
    const day = new Date();
    day.setUTCHours(0, 0, 0, 0);
    const made = await db.query<{ made: boolean }>(`SELECT leaseboard_report_partition($1, $2) AS made`, [day, new Date(day.getTime() + 86_400_000)]);
    try {
      const lease = uniqueLease('live');
      const every = 100;
      let seq = 0;
      const send = () => appendReport(db, { lease, epoch: 1, seq: ++seq, occurrence: 'occ', cursor: seq < 3 ? seq : 3, reportEveryMs: every });
      const runs = async () =>
        (
          await db.query<{ n: number; longest: number }>(
            `SELECT count(*)::int AS n, max(COALESCE(last_seq, seq) - seq + 1)::int AS longest FROM progress_reports WHERE lease = $1`,
            [lease],
          )
        ).rows[0]!;
      await db.query(`INSERT INTO lease_events (lease, kind, epoch, holder, at) VALUES ($1, 'acquired', 1, 'holder-1', clock_timestamp())`, [lease]);
      await send();
      // Reports at the cadence until a run holds five of them (a loaded machine may start a few rows; never a break).
      while ((await runs()).longest < 5) {
        expect(seq, 'a run of five within 200 reports').toBeLessThan(200);
        await new Promise((resolve) => setTimeout(resolve, every));
        await send();
      }
      const { n } = await runs();
      expect(n).toBeLessThan(seq);
      const summary = (
        await db.query(
          `SELECT (extract(epoch FROM last_report_at) * 1000)::float8 AS at_ms, last_seq, cursor::float8 AS cursor FROM progress_summaries WHERE lease = $1`,
          [lease],
        )
      ).rows[0] as { at_ms: number; last_seq: number; cursor: number };
      const asOf = (await statusAt(lease, summary.at_ms)) as { facts: { progress: { lastReportAt: string; lastSeq: number; cursor: number } } };
      expect(asOf.facts.progress).toMatchObject({ lastReportAt: iso(summary.at_ms), lastSeq: summary.last_seq, cursor: summary.cursor });
      expect(summary.last_seq).toBe(seq);
    } finally {
      if (made.rows[0]!.made) {
        const { rows } = await db.query<{ name: string }>(`SELECT name FROM report_partitions WHERE "from" = $1`, [day]);
        await db.query(`DROP TABLE ${rows[0]!.name}`);
        await db.query(`DELETE FROM report_partitions WHERE name = $1`, [rows[0]!.name]);
      }
    }
  });
});
