// A run's packed bytes (migration 0028_report_events) give back every report they were packed from,
// at each edge of the encoding: offsets at and past −1…12 ms (pairs), up to 28 ms and past (singles, varints; a quiet near
// zero and near the silence bound), cursor moves of 1–8, 9, the same move again, negative and huge ones (±(2^61 − 1)),
// to and from none, occurrences in the product's key shape (`lease@slot`: a slot before the run, one that
// only looks like a slot, an empty one), other
// text, the empty string (not none), non-ASCII and long keys (a two-byte length). The packer is the
// store's own (leaseboard_run_append, through its aggregate); the reader is the as-of rebuild's.
import { describe, expect, it } from 'vitest';
import { usePool } from '../../../db/testing/pools';
import { seededRandom as random } from '../../../db/testing/random';

const LEASE = 'scheduler-00042';
const HUGE = 2n ** 61n - 1n;

interface Packed {
  offset: number;
  occurrence: string | null;
  cursor: string | null;
}

/** Each report with the run's last cursor move by a delta before it (what leaseboard_report keeps in `last_move`). */
function withLastMoves(first: Omit<Packed, 'offset'>, later: Packed[]) {
  let lastMove: bigint | null = null;
  let prev = first.cursor;
  return later.map((r) => {
    const row = { offset_ms: r.offset, occurrence: r.occurrence, cursor: r.cursor, last_move: lastMove?.toString() ?? null };
    if (prev !== null && r.cursor !== null && prev !== r.cursor) lastMove = BigInt(r.cursor) - BigInt(prev);
    prev = r.cursor;
    return row;
  });
}

describe('a run packed into bytes', () => {
  const db = usePool();

  async function roundTrip(first: Omit<Packed, 'offset'>, later: Packed[]) {
    const { rows } = await db.query<{ seq: number; ms: string; occurrence: string | null; cursor: string | null; advanced: boolean; bytes: number }>(
      `WITH input AS (SELECT k, x.offset_ms, x.occurrence, x.cursor::bigint AS cursor, x.last_move::bigint AS last_move
                      FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (offset_ms int, occurrence text, cursor text, last_move text))
                        WITH ORDINALITY AS x(offset_ms, occurrence, cursor, last_move, k)),
            later AS (SELECT i.*, lag(i.occurrence, 1, $3) OVER (ORDER BY k) AS prev_occurrence,
                             lag(i.cursor, 1, $4::bigint) OVER (ORDER BY k) AS prev_cursor FROM input i),
            packed AS (SELECT leaseboard_run_pack($1, '2001-03-04T00:00:00.123Z', offset_ms, prev_occurrence, occurrence, prev_cursor, cursor, last_move ORDER BY k) AS bytes FROM later)
       SELECT e.seq, (extract(epoch FROM e.reported_at - '2001-03-04T00:00:00Z') * 1000)::bigint::text AS ms, e.occurrence,
              e.cursor::text AS cursor, e.advanced, length(packed.bytes) AS bytes
       FROM packed, leaseboard_run_reports($1, '2001-03-04T00:00:00.123Z', 1, $3, $4::bigint, true, 2000, packed.bytes) e ORDER BY e.seq`,
      [LEASE, JSON.stringify(withLastMoves(first, later)), first.occurrence, first.cursor],
    );
    let ms = 123;
    let prev = first;
    const expected = [{ seq: 1, ms: '123', ...first, advanced: true }];
    for (const [k, r] of later.entries()) {
      ms += 2000 + r.offset;
      expected.push({
        seq: k + 2,
        ms: String(ms),
        occurrence: r.occurrence,
        cursor: r.cursor,
        advanced: r.occurrence !== prev.occurrence || r.cursor !== prev.cursor,
      });
      prev = r;
    }
    expect(rows.map((row) => ({ seq: row.seq, ms: row.ms, occurrence: row.occurrence, cursor: row.cursor, advanced: row.advanced }))).toEqual(expected);
    return rows[0]!.bytes;
  }

  it('gives back every report at the edges of the encoding', async () => {
    const next = random(20261203);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const offsets = [0, -1, 12, -2, 13, 28, 29, 1, 120, -1999, -2000, 4000, 3999];
    const cursors = (c: bigint | null) =>
      c === null
        ? pick([null, 0n, -HUGE, HUGE, 5n])
        : pick([c, c + 1n, c + 8n, c + 9n, c - 1n, c - 1000n, c + 2500n, c + 2500n, c + 2500n, null, -HUGE, HUGE, 0n]);
    const occurrences = [
      null,
      `${LEASE}@2001-03-04T00:05:00Z`,
      `${LEASE}@2001-03-03T23:55:00Z`, // a slot before the run's first report
      `${LEASE}@2001-02-30T00:05:00Z`, // slot-shaped, but no instant: kept as text
      `${LEASE}@2001-03-04T00:05:00.5Z`,
      `${LEASE}@`,
      `${LEASE}@2001-03-04T00:10:00Z`,
      '',
      'ünïcödé',
      'x'.repeat(300),
      LEASE,
    ];
    for (let round = 0; round < 8; round++) {
      let cursor: bigint | null = pick([null, 0n, HUGE]);
      const first = { occurrence: pick(occurrences), cursor: cursor?.toString() ?? null };
      const later: Packed[] = [];
      for (let k = 0; k < 200; k++) {
        if (next() < 0.3) {
          const moved = cursors(cursor);
          if (moved === null || (moved >= -HUGE && moved <= HUGE)) cursor = moved;
        }
        const occurrence = next() < 0.1 ? pick(occurrences) : (later.at(-1)?.occurrence ?? first.occurrence);
        later.push({ offset: next() < 0.7 ? Math.round(next() * 13) - 1 : pick(offsets), occurrence, cursor: cursor?.toString() ?? null });
      }
      await roundTrip(first, later);
    }
  });

  it('holds two quiet reports −1…12 ms off the cadence in a byte, a later one to 28 ms in a byte, the same cursor move again in a byte', async () => {
    const quiet = Array.from({ length: 100 }, (_, k) => ({ offset: (k % 14) - 1, occurrence: 'occ', cursor: '3' }));
    expect(await roundTrip({ occurrence: 'occ', cursor: '3' }, quiet)).toBe(50);
    // Later than that: a byte up to 28 ms, then a code and a varint.
    const late = (offset: number) => Array.from({ length: 10 }, () => ({ offset, occurrence: 'occ', cursor: '3' }));
    expect(await roundTrip({ occurrence: 'occ', cursor: '3' }, late(28))).toBe(10);
    expect(await roundTrip({ occurrence: 'occ', cursor: '3' }, late(29))).toBe(20);
    expect(await roundTrip({ occurrence: 'occ', cursor: '3' }, late(100))).toBe(30);
    // A job working through batches: its first move a code and a varint, each same move again a byte with its quiet.
    const working = Array.from({ length: 10 }, (_, k) => ({ offset: 2, occurrence: 'occ', cursor: String(3 + 2_500 * (k + 1)) }));
    expect(await roundTrip({ occurrence: 'occ', cursor: '3' }, working)).toBe(1 + 2 + 1 + 9);
    // An occurrence in the product's key shape costs its slot's seconds from the run's first report, not its text.
    const keyed = [{ offset: 0, occurrence: `${LEASE}@2001-03-04T00:05:00Z`, cursor: '3' }];
    expect(await roundTrip({ occurrence: null, cursor: '3' }, keyed)).toBe(1 + 2 + 1);
  });
});
