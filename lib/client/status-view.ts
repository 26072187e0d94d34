/**
 * What one scheduler shows: the server's status with every claim withdrawn
 * (health unknown) once the browser's own observation is stale or the service
 * could not read the store, and its observation gap prepared for display.
 * Ages are advanced by the local clock in the ticking leaves
 * (components/ticking-text.tsx), not here, so rows need not re-render every
 * second.
 *
 * Pure: nothing here reads a clock. Absolute times are never computed here —
 * they are the server's ISO strings.
 */
import {
  formatDuration,
  type AuthorityState,
  type GapReason,
  type Health,
  type IsoTime,
  type ObservationGap,
  type SchedulerStatus,
  type WorkState,
} from '@/lib/status';
import { AUTHORITY_LABEL, authorityTone, type Tone, WORK_LABEL, workTone } from './health-display';

export interface Observer {
  /** Database time the data was read at (the API's `observedAt`). */
  observedAt: IsoTime;
  /** The browser's observation is too old (older than two poll intervals). */
  stale: boolean;
  /** The service read the store for this answer (`observation.ok`). */
  storeOk: boolean;
}

export interface GapView {
  from: IsoTime;
  to: IsoTime;
  /** The gap lasts until the observation instant (still going on: its duration grows). */
  open: boolean;
  /** Its length at the observation instant. */
  durationMs: number;
  reason: GapReason;
  reasonText: string;
  /** The work axis is unknown because of this gap (vs. an earlier, closed gap). */
  causesUnknown: boolean;
}

export interface StatusView {
  status: SchedulerStatus;
  /** Displayed health: `unknown` whenever the observation cannot back anything else. */
  health: Health;
  /** Why the displayed health is unknown although the server said otherwise. */
  withdrawn: 'browser_stale' | null;
  gap: GapView | null;
}

export const GAP_REASON_TEXT: Record<GapReason, string> = {
  silence: 'reports went silent',
  lost_reports: 'reports were lost (sequence gap)',
  store_unreadable: 'the store could not be read',
  no_report_yet: 'no report yet from this leader',
  previous_epoch_only: 'only the previous leader reported',
  failover: 'database failover: grants on the old primary may be lost',
};

function viewGap(gap: ObservationGap, status: SchedulerStatus, observer: Observer): GapView {
  const from = Date.parse(gap.from);
  const to = Date.parse(gap.to);
  return {
    from: gap.from,
    to: gap.to,
    open: to >= Date.parse(observer.observedAt),
    durationMs: Math.max(0, to - from),
    reason: gap.reason,
    reasonText: GAP_REASON_TEXT[gap.reason],
    causesUnknown: status.health === 'unknown' || status.work.state === 'unknown',
  };
}

export function viewStatus(status: SchedulerStatus, observer: Observer): StatusView {
  const stale = observer.stale;
  const withdrawn = stale && status.health !== 'unknown' ? 'browser_stale' : null;
  return {
    status,
    health: stale || !observer.storeOk ? 'unknown' : status.health,
    withdrawn,
    gap: status.observation.gap ? viewGap(status.observation.gap, status, observer) : null,
  };
}

/** One axis as a chip shows it: its state, label and tone. */
export interface AxisChip<S extends AuthorityState | WorkState> {
  state: S;
  label: string;
  tone: Tone;
}

/** The authority axis as shown: the server's state, or `unknown` once the browser's observation is stale (the claim withdrawn, like the health). */
export function authorityChip(view: StatusView): AxisChip<AuthorityState> {
  if (view.withdrawn === 'browser_stale') return { state: 'unknown', label: AUTHORITY_LABEL.unknown, tone: authorityTone('unknown', false) };
  const { state, atRisk } = view.status.authority;
  return { state, label: AUTHORITY_LABEL[state] + (atRisk ? ' · at risk' : ''), tone: authorityTone(state, atRisk) };
}

/** The work axis as shown, withdrawn the same way. */
export function workChip(view: StatusView): AxisChip<WorkState> {
  const state = view.withdrawn === 'browser_stale' ? 'unknown' : view.status.work.state;
  return { state, label: WORK_LABEL[state], tone: workTone(state) };
}

/** "16:00:03Z–16:00:15Z" or, while it lasts, "since 16:00:03Z" (the duration follows in brackets). */
export function gapSpanStart(gap: GapView, clock: (iso: IsoTime) => string): string {
  return gap.open ? `since ${clock(gap.from)}` : `${clock(gap.from)}–${clock(gap.to)}`;
}

/** The whole span as plain text, e.g. for a title: "since 16:00:03Z (12 s)". */
export function gapSpanText(gap: GapView, clock: (iso: IsoTime) => string): string {
  return `${gapSpanStart(gap, clock)} (${formatDuration(gap.durationMs)})`;
}

/**
 * A server age (or, with `sign: -1`, a time to expiry) advanced by the local
 * time since observation; null when there is no value or the observation is
 * stale (`sinceMs` null).
 */
export function advance(serverMs: number | null, sinceMs: number | null, sign: 1 | -1 = 1): number | null {
  if (serverMs === null || sinceMs === null) return null;
  return serverMs + sign * sinceMs;
}

/** Deep equality of JSON values (what the API answers). */
function equalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && equalJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * A status with what only moves because it was read at a later instant taken
 * out: the ages and time to expiry (a row advances them from its own
 * observation), an open gap's end (it is the observation instant), the
 * reasons (their text carries those ages) and the last report's time: a row
 * shows neither (what follows from them, health and work state, it does).
 */
function rowFacts(status: SchedulerStatus, observedAt: IsoTime) {
  const gap = status.observation.gap;
  const open = gap !== null && Date.parse(gap.to) >= Date.parse(observedAt);
  return {
    ...status,
    reasons: null,
    authority: { ...status.authority, renewalAgeMs: null, expiresInMs: null },
    work: { ...status.work, lastAdvanceAgeMs: null, lastReportAt: null, lastReportAgeMs: null },
    observation: { ...status.observation, gap: open ? { ...gap, to: 'open' } : gap },
  };
}

/**
 * Whether an overview row read at `a` shows the same facts as one read at `b`:
 * then the row may keep the older answer and go on advancing its ages from
 * that answer's observation. Its ages stay as old as the truth or older: each
 * is the server's age plus local time since a request sent before the read.
 */
export function sameRowFacts(a: SchedulerStatus, aObservedAt: IsoTime, b: SchedulerStatus, bObservedAt: IsoTime): boolean {
  return a === b || equalJson(rowFacts(a, aObservedAt), rowFacts(b, bObservedAt));
}
