// The occurrence key's two spellings agree: given slot instants (whole
// seconds, fractions, leap day, far future), the TypeScript key and the SQL
// key computed by PostgreSQL are the same string.
import { describe, expect, it } from 'vitest';
import { usePool } from '../../db/testing/pools';
import { occurrenceKey, occurrenceKeySql } from './occurrence-key';

describe('occurrence key: one definition, two languages', () => {
  const pool = usePool();

  it('TypeScript and SQL spell every key alike', async () => {
    const instants = [
      '2026-11-30T16:00:00.000Z',
      '2026-11-30T16:00:00.999Z',
      '2028-02-29T23:59:59.500Z',
      '1970-01-01T00:00:00.000Z',
      '2099-12-31T00:00:01.001Z',
    ];
    const { rows } = await pool.query<{ key: string }>(
      `SELECT ${occurrenceKeySql('$1::text', 't.slot')} AS key FROM unnest($2::timestamptz[]) WITH ORDINALITY t(slot, i) ORDER BY t.i`,
      ['retention-planner', instants],
    );
    expect(rows.map((r) => r.key)).toEqual(instants.map((iso) => occurrenceKey('retention-planner', new Date(iso))));
    expect(rows[1]!.key).toBe('retention-planner@2026-11-30T16:00:00Z');
  });

  it('whatever the session time zone', async () => {
    const client = await pool.connect();
    try {
      await client.query(`SET TIME ZONE 'Pacific/Kiritimati'`);
      const { rows } = await client.query<{ key: string }>(`SELECT ${occurrenceKeySql("'x'", `'2026-11-30T16:00:00Z'::timestamptz`)} AS key`);
      expect(rows[0]!.key).toBe(occurrenceKey('x', new Date('2026-11-30T16:00:00Z')));
    } finally {
      await client.query('RESET TIME ZONE');
      client.release();
    }
  });
});
