/**
 * The lease authority: acquire, renew and release, each ONE conditional SQL
 * statement decided on the database clock (see ./sql.ts).
 *
 * Guarantees
 * - At most one holder is granted each epoch; epochs only go up; renewal never
 *   changes the epoch; release keeps the row, so an epoch is never reused.
 * - Renewal succeeds only for the current holder AND epoch of an unexpired,
 *   unreleased lease.
 * - A statement that times out or loses its connection is reported as
 *   `unknown`, never as success or failure.
 * - `renewMany` renews several leases in ONE statement, each judged on its
 *   own exactly as `renew` judges it, with one result per grant; an unknown
 *   outcome of the statement is unknown for every grant in it.
 *
 * Not guaranteed: that only one process *acts* as leader. A paused holder
 * wakes up believing it leads; only fencing at the resource (./fence.ts)
 * stops its writes. Like client-go's leader election, this module only decides
 * who holds the right.
 */
import type pg from 'pg';
import { isLeaseTerms, LeaseConfigError, type LeaseTerms } from './config';
import { traced } from '../telemetry/span';
import { LeaseStoreError, isUnknownOutcome } from './errors';
import { ACQUIRE_SQL, READ_LEASE_SQL, RELEASE_SQL, RENEW_MANY_SQL, RENEW_SQL } from './sql';

/** What a holder keeps after a grant: the proof it presents to renew, release and fence. */
export interface Grant {
  readonly name: string;
  readonly holder: string;
  readonly epoch: number;
}

export type AcquireResult =
  | { kind: 'acquired'; epoch: number; expiresAt: Date }
  | { kind: 'held'; holder: string; epoch: number; expiresAt: Date }
  /** The database says this very token holds it (an earlier attempt's outcome was unknown). */
  | { kind: 'held_by_self'; epoch: number; expiresAt: Date }
  | { kind: 'disabled'; by: string; reason: string }
  /** The row changed between the grant attempt and the explaining read; try again. */
  | { kind: 'changed' }
  | { kind: 'unknown'; cause: unknown };

export type RenewResult = { kind: 'renewed'; renewedAt: Date; expiresAt: Date } | { kind: 'lost' } | { kind: 'unknown'; cause: unknown };

export type ReleaseResult = { kind: 'released'; releasedAt: Date } | { kind: 'not_held' } | { kind: 'unknown'; cause: unknown };

export interface LeaseRecord {
  name: string;
  holder: string;
  holderLabel: string | null;
  epoch: number;
  acquiredAt: Date;
  renewedAt: Date;
  expiresAt: Date;
  ttlMs: number;
  releasedAt: Date | null;
  live: boolean;
}

type Queryable = Pick<pg.Pool, 'query'>;

/** Grants renewed per statement by `renewMany` (the arrays travel as parameters). */
export const RENEW_MANY_MAX = 1_000;

export class LeaseAuthority {
  constructor(private readonly db: Queryable) {}

  /**
   * Acquire the lease `terms` names for `holder`, for `terms.ttlMs`, or say who holds it — one
   * statement either way. Only terms `leaseTerms` or `leaseConfig` made are taken (./config.ts):
   * a name and ttl nobody validated never reach the statement (the database's CHECK on the ttl
   * would refuse an out-of-range one anyway).
   */
  async acquire(terms: LeaseTerms, holder: string, label: string | null = null): Promise<AcquireResult> {
    if (!isLeaseTerms(terms)) throw new LeaseConfigError('terms', 'not made by leaseTerms or leaseConfig');
    const { name, ttlMs } = terms;
    let row: AcquireRow;
    try {
      const { rows } = await this.db.query<AcquireRow>({ text: ACQUIRE_SQL, values: [name, holder, label, ttlMs] });
      row = rows[0]!;
    } catch (error) {
      return this.unknownOrThrow('acquire', error);
    }
    if (row.granted) return { kind: 'acquired', epoch: Number(row.epoch), expiresAt: row.expires_at! };
    if (row.disabled) return { kind: 'disabled', by: row.disabled_by ?? '', reason: row.disabled_reason ?? '' };
    if (row.holder && row.live) return this.heldBy(holder, row.holder, Number(row.epoch), row.expires_at!);
    // Only when a competitor INSERTED the very first row after this statement's snapshot is there
    // nothing to explain the refusal with; one more read (a new snapshot) names the winner.
    const latest = await this.readRow(name);
    return latest?.live ? this.heldBy(holder, latest.holder, Number(latest.epoch), latest.expires_at) : { kind: 'changed' };
  }

  private heldBy(me: string, holder: string, epoch: number, expiresAt: Date): AcquireResult {
    return holder === me ? { kind: 'held_by_self', epoch, expiresAt } : { kind: 'held', holder, epoch, expiresAt };
  }

  /** Extend the lease; only the current holder and epoch can. */
  renew(grant: Grant): Promise<RenewResult> {
    return traced('renewal', { 'leaseboard.scheduler': grant.name }, () => this.renewOne(grant), {
      resultAttributes: (result) => ({ 'leaseboard.outcome': result.kind }),
    });
  }

  private async renewOne(grant: Grant): Promise<RenewResult> {
    try {
      const { rows } = await this.db.query<{ renewed_at: Date; expires_at: Date }>({
        text: RENEW_SQL,
        values: [grant.name, grant.holder, grant.epoch],
      });
      const row = rows[0];
      return row ? { kind: 'renewed', renewedAt: row.renewed_at, expiresAt: row.expires_at } : { kind: 'lost' };
    } catch (error) {
      return this.unknownOrThrow('renew', error);
    }
  }

  /**
   * Renew several grants in one statement (at most RENEW_MANY_MAX per statement;
   * more are split). `results[i]` answers `grants[i]`; a grant listed twice gets
   * the same answer twice. Per-lease results equal those of `renew`.
   * Not guaranteed: independence of waiting — the statement waits for the
   * longest row lock among its leases (a fenced write holds its lease row's
   * share lock until it commits).
   */
  renewMany(grants: readonly Grant[]): Promise<RenewResult[]> {
    return traced('renewal batch', { 'leaseboard.batch_size': grants.length }, () => this.renewAll(grants), {
      resultAttributes: (results) => ({ 'leaseboard.outcome': outcomeOf(results) }),
    });
  }

  private async renewAll(grants: readonly Grant[]): Promise<RenewResult[]> {
    const slot = new Map<string, number>();
    const unique: Grant[] = [];
    const positions = grants.map((grant) => {
      const key = `${grant.name}\u0000${grant.holder}\u0000${grant.epoch}`;
      let at = slot.get(key);
      if (at === undefined) {
        at = unique.push(grant) - 1;
        slot.set(key, at);
      }
      return at;
    });
    const results: RenewResult[] = [];
    for (let from = 0; from < unique.length; from += RENEW_MANY_MAX) {
      results.push(...(await this.renewChunk(unique.slice(from, from + RENEW_MANY_MAX))));
    }
    return positions.map((at) => results[at]!);
  }

  private async renewChunk(grants: readonly Grant[]): Promise<RenewResult[]> {
    let rows: { i: string; renewed_at: Date; expires_at: Date }[];
    try {
      ({ rows } = await this.db.query<{ i: string; renewed_at: Date; expires_at: Date }>({
        text: RENEW_MANY_SQL,
        values: [grants.map((g) => g.name), grants.map((g) => g.holder), grants.map((g) => g.epoch)],
      }));
    } catch (error) {
      const unknown = this.unknownOrThrow('renew', error);
      return grants.map(() => unknown);
    }
    const results: RenewResult[] = grants.map(() => ({ kind: 'lost' }));
    for (const row of rows) results[Number(row.i) - 1] = { kind: 'renewed', renewedAt: row.renewed_at, expiresAt: row.expires_at };
    return results;
  }

  /** Give the lease up at once; the row (and its epoch) stays. */
  async release(grant: Grant): Promise<ReleaseResult> {
    try {
      const { rows } = await this.db.query<{ released_at: Date }>({
        text: RELEASE_SQL,
        values: [grant.name, grant.holder, grant.epoch],
      });
      const row = rows[0];
      return row ? { kind: 'released', releasedAt: row.released_at } : { kind: 'not_held' };
    } catch (error) {
      return this.unknownOrThrow('release', error);
    }
  }

  /** The lease row as the database sees it now, or null if never held. */
  async read(name: string): Promise<LeaseRecord | null> {
    const row = await this.readRow(name);
    if (!row) return null;
    return {
      name,
      holder: row.holder,
      holderLabel: row.holder_label,
      epoch: Number(row.epoch),
      acquiredAt: row.acquired_at,
      renewedAt: row.renewed_at,
      expiresAt: row.expires_at,
      ttlMs: row.ttl_ms,
      releasedAt: row.released_at,
      live: row.live,
    };
  }

  private async readRow(name: string) {
    try {
      const { rows } = await this.db.query<LeaseRow>({ text: READ_LEASE_SQL, values: [name] });
      return rows[0];
    } catch (error) {
      throw new LeaseStoreError('read', `reading lease ${name} failed`, { cause: error });
    }
  }

  private unknownOrThrow(operation: string, error: unknown): { kind: 'unknown'; cause: unknown } {
    if (isUnknownOutcome(error)) return { kind: 'unknown', cause: error };
    throw new LeaseStoreError(operation, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

interface LeaseRow {
  holder: string;
  holder_label: string | null;
  epoch: string;
  acquired_at: Date;
  renewed_at: Date;
  expires_at: Date;
  ttl_ms: number;
  released_at: Date | null;
  live: boolean;
}

interface AcquireRow {
  granted: boolean;
  epoch: string | null;
  expires_at: Date | null;
  holder: string | null;
  live: boolean | null;
  disabled: boolean | null;
  disabled_by: string | null;
  disabled_reason: string | null;
}

/** A renewal batch's outcome for its span: the worst of its results. */
function outcomeOf(results: readonly RenewResult[]): RenewResult['kind'] {
  if (results.some((r) => r.kind === 'unknown')) return 'unknown';
  return results.some((r) => r.kind === 'lost') ? 'lost' : 'renewed';
}
