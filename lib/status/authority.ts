/**
 * The authority axis: who holds the lease, judged from lease facts alone.
 *
 * Guarantees: `held` iff the store was read, the lease is not released and
 * `expiresAt > now` (so `expiresAt == now` is `expired`); `unknown` iff the
 * store could not be read; `atRisk` only while `held`, when renewal age is
 * strictly greater than `atRiskFraction × ttl`. Renewal proves reachability,
 * never progress (docs/design.md, invariant 7): nothing here looks at reports.
 * Non-guarantees: a `held` lease does not mean its holder can still write —
 * the holder may be paused; fencing at the resource decides that.
 */
import { formatAgo, formatDuration, formatIn, formatPercent } from './format';
import type { Thresholds } from './thresholds';
import { toMs } from './time';
import type { AuthorityState, AuthorityStatus, LeaseFacts, Reason, StoreFacts } from './types';

export interface AuthorityJudgement {
  authority: AuthorityStatus;
  reasons: Reason[];
}

const FLOAT_EPSILON_MS = 1e-6;

const NO_LEASE: Omit<AuthorityStatus, 'state'> = {
  holder: null,
  label: null,
  epoch: null,
  acquiredAt: null,
  renewedAt: null,
  renewalAgeMs: null,
  expiresAt: null,
  expiresInMs: null,
  ttlMs: null,
  atRisk: false,
};

function authorityState(store: StoreFacts, lease: LeaseFacts | null, nowMs: number, expiresAtMs?: number): AuthorityState {
  if (!store.ok) return 'unknown';
  if (lease === null) return 'none';
  if (lease.released) return 'released';
  return (expiresAtMs ?? toMs('lease.expiresAt', lease.expiresAt)) > nowMs ? 'held' : 'expired';
}

/** "inst_7kq2m9xd (A), epoch 7" */
function holderText(lease: LeaseFacts): string {
  const label = lease.label ? ` (${lease.label})` : '';
  return `${lease.holder}${label}, epoch ${lease.epoch}`;
}

export function judgeAuthority(store: StoreFacts, lease: LeaseFacts | null, nowMs: number, t: Thresholds): AuthorityJudgement {
  if (lease === null) {
    const state = authorityState(store, lease, nowMs);
    const reasons: Reason[] = state === 'none' ? [{ code: 'authority_none', message: 'lease never held' }] : [];
    return { authority: { state, ...NO_LEASE }, reasons };
  }
  const expiresAtMs = toMs('lease.expiresAt', lease.expiresAt);
  const state = authorityState(store, lease, nowMs, expiresAtMs);
  const renewalAgeMs = nowMs - toMs('lease.renewedAt', lease.renewedAt);
  const expiresInMs = expiresAtMs - nowMs;
  toMs('lease.acquiredAt', lease.acquiredAt); // validated, even though only shown
  // Ages are whole ms; the epsilon absorbs float noise in fraction × ttl
  // (0.29 × 100 = 28.999…) so the boundary stays strict as documented.
  const atRisk = state === 'held' && renewalAgeMs > t.atRiskFraction * lease.ttlMs + FLOAT_EPSILON_MS;
  const authority: AuthorityStatus = {
    state,
    holder: lease.holder,
    label: lease.label ?? null,
    epoch: lease.epoch,
    acquiredAt: lease.acquiredAt,
    renewedAt: lease.renewedAt,
    renewalAgeMs,
    expiresAt: lease.expiresAt,
    expiresInMs,
    ttlMs: lease.ttlMs,
    atRisk,
  };
  return { authority, reasons: authorityReasons(state, lease, renewalAgeMs, expiresInMs, atRisk, t) };
}

function authorityReasons(state: AuthorityState, lease: LeaseFacts, renewalAgeMs: number, expiresInMs: number, atRisk: boolean, t: Thresholds): Reason[] {
  const who = holderText(lease);
  const renewed = `renewed ${formatAgo(renewalAgeMs)}`;
  switch (state) {
    case 'held': {
      const reasons: Reason[] = [{ code: 'authority_held', message: `lease ${renewed} by ${who}; expires ${formatIn(expiresInMs)}` }];
      if (atRisk) {
        const limit = t.atRiskFraction * lease.ttlMs;
        reasons.push({
          code: 'renewal_at_risk',
          message: `renewal age ${formatDuration(renewalAgeMs)} > ${formatPercent(t.atRiskFraction)} of ttl ${formatDuration(lease.ttlMs)} (${formatDuration(limit)})`,
        });
      }
      return reasons;
    }
    case 'expired':
      return [
        {
          code: 'authority_expired',
          message: `lease of ${who} expired ${formatAgo(-expiresInMs)} (last ${renewed}, ttl ${formatDuration(lease.ttlMs)})`,
        },
      ];
    case 'released':
      return [{ code: 'authority_released', message: `lease released by ${who} (last ${renewed})` }];
    case 'none':
    case 'unknown':
      // `none` has no lease; `unknown` is explained once by the store reason.
      return [];
    default: {
      const never: never = state;
      return never;
    }
  }
}
