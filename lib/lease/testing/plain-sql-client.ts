/**
 * The protocol as any other language uses it (examples/python/leaseboard_scheduler.py,
 * examples/shell): one `SELECT … FROM leaseboard_…(…)` per call over a plain connection, each
 * answer read from the function's own row — written from the functions' contract
 * (db/migrations, lib/lease/sql.ts), not from LeaseAuthority. The lease-core tests run through
 * it and through the library alike (lib/lease/authority.int.test.ts), so the library adds no
 * rule of its own to the SQL functions, and a client in another language gets the same answers.
 *
 * Not a product client: no deadlines, no unknown outcomes (an error throws), and a refusal it
 * cannot explain from the function's row is `changed`, where the library reads the row again.
 */
import type pg from 'pg';
import type { AcquireResult, Grant, ReleaseResult, RenewResult } from '../authority';
import type { LeaseTerms } from '../config';

interface AcquireRow {
  granted: boolean;
  epoch: string | null;
  holder: string | null;
  live: boolean | null;
  expires_at: Date | null;
  disabled: boolean | null;
  disabled_by: string | null;
  disabled_reason: string | null;
}

export class PlainSqlClient {
  constructor(private readonly db: Pick<pg.Pool, 'query'>) {}

  async acquire(terms: LeaseTerms, holder: string, label: string | null = null): Promise<AcquireResult> {
    const { rows } = await this.db.query<AcquireRow>('SELECT * FROM leaseboard_acquire($1, $2, $3, $4)', [terms.name, holder, label, terms.ttlMs]);
    const row = rows[0]!;
    if (row.granted) return { kind: 'acquired', epoch: Number(row.epoch), expiresAt: row.expires_at! };
    if (row.disabled) return { kind: 'disabled', by: row.disabled_by ?? '', reason: row.disabled_reason ?? '' };
    if (row.holder === null || !row.live) return { kind: 'changed' };
    const epoch = Number(row.epoch);
    return row.holder === holder
      ? { kind: 'held_by_self', epoch, expiresAt: row.expires_at! }
      : { kind: 'held', holder: row.holder, epoch, expiresAt: row.expires_at! };
  }

  async renew(grant: Grant): Promise<RenewResult> {
    const { rows } = await this.db.query<{ renewed_at: Date; expires_at: Date }>('SELECT renewed_at, expires_at FROM leaseboard_renew($1, $2, $3)', [
      grant.name,
      grant.holder,
      grant.epoch,
    ]);
    return rows[0] ? { kind: 'renewed', renewedAt: rows[0].renewed_at, expiresAt: rows[0].expires_at } : { kind: 'lost' };
  }

  async release(grant: Grant): Promise<ReleaseResult> {
    const { rows } = await this.db.query<{ released_at: Date }>('SELECT released_at FROM leaseboard_release($1, $2, $3)', [
      grant.name,
      grant.holder,
      grant.epoch,
    ]);
    return rows[0] ? { kind: 'released', releasedAt: rows[0].released_at } : { kind: 'not_held' };
  }
}
