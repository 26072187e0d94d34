/**
 * One evaluation of one alert under its mode: the next record, the state
 * transition (a fact for `alert_events`), and what to send to Alertmanager.
 *
 * Guarantees: pure.
 * - `off`: not evaluated; the state is forgotten (→ inactive).
 * - `shadow` and `on` run the same state machine; only `on` sends.
 * - Re-sending, as Alertmanager expects (Prometheus' notifier rules): a
 *   firing alert is sent when it starts firing and again every `resendEvery`,
 *   with `endsAt = now + 4 × max(resendEvery, evaluateEvery)` so Alertmanager
 *   resolves it by itself if the evaluator dies; a resolved alert that was
 *   delivered is sent with `endsAt = resolvedAt` at once and re-sent every
 *   `resendEvery` while it is retained (`resolvedRetention`).
 * - Withdrawal: an alert Alertmanager holds as firing whose mode leaves `on`
 *   (→ shadow or off) is sent once more with `endsAt = now`, so no page
 *   lingers on a rule an operator took out of delivery.
 * - A record is dropped (null) once it is inactive and nothing sent is left open.
 * Non-guarantees: no I/O; the outbox (./delivery) decides when a send happens.
 */
import { nowToMs, toIso, toMs } from '../status/time';
import { advance, INACTIVE, phase, type MachineTiming } from './machine';
import type { AlertMode, AlertRecord, AlertState, AlertStateKind, Condition, SentMark } from './types';

export interface StepClock {
  now: string;
  resendEveryMs: number;
  evaluateEveryMs: number;
}

interface Send {
  as: 'firing' | 'resolved';
  startsAt: string;
  endsAt: string;
  firedAt: string;
}

export interface StepResult {
  record: AlertRecord | null;
  transition: { from: AlertStateKind; to: AlertStateKind } | null;
  send: Send | null;
}

/** Does Alertmanager get this alert as firing now? (The golden cases' `delivered`.) */
export function isDelivered(state: AlertState, mode: AlertMode): boolean {
  return mode === 'on' && phase(state) === 'firing';
}

function firedAtOf(state: AlertState): string | null {
  return state.kind === 'firing' || state.kind === 'resolved' ? state.firedAt : null;
}

/** How long a firing send stays valid at Alertmanager: 4 re-send intervals, so it resolves by itself if the evaluator dies. */
export function firingValidForMs(clock: Pick<StepClock, 'resendEveryMs' | 'evaluateEveryMs'>): number {
  return 4 * Math.max(clock.resendEveryMs, clock.evaluateEveryMs);
}

function due(sent: SentMark, nowMs: number, resendEveryMs: number): boolean {
  return nowMs - toMs('sent.at', sent.at) >= resendEveryMs;
}

function decideSend(mode: AlertMode, before: AlertState, state: AlertState, sent: SentMark | null, clock: StepClock): Send | null {
  const nowMs = nowToMs(clock.now);
  const heldAsFiring = sent?.as === 'firing';
  if (mode === 'on' && state.kind === 'firing') {
    if (sent === null || sent.as === 'resolved' || due(sent, nowMs, clock.resendEveryMs)) {
      return { as: 'firing', startsAt: state.firedAt, endsAt: toIso(nowMs + firingValidForMs(clock)), firedAt: state.firedAt };
    }
    return null;
  }
  if (mode === 'on' && state.kind === 'resolved' && sent !== null) {
    if (heldAsFiring || due(sent, nowMs, clock.resendEveryMs)) {
      return { as: 'resolved', startsAt: state.firedAt, endsAt: state.resolvedAt, firedAt: state.firedAt };
    }
    return null;
  }
  if (heldAsFiring) {
    // Withdrawal: the mode left `on`, or the state left firing without resolving (forgotten by `off`).
    const firedAt = firedAtOf(state) ?? firedAtOf(before) ?? sent.at;
    return { as: 'resolved', startsAt: firedAt, endsAt: clock.now, firedAt };
  }
  return null;
}

/**
 * @param condition ignored in mode `off` (the rule is not evaluated)
 * @param summarize the summary of a true condition; called only when the
 *   record needs it (a true evaluation that changes the state or sends, or
 *   no summary yet), so a steady firing alert costs no text
 */
export function stepAlert(
  timing: MachineTiming,
  mode: AlertMode,
  condition: Condition,
  previous: AlertRecord | undefined,
  summarize: () => string,
  clock: StepClock,
): StepResult {
  const before = previous?.state ?? INACTIVE;
  const state = mode === 'off' ? INACTIVE : advance(timing, condition, before, clock.now);
  const prevSent = previous?.sent ?? null;
  const send = decideSend(mode, before, state, prevSent, clock);
  const sent: SentMark | null = send ? { at: clock.now, as: send.as } : prevSent;
  const transition = before.kind === state.kind || (before.kind === 'resolved' && state.kind === 'inactive') ? null : { from: before.kind, to: state.kind };
  const summary = mode !== 'off' && condition === 'true' && (send !== null || transition !== null || !previous?.summary) ? summarize() : null;

  const openAtAlertmanager = sent?.as === 'firing';
  if (state.kind === 'inactive' && !openAtAlertmanager) return { record: null, transition, send };
  if (!send && previous && previous.state === state && summary === null) return { record: previous, transition, send };
  return { record: { state, summary: summary ?? previous?.summary ?? null, sent }, transition, send };
}
