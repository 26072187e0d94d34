/**
 * The protocol's SQL functions (migration 0018_protocol_functions) as data:
 * their names, and each one's statement as it runs inside the function, so a
 * benchmark or a differential test can issue the very same statement inline
 * and compare. Read from the database (`pg_proc.prosrc`), never copied.
 */
import type pg from 'pg';

export type ProtocolFunction = 'leaseboard_acquire' | 'leaseboard_renew' | 'leaseboard_renew_many' | 'leaseboard_release' | 'leaseboard_report';

/** The statement a protocol function returns (`RETURN QUERY …;`), with its positional arguments ($1 …) as they are. */
export async function protocolStatement(db: Pick<pg.Pool, 'query'>, name: ProtocolFunction): Promise<string> {
  const { rows } = await db.query<{ src: string }>(`SELECT prosrc AS src FROM pg_proc WHERE proname = $1`, [name]);
  if (rows.length !== 1) throw new Error(`${name}: expected one function, found ${rows.length} (is the database migrated?)`);
  const match = /RETURN QUERY\n([\s\S]*);\nEND\s*$/.exec(rows[0]!.src);
  if (!match) throw new Error(`${name}: not in the RETURN QUERY shape this reader expects`);
  return match[1]!;
}
