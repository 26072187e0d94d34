/**
 * What every operator-action route shares: its error answers and its bounded
 * JSON body (lib/http/json-body.ts), checked against the route's schema.
 *
 * Guarantees: a body is read only after the caller's gate let the request
 * through; at most the route's limit is read (413 past it, before a byte when
 * Content-Length says so; 408 for a body that does not arrive in time); bad
 * input is a 400 `{ error: { code, message } }` naming the field.
 */
import type { WriteRefusal } from '../auth/guard';
import { fail } from '../http/json-body';

export { fail, readBody } from '../http/json-body';

/** Each route's body limit, in bytes: a reason (≤ 200 characters) and a few fields, with room to spare (labels: 32 long keys and values, twice). */
export const BODY_LIMITS = {
  signIn: 1_024,
  intent: 2_048,
  alertMode: 2_048,
  faultDrill: 1_024,
  reportToken: 1_024,
  labels: 16_384,
  serviceToken: 8_192,
  maintenance: 32_768,
  bulkIntent: 4_096,
  teamOwner: 2_048,
  runNow: 1_024,
} as const;

export const refuse = (refusal: WriteRefusal) => fail(refusal.status, refusal.code, refusal.message);
