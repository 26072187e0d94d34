/**
 * What a new evaluator sends at once: every alert Alertmanager may hold from
 * this evaluator's lease, rebuilt from the stored records. After a takeover
 * or a restart nobody knows whether the predecessor's last sends arrived
 * (its process may have died between the commit and the POST), so the new
 * holder repeats them; Alertmanager deduplicates by label set, so a repeat
 * is never a second notification.
 *
 * Guarantees: pure; one alert per record that has been sent (`sent` not
 * null): a firing one (state firing, last sent as firing) as firing with a
 * fresh `endsAt`; a resolved or withdrawn one as resolved with its `endsAt`
 * (the resolution, or the withdrawal time); each carries its record's
 * `sent.at`, so an acknowledgement confirms that send.
 * Non-guarantees: records never sent (shadow, pending) send nothing.
 */
import { nowToMs, toIso } from '../status/time';
import { alertmanagerAlert } from './payload';
import { parseAlertKey } from './round';
import { firingValidForMs, type StepClock } from './step';
import type { AlertRecord, OutgoingAlert, Routing } from './types';

const routingOf = (routing: ReadonlyMap<string, Routing>, scheduler: string | null) => (scheduler === null ? null : (routing.get(scheduler) ?? null));

export function reopenSends(
  records: ReadonlyMap<string, AlertRecord>,
  clock: StepClock,
  externalUrl: string,
  routing: ReadonlyMap<string, Routing> = new Map(),
): OutgoingAlert[] {
  const out: OutgoingAlert[] = [];
  const nowMs = nowToMs(clock.now);
  for (const [key, record] of records) {
    const sent = record.sent;
    const parsed = parseAlertKey(key);
    if (sent === null || parsed === null) continue;
    const { state } = record;
    const summary = record.summary ?? parsed.rule;
    const firedAt = state.kind === 'firing' || state.kind === 'resolved' ? state.firedAt : sent.at;
    const times =
      sent.as === 'firing' && state.kind === 'firing'
        ? { startsAt: firedAt, endsAt: toIso(nowMs + firingValidForMs(clock)), firedAt }
        : { startsAt: firedAt, endsAt: state.kind === 'resolved' ? state.resolvedAt : sent.at, firedAt };
    out.push({
      key,
      alert: alertmanagerAlert(parsed.rule, parsed.scheduler, summary, times, externalUrl, routingOf(routing, parsed.scheduler)),
      sentAt: sent.at,
    });
  }
  return out;
}
