/**
 * Authority history rebuilt from lease_events: each epoch's tenure is one
 * contiguous span [acquired, end) because a lapsed lease cannot be renewed
 * (docs/design.md, "History and as of"). Pure: no I/O, no clock (`nowMs` is database time).
 *
 * Guarantees: a tenure ends at its `released` event, else at the next grant's
 * `previous_ended_at` (the expiry it took over after), else — for the current
 * epoch — at the lease row's expiry once that is ≤ now; otherwise it is open
 * (`to` null). A lapse is reported as `ended: 'expired'` (a takeover only ever
 * follows an expiry; the next tenure says `began: 'taken_over'`).
 * Non-guarantees: events outside the given window are unknown; a release
 * whose grant is not in the window yields no tenure.
 */
import type { LeaseEventKind } from '../../../db/schema';
import type { Tenure } from '../../api/types';
import type { LeaseFacts } from '../../status/types';
import { toIso } from '../../status/time';

export interface LeaseEventLog {
  id: number;
  kind: LeaseEventKind;
  epoch: number;
  holder: string;
  label: string | null;
  at_ms: number;
  previous_epoch: number | null;
  previous_ended_ms: number | null;
  /** The last renewal of the tenure this event ends (null when not recorded). */
  last_renewed_ms?: number | null;
}

/** What the lease row says about the current epoch. */
export interface CurrentLease {
  epoch: number;
  expiresMs: number;
  /** Known release time, or null (a release also leaves an event). */
  releasedMs: number | null;
}

/** The lease row as the logs read gives it (./logs.ts LeaseRowLog). */
type LeaseRowRead = { epoch: number; expires_ms: number; released_ms: number | null };

/**
 * The current epoch as the lease row says, from either read of it. The one
 * place that knows a release sets expires_at to the release instant
 * (lib/lease/sql.ts), so a released lease ended at its expiry.
 */
export function currentLease(lease: LeaseRowRead | LeaseFacts | null): CurrentLease | null {
  if (lease === null) return null;
  if ('expires_ms' in lease) return { epoch: lease.epoch, expiresMs: lease.expires_ms, releasedMs: lease.released_ms };
  const expiresMs = Date.parse(lease.expiresAt);
  return { epoch: lease.epoch, expiresMs, releasedMs: lease.released ? expiresMs : null };
}

export interface TenureLog {
  epoch: number;
  holder: string;
  label: string | null;
  fromMs: number;
  toMs: number | null;
  began: Tenure['began'];
  ended: Tenure['ended'];
}

/** Tenures in ascending order of start; `events` ascending by (at, id). */
export function rebuildTenures(events: readonly LeaseEventLog[], current: CurrentLease | null, nowMs: number): TenureLog[] {
  const releases = new Map<number, number>();
  const endedBy = new Map<number, number>();
  for (const e of events) {
    if (e.kind === 'released') releases.set(e.epoch, e.at_ms);
    else if (e.previous_epoch !== null && e.previous_ended_ms !== null) endedBy.set(e.previous_epoch, e.previous_ended_ms);
  }
  const tenures: TenureLog[] = [];
  for (const e of events) {
    if (e.kind === 'released') continue;
    const tenure: TenureLog = { epoch: e.epoch, holder: e.holder, label: e.label, fromMs: e.at_ms, toMs: null, began: e.kind, ended: null };
    const releasedAt = releases.get(e.epoch) ?? (current?.epoch === e.epoch ? current.releasedMs : null);
    const lapsedAt = endedBy.get(e.epoch);
    if (releasedAt !== undefined && releasedAt !== null) {
      tenure.toMs = releasedAt;
      tenure.ended = 'released';
    } else if (lapsedAt !== undefined) {
      tenure.toMs = lapsedAt;
      tenure.ended = 'expired';
    } else if (current?.epoch === e.epoch && current.expiresMs <= nowMs) {
      tenure.toMs = current.expiresMs;
      tenure.ended = 'expired';
    }
    tenures.push(tenure);
  }
  return tenures;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

export function toApiTenure(t: TenureLog): Tenure {
  return { epoch: t.epoch, holder: t.holder, label: t.label, from: new Date(t.fromMs).toISOString(), to: isoOrNull(t.toMs), began: t.began, ended: t.ended };
}

/** The tenure in force (possibly already ended) at `t`: the last one started at or before it. */
export function tenureAt(tenures: readonly TenureLog[], t: number): TenureLog | null {
  let found: TenureLog | null = null;
  for (const tenure of tenures) {
    if (tenure.fromMs <= t) found = tenure;
    else break;
  }
  return found;
}
