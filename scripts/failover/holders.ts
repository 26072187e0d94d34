/**
 * Lease holders as the failover tests and drill drive them, through the
 * library alone (no scheduler process): acquire, one fenced write to this
 * database, one write to the archive — each returning what the resource said.
 * A holder keeps its grant after a pause or a failover, as a paused process
 * would, and writes with it when told to.
 */
import type pg from 'pg';
import { type ArchiveTarget, putToArchive } from '../../examples/demo/archive/client';
import { fenceFor, type Grant, LeaseAuthority, leaseTerms, newInstanceToken } from '../../lib/lease';
import { claimOccurrence } from '../../lib/scheduler/occurrences';

export const TTL_MS = 15_000;

export type WriteOutcome = 'accepted' | 'refused' | 'unknown';

export class Holder {
  readonly token = newInstanceToken();
  grant: Grant | null = null;
  private writes = 0;

  constructor(
    private readonly db: pg.Pool,
    readonly lease: string,
  ) {}

  /** Takes the lease (expiring the current holder's tenure first when `force`); throws unless granted. */
  async acquire(force = false): Promise<number> {
    if (force) await this.db.query(`UPDATE leases SET expires_at = clock_timestamp() - interval '1 millisecond' WHERE name = $1`, [this.lease]);
    const result = await new LeaseAuthority(this.db).acquire(leaseTerms({ name: this.lease, ttlMs: TTL_MS }), this.token);
    if (result.kind !== 'acquired') throw new Error(`holder ${this.token}: ${result.kind}`);
    this.grant = { name: this.lease, holder: this.token, epoch: result.epoch };
    return result.epoch;
  }

  get epoch(): number {
    if (!this.grant) throw new Error('not granted');
    return this.grant.epoch;
  }

  /** A fenced insert (an occurrence claim) carrying this holder's epoch. */
  async writeDatabase(): Promise<WriteOutcome> {
    const key = `${this.lease}@${this.token}-${this.writes++}`;
    const result = await claimOccurrence(this.db, fenceFor(this.grant!), key, new Date());
    return result.kind === 'claimed' ? 'accepted' : result.kind === 'rejected' ? 'refused' : result.kind === 'unknown' ? 'unknown' : 'accepted';
  }

  /** A PUT to the archive carrying this holder's epoch. */
  async writeArchive(archive: ArchiveTarget): Promise<WriteOutcome> {
    const request = { lease: this.lease, epoch: this.epoch, idempotencyKey: `${this.token}/${this.writes++}`, signal: new AbortController().signal };
    const result = await putToArchive(archive, request, 'summary', { by: this.token });
    return result.kind === 'accepted' ? 'accepted' : result.kind === 'rejected' ? 'refused' : 'unknown';
  }
}
