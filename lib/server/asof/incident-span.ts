/**
 * The range an incident report may cover (../incident.ts), checked before
 * anything is read: non-empty and at most 31 days — a month of postmortem
 * without letting one request walk the whole retention.
 */
import type { ReadError } from '../domain/result';

export const INCIDENT_MAX_DAYS = 31;
const INCIDENT_MAX_SPAN_MS = INCIDENT_MAX_DAYS * 86_400_000;

export function incidentSpanRefusal(fromMs: number, toMs: number): ReadError | null {
  if (fromMs >= toMs) return { kind: 'invalid', code: 'invalid_span', message: 'to must be after from' };
  if (toMs - fromMs > INCIDENT_MAX_SPAN_MS) return { kind: 'invalid', code: 'range_too_long', message: `range longer than ${INCIDENT_MAX_DAYS} days` };
  return null;
}
