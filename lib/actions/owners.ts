/**
 * A team's owner details, an operator's write: the contact and runbook that
 * the alerts of the schedulers labelled `team=<team>` carry (annotations
 * `contact`, `runbook`; the team itself is their `team` label).
 *
 * Guarantees: the team is a label value (lib/limits/labels.ts, and the
 * database's CHECK); every change appends a team_owner_audit row in the same
 * transaction, timed by the database clock, with before → after (changes to
 * one team serialised by an advisory lock); a change that changes nothing is
 * `unchanged`; at most TEAM_OWNERS_MAX teams (`too_many`), the table's bound.
 * Not guaranteed: that any scheduler carries the team yet.
 */
import type pg from 'pg';
import type { TeamOwnerView } from '../api/types';
import type { IdentifiedBy } from '../limits';
import { labelValueProblem } from '../limits/labels';

export const TEAM_OWNERS_MAX = 1_000;

export interface OwnerChange {
  contact: string;
  runbookUrl: string | null;
  by: string;
  reason: string;
  identifiedBy: IdentifiedBy;
}

export type OwnerChangeResult =
  | { kind: 'changed'; from: TeamOwnerView | null; owner: TeamOwnerView }
  | { kind: 'unchanged'; current: TeamOwnerView }
  | { kind: 'invalid'; message: string }
  | { kind: 'too_many' };

const OWNER_COLUMNS = `team, contact, runbook_url AS "runbookUrl", by, reason, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`;

export async function setTeamOwner(pool: Pick<pg.Pool, 'connect'>, team: string, change: OwnerChange): Promise<OwnerChangeResult> {
  const problem = team === '' ? 'team: empty' : labelValueProblem('team', team);
  if (problem !== null) return { kind: 'invalid', message: problem };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('leaseboard.team-owner:' || $1, 0))", [team]);
    const before = (await client.query<TeamOwnerView>(`SELECT ${OWNER_COLUMNS} FROM team_owners WHERE team = $1`, [team])).rows[0] ?? null;
    if (before !== null && before.contact === change.contact && before.runbookUrl === change.runbookUrl) {
      await client.query('ROLLBACK');
      return { kind: 'unchanged', current: before };
    }
    if (before === null) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM team_owners');
      if (rows[0]!.n >= TEAM_OWNERS_MAX) {
        await client.query('ROLLBACK');
        return { kind: 'too_many' };
      }
    }
    const { rows } = await client.query<TeamOwnerView>(
      `INSERT INTO team_owners (team, contact, runbook_url, by, reason, at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())
       ON CONFLICT (team) DO UPDATE SET contact = excluded.contact, runbook_url = excluded.runbook_url, by = excluded.by,
         reason = excluded.reason, at = excluded.at
       RETURNING ${OWNER_COLUMNS}`,
      [team, change.contact, change.runbookUrl, change.by, change.reason],
    );
    const owner = rows[0]!;
    await client.query(
      `INSERT INTO team_owner_audit (team, from_owner, to_owner, by, identified_by, reason, at)
       VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6, $7::timestamptz)`,
      [team, before === null ? null : JSON.stringify(before), JSON.stringify(owner), change.by, change.identifiedBy, change.reason, owner.at],
    );
    await client.query('COMMIT');
    return { kind: 'changed', from: before, owner };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
