/**
 * What every operator-action route shares: its error answers and its bounded
 * JSON body (lib/http/body.ts), checked against the route's schema.
 *
 * Guarantees: a body is read only after the caller's gate let the request
 * through; at most the route's limit is read (413 past it, before a byte when
 * Content-Length says so; 408 for a body that does not arrive in time); bad
 * input is a 400 `{ error: { code, message } }` naming the field.
 */
import type { z } from 'zod';
import type { WriteRefusal } from '../auth/guard';
import { type BodyLimit, readRequestJson } from '../http/body';
import { json } from '../http/respond';

/** Each route's body limit, in bytes: a reason (≤ 200 characters) and a few fields, with room to spare. */
export const BODY_LIMITS = { signIn: 1_024, intent: 2_048, alertMode: 2_048, faultDrill: 1_024 } as const;

export const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json({ error: { code, message } }, status, headers);
export const refuse = (refusal: WriteRefusal) => fail(refusal.status, refusal.code, refusal.message);

export type BodyOutcome<T> = { ok: true; value: T } | { ok: false; response: Response };

/** `limit.deadlineMs`: how long the body may take to arrive (default lib/http/body.ts DEFAULT_BODY_DEADLINE_MS). */
export async function readBody<S extends z.ZodType>(request: Request, schema: S, limit: BodyLimit): Promise<BodyOutcome<z.infer<S>>> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return { ok: false, response: fail(400, 'invalid_body', 'send a JSON body (Content-Type: application/json)') };
  }
  const raw = await readRequestJson(request, limit);
  if (!raw.ok) return { ok: false, response: fail(raw.refusal.status, raw.refusal.code, raw.refusal.message) };
  const parsed = schema.safeParse(raw.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue ? (issue.message.includes(':') ? issue.message : `${issue.path.join('.') || 'body'}: ${issue.message}`) : 'invalid body';
    return { ok: false, response: fail(400, 'invalid_body', message) };
  }
  return { ok: true, value: parsed.data };
}
